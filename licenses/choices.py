"""Enumerations of the licenses app: the two kinds of license, the permit and business types, and the
hub's review status (spec, "License request")."""

from django.db import models
from django.utils.translation import gettext_lazy as _


class LicenseType(models.TextChoices):
    """What a license request proves: an accommodation permit, or the business registration."""

    PERMIT = "permit", _("Accommodation permit")
    BUSINESS = "business", _("Business registration")


class PermitType(models.TextChoices):
    """The 22 permit type codes of the spec, labelled with the permit's name (Korean in Korean)."""

    GENERAL_LODGING = "general_lodging", _("General lodging business")
    RESIDENTIAL_LODGING = "residential_lodging", _("Residential lodging business")
    FOREIGN_TOURIST_URBAN_HOMESTAY = "foreign_tourist_urban_homestay", _("Urban homestay for foreign tourists")
    HANOK_EXPERIENCE = "hanok_experience", _("Hanok experience business")
    RURAL_HOMESTAY = "rural_homestay", _("Rural homestay")
    TOURIST_HOTEL = "tourist_hotel", _("Tourist hotel")
    FLOATING_TOURIST_HOTEL = "floating_tourist_hotel", _("Floating tourist hotel")
    KOREAN_TRADITIONAL_HOTEL = "korean_traditional_hotel", _("Korean traditional hotel")
    FAMILY_HOTEL = "family_hotel", _("Family hotel")
    HOSTEL = "hostel", _("Hostel")
    SMALL_HOTEL = "small_hotel", _("Small hotel")
    MEDICAL_TOURISM_HOTEL = "medical_tourism_hotel", _("Medical tourism hotel")
    YOUTH_HOSTEL = "youth_hostel", _("Youth hostel")
    RESORT_CONDOMINIUM = "resort_condominium", _("Resort condominium")
    TOURIST_PENSION = "tourist_pension", _("Tourist pension")
    RESORT_PENSION = "resort_pension", _("Resort pension")
    GENERAL_CAMPGROUND = "general_campground", _("General campground")
    AUTO_CAMPGROUND = "auto_campground", _("Auto campground")
    FOREST_LODGE = "forest_lodge", _("Forest lodge")
    GOSIWON = "gosiwon", _("Gosiwon")
    SHARED_HOMESTAY = "shared_homestay", _("Shared homestay")
    SPECIALIZED_RESORT = "specialized_resort", _("Specialized resort")


class BusinessType(models.TextChoices):
    """Who holds the business registration; a corporation must give its name, address, industry and
    category."""

    CORPORATION = "corporation", _("Corporation")
    PERSONAL = "personal", _("Sole proprietor")


class ReviewStatus(models.TextChoices):
    """The hub's review of a request: pending until it confirms or rejects it."""

    PENDING = "pending", _("Under review")
    CONFIRM = "confirm", _("Confirmed")
    REJECT = "reject", _("Rejected")


class FileFormat(models.TextChoices):
    """The file formats the hub accepts, as judged by the file's first bytes; value = file extension."""

    JPEG = "jpeg", "JPEG"
    PNG = "png", "PNG"
    GIF = "gif", "GIF"
    WEBP = "webp", "WebP"
    PDF = "pdf", "PDF"


#: The media type a downloaded file is served with.
MEDIA_TYPES = {
    FileFormat.JPEG: "image/jpeg",
    FileFormat.PNG: "image/png",
    FileFormat.GIF: "image/gif",
    FileFormat.WEBP: "image/webp",
    FileFormat.PDF: "application/pdf",
}
