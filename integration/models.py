"""Models of the integration app."""

from .ari import AriDirtyRange, ChannelAvailDay, ChannelRateDay, RatePlanDay, RoomTypeDay, SalesChannel
from .catalog import CatalogSnapshot, CodeMapping
from .content import RatePlan, RatePlanModel, RatePlanModelTranslation, RoomType, RoomTypePhoto, RoomTypeTranslation
from .properties import Property, PropertyMembership, PropertyPhoto, PropertyTranslation
from .sync import ResourceKind, SyncAttempt, SyncState

__all__ = [
    "AriDirtyRange",
    "CatalogSnapshot",
    "ChannelAvailDay",
    "ChannelRateDay",
    "CodeMapping",
    "Property",
    "PropertyMembership",
    "PropertyPhoto",
    "PropertyTranslation",
    "RatePlan",
    "RatePlanDay",
    "RatePlanModel",
    "RatePlanModelTranslation",
    "ResourceKind",
    "RoomType",
    "RoomTypeDay",
    "RoomTypePhoto",
    "RoomTypeTranslation",
    "SalesChannel",
    "SyncAttempt",
    "SyncState",
]
