"""Models of content: properties, room types, rate plan models and rate plans, with their translations
and photos."""

from .properties import Property, PropertyPhoto, PropertyTranslation
from .rooms import RatePlan, RatePlanModel, RatePlanModelTranslation, RoomType, RoomTypePhoto, RoomTypeTranslation

__all__ = [
    "Property",
    "PropertyPhoto",
    "PropertyTranslation",
    "RatePlan",
    "RatePlanModel",
    "RatePlanModelTranslation",
    "RoomType",
    "RoomTypePhoto",
    "RoomTypeTranslation",
]
