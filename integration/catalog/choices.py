"""Enumerations of the code catalog."""

from django.db import models
from django.utils.translation import gettext_lazy as _
from django.utils.translation import pgettext_lazy


class CatalogGroup(models.TextChoices):
    """The eight groups of the hub's code catalog."""

    CLASSIFICATION = "classification", _("Classification")
    # Contexts: "Property" and "View" have other meanings (a lodging, Django's "View" button).
    PROPERTY = "property", pgettext_lazy("catalog group", "Property")
    FACILITY = "facility", _("Facility")
    SERVICE = "service", _("Service")
    ATTRACTION = "attraction", _("Attraction")
    ROOMTYPE = "roomtype", _("Room type")
    AMENITY = "amenity", _("Amenity")
    VIEW = "view", pgettext_lazy("catalog group", "View")
