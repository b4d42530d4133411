"""Enumerations of the code catalog."""

from django.db import models
from django.utils.translation import gettext_lazy as _
from django.utils.translation import pgettext_lazy


class CatalogGroup(models.TextChoices):
    """The eight groups of the hub's code catalog."""

    CLASSIFICATION = "classification", _("Classification")
    PROPERTY = "property", _("Property")
    FACILITY = "facility", _("Facility")
    SERVICE = "service", _("Service")
    ATTRACTION = "attraction", _("Attraction")
    ROOMTYPE = "roomtype", _("Room type")
    AMENITY = "amenity", _("Amenity")
    # A context, so that the catalog group is not translated as Django's "View" button.
    VIEW = "view", pgettext_lazy("catalog group", "View")
