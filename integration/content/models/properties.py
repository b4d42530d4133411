"""Properties, their translations and photos."""

from django.core.validators import MaxValueValidator, RegexValidator
from django.db import models
from django.utils.translation import gettext_lazy as _

from ...hub.endpoints import VENDOR_ID_MAX_LENGTH
from ..choices import ContentStatus, Locale
from ..validators import validate_code_list, validate_refunds, validate_single_line, validate_vendor_id

phone_validator = RegexValidator(
    r"^\+?[0-9][0-9\- ]{2,30}$", _("Enter a phone number: digits, with hyphens if you like.")
)


def vendor_id_field():
    """The id we choose for a resource at the hub: at most 40 characters of the vendor id rule, fixed once sent."""
    return models.CharField(
        _("vendor id"),
        max_length=VENDOR_ID_MAX_LENGTH,
        validators=[validate_vendor_id],
        help_text=_(
            "Our id for this at the hub: at most 40 letters, digits, “-”, “_” or “.”, never changed once sent."
        ),
    )


def code_list_field(verbose_name):
    """A list of codes from one group of the hub's code catalog."""
    return models.JSONField(verbose_name, default=list, blank=True, validators=[validate_code_list])


class Translation(models.Model):
    """Text of a resource in one of the hub's locales."""

    locale = models.CharField(_("language"), max_length=5, choices=Locale.choices)
    name = models.CharField(_("name"), max_length=200, blank=True)
    description = models.TextField(_("description"), blank=True)

    class Meta:
        abstract = True
        ordering = ["locale"]

    def __str__(self):
        return f"{self.get_locale_display()}: {self.name}"


class Photo(models.Model):
    """A photo shown by the hub, by URL, in the given order."""

    url = models.URLField(_("image URL"), max_length=1000)
    description = models.CharField(_("caption"), max_length=500, blank=True)
    order = models.PositiveIntegerField(_("order"), default=0)

    class Meta:
        abstract = True
        ordering = ["order", "id"]

    def __str__(self):
        return self.url


class Property(models.Model):
    """A lodging property of the vendor, known to the hub by its vendor id."""

    vendor_id = vendor_id_field()
    name = models.CharField(_("name"), max_length=200, help_text=_("The name staff know it by in this back office."))
    status = models.CharField(_("status"), max_length=8, choices=ContentStatus.choices, default=ContentStatus.ENABLED)
    email = models.EmailField(_("email"), blank=True)
    phone = models.CharField(_("phone"), max_length=32, blank=True, validators=[phone_validator])
    sms_phone = models.CharField(_("SMS sender number"), max_length=32, blank=True, validators=[phone_validator])
    checkin = models.TimeField(_("check-in time"), null=True, blank=True)
    checkout = models.TimeField(_("check-out time"), null=True, blank=True)
    website = models.URLField(_("website"), max_length=500, blank=True)
    refunds = models.JSONField(
        _("refund policy"),
        default=dict,
        blank=True,
        validators=[validate_refunds],
        help_text=_("Percentage refunded when a guest cancels this many days or more before check-in."),
    )
    classifications = code_list_field(_("classifications"))
    property_tags = code_list_field(_("property tags"))
    facility_tags = code_list_field(_("facilities"))
    service_tags = code_list_field(_("services"))
    attraction_tags = code_list_field(_("nearby attractions"))
    extra_adult_price = models.PositiveIntegerField(
        _("extra adult price (KRW)"),
        null=True,
        blank=True,
        validators=[MaxValueValidator(100_000_000)],
        help_text=_("Charged per extra adult; leave empty for none."),
    )
    created_at = models.DateTimeField(_("created at"), auto_now_add=True)
    updated_at = models.DateTimeField(_("updated at"), auto_now=True)

    class Meta:
        verbose_name = _("property")
        verbose_name_plural = _("properties")
        ordering = ["name"]
        # The property list and the dashboard's cards read a page of them in this order.
        indexes = [models.Index(fields=["name", "id"], name="property_name")]
        constraints = [
            models.UniqueConstraint(fields=["vendor_id"], name="property_vendor_id_unique"),
            models.CheckConstraint(condition=models.Q(status__in=ContentStatus.values), name="property_status_valid"),
        ]

    def __str__(self):
        return f"{self.name} ({self.vendor_id})"


class PropertyTranslation(Translation):
    """A property's text in one locale (ko-KR is required)."""

    property = models.ForeignKey(
        Property, verbose_name=_("property"), on_delete=models.CASCADE, related_name="translations"
    )
    address = models.CharField(_("address"), max_length=254, blank=True, validators=[validate_single_line])
    address_detail = models.CharField(_("address detail"), max_length=254, blank=True)
    notice = models.TextField(_("notice"), blank=True)
    reservation_description = models.TextField(_("reservation information"), blank=True)
    refunds_description = models.TextField(_("refund policy text"), blank=True)

    class Meta(Translation.Meta):
        verbose_name = _("property translation")
        verbose_name_plural = _("property translations")
        constraints = [
            models.UniqueConstraint(fields=["property", "locale"], name="property_translation_one_per_locale"),
            models.CheckConstraint(
                condition=models.Q(address_detail="") | ~models.Q(address=""),
                name="property_translation_detail_needs_address",
                violation_error_message=_("Give the address together with the address detail."),
            ),
        ]


class PropertyPhoto(Photo):
    """A photo of the property."""

    property = models.ForeignKey(Property, verbose_name=_("property"), on_delete=models.CASCADE, related_name="photos")

    class Meta(Photo.Meta):
        verbose_name = _("property photo")
        verbose_name_plural = _("property photos")
