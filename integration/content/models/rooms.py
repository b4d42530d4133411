"""Room types, rate plan models and rate plans: the content of a property that the hub sells."""

from django.core.exceptions import ValidationError
from django.core.validators import MinValueValidator
from django.db import models
from django.db.models import F, Q
from django.utils.translation import gettext_lazy as _

from ..choices import ContentStatus, RatePlanType
from ..validators import validate_channel_ids, validate_counts
from .properties import Photo, Property, Translation, code_list_field, vendor_id_field


def positive_field(verbose_name, **kwargs):
    """An optional whole number above 0 (stay lengths, capacities)."""
    return models.PositiveIntegerField(verbose_name, null=True, blank=True, validators=[MinValueValidator(1)], **kwargs)


def bed_count_field(verbose_name):
    return models.PositiveSmallIntegerField(verbose_name, default=0)


def _at_least_one(*fields):
    return [
        models.CheckConstraint(
            condition=Q(**{f"{field}__isnull": True}) | Q(**{f"{field}__gte": 1}), name=f"%(class)s_{field}_positive"
        )
        for field in fields
    ]


def _not_above(low, high, message):
    return models.CheckConstraint(
        condition=Q(**{f"{low}__isnull": True}) | Q(**{f"{high}__isnull": True}) | Q(**{f"{low}__lte": F(high)}),
        name=f"%(class)s_{low}_not_above_{high}",
        violation_error_message=message,
    )


class RoomType(models.Model):
    """A kind of room of a property, with one combined stock per day."""

    property = models.ForeignKey(
        Property, verbose_name=_("property"), on_delete=models.CASCADE, related_name="room_types"
    )
    vendor_id = vendor_id_field()
    name = models.CharField(_("name"), max_length=200, help_text=_("The name staff know it by in this back office."))
    status = models.CharField(_("status"), max_length=8, choices=ContentStatus.choices, default=ContentStatus.ENABLED)
    room_count = positive_field(
        _("number of rooms"),
        help_text=_("How many rooms of this type the property has; rooms to sell above it ask for confirmation."),
    )
    min_stay = positive_field(_("minimum stay (nights)"))
    max_stay = positive_field(_("maximum stay (nights)"))
    size = models.DecimalField(
        _("size (m²)"), max_digits=8, decimal_places=2, null=True, blank=True, validators=[MinValueValidator(0)]
    )
    standard_capacity = positive_field(_("standard capacity"))
    max_capacity = positive_field(_("maximum capacity"))
    roomtype_tags = code_list_field(_("room type tags"))
    amenity_tags = code_list_field(_("amenities"))
    view_tags = code_list_field(_("views"))
    details = models.JSONField(
        _("room composition"),
        default=dict,
        blank=True,
        validators=[validate_counts],
        help_text=_(
            "One row per part of the room, named as the hub names it (room, bedroom, bathroom…), with how many it has."
        ),
    )
    single_beds = bed_count_field(_("single beds"))
    double_beds = bed_count_field(_("double beds"))
    bunk_beds = bed_count_field(_("bunk beds"))
    created_at = models.DateTimeField(_("created at"), auto_now_add=True)
    updated_at = models.DateTimeField(_("updated at"), auto_now=True)

    class Meta:
        verbose_name = _("room type")
        verbose_name_plural = _("room types")
        ordering = ["property", "name"]
        constraints = [
            models.UniqueConstraint(fields=["property", "vendor_id"], name="roomtype_vendor_id_unique_per_property"),
            *_at_least_one("min_stay", "max_stay", "standard_capacity", "max_capacity"),
            _not_above("min_stay", "max_stay", _("The minimum stay cannot be longer than the maximum stay.")),
            _not_above(
                "standard_capacity", "max_capacity", _("The standard capacity cannot exceed the maximum capacity.")
            ),
        ]

    def __str__(self):
        return f"{self.name} ({self.vendor_id})"

    def clean(self):
        errors = {}
        if self.min_stay and self.max_stay and self.min_stay > self.max_stay:
            errors["max_stay"] = _("The maximum stay cannot be shorter than the minimum stay.")
        if self.standard_capacity and self.max_capacity and self.standard_capacity > self.max_capacity:
            errors["max_capacity"] = _("The maximum capacity cannot be below the standard capacity.")
        if errors:
            raise ValidationError(errors)


class RoomTypeTranslation(Translation):
    """A room type's name and description in one locale."""

    room_type = models.ForeignKey(
        RoomType, verbose_name=_("room type"), on_delete=models.CASCADE, related_name="translations"
    )

    class Meta(Translation.Meta):
        verbose_name = _("room type translation")
        verbose_name_plural = _("room type translations")
        constraints = [
            models.UniqueConstraint(fields=["room_type", "locale"], name="roomtype_translation_one_per_locale")
        ]


class RoomTypePhoto(Photo):
    """A photo of a room type."""

    room_type = models.ForeignKey(
        RoomType, verbose_name=_("room type"), on_delete=models.CASCADE, related_name="photos"
    )

    class Meta(Photo.Meta):
        verbose_name = _("room type photo")
        verbose_name_plural = _("room type photos")


class RatePlanModel(models.Model):
    """How a property sells its rooms (meals, refunds, sale window). The hub requires exactly one
    standalone model per property: the database keeps it to at most one, the go-live checklist asks for one."""

    property = models.ForeignKey(
        Property, verbose_name=_("property"), on_delete=models.CASCADE, related_name="rate_plan_models"
    )
    vendor_id = vendor_id_field()
    name = models.CharField(_("name"), max_length=200, help_text=_("The name staff know it by in this back office."))
    type = models.CharField(
        _("type"),
        max_length=10,
        choices=RatePlanType.choices,
        default=RatePlanType.PACKAGE,
        help_text=_("The standalone model carries the base rate; a package model a difference against it."),
    )
    sale_from = models.DateField(_("on sale from"), null=True, blank=True)
    sale_to = models.DateField(_("on sale until"), null=True, blank=True)
    min_los = positive_field(_("minimum length of stay"))
    max_los = positive_field(_("maximum length of stay"))
    refundable = models.BooleanField(_("refundable"), default=True)
    breakfast = models.BooleanField(_("breakfast included"), default=False)
    lunch = models.BooleanField(_("lunch included"), default=False)
    dinner = models.BooleanField(_("dinner included"), default=False)
    channels = models.JSONField(
        _("sales channels"),
        null=True,
        blank=True,
        validators=[validate_channel_ids],
        help_text=_("Channel ids this model is sold on; empty means every channel."),
    )
    created_at = models.DateTimeField(_("created at"), auto_now_add=True)
    updated_at = models.DateTimeField(_("updated at"), auto_now=True)

    class Meta:
        verbose_name = _("rate plan model")
        verbose_name_plural = _("rate plan models")
        ordering = ["property", "-type", "name"]
        constraints = [
            models.UniqueConstraint(fields=["property", "vendor_id"], name="ratemodel_vendor_id_unique_per_property"),
            models.UniqueConstraint(
                fields=["property"],
                condition=Q(type=RatePlanType.STANDALONE),
                name="ratemodel_one_standalone_per_property",
                violation_error_message=_("This property already has its standalone model; add a package instead."),
            ),
            models.CheckConstraint(condition=Q(type__in=RatePlanType.values), name="ratemodel_type_valid"),
            *_at_least_one("min_los", "max_los"),
            _not_above("sale_from", "sale_to", _("The sale window must start before it ends.")),
            _not_above("min_los", "max_los", _("The minimum length of stay cannot exceed the maximum.")),
        ]

    def __str__(self):
        return f"{self.name} ({self.vendor_id})"

    def clean(self):
        errors: dict[str, object] = {}
        if self.sale_from and self.sale_to and self.sale_from > self.sale_to:
            errors["sale_to"] = _("The sale window must end on or after the day it starts.")
        if self.min_los and self.max_los and self.min_los > self.max_los:
            errors["max_los"] = _("The maximum length of stay cannot be below the minimum.")
        if self.type == RatePlanType.STANDALONE and self.property_id:
            other = RatePlanModel.objects.filter(property_id=self.property_id, type=RatePlanType.STANDALONE)
            existing = other.exclude(pk=self.pk).first()
            if existing:
                errors["type"] = _("%(name)s is already this property's standalone model; add a package instead.") % {
                    "name": existing.name
                }
        if errors:
            raise ValidationError(errors)


class RatePlanModelTranslation(Translation):
    """A rate plan model's name and description in one locale (at least ko-KR)."""

    model = models.ForeignKey(
        RatePlanModel, verbose_name=_("rate plan model"), on_delete=models.CASCADE, related_name="translations"
    )

    class Meta(Translation.Meta):
        verbose_name = _("rate plan model translation")
        verbose_name_plural = _("rate plan model translations")
        constraints = [models.UniqueConstraint(fields=["model", "locale"], name="ratemodel_translation_one_per_locale")]


class RatePlan(models.Model):
    """A room type sold under a rate plan model of the same property."""

    property = models.ForeignKey(
        Property, verbose_name=_("property"), on_delete=models.CASCADE, related_name="rate_plans", editable=False
    )
    room_type = models.ForeignKey(
        RoomType, verbose_name=_("room type"), on_delete=models.CASCADE, related_name="rate_plans"
    )
    model = models.ForeignKey(
        RatePlanModel, verbose_name=_("rate plan model"), on_delete=models.PROTECT, related_name="rate_plans"
    )
    vendor_id = vendor_id_field()
    status = models.CharField(_("status"), max_length=8, choices=ContentStatus.choices, default=ContentStatus.ENABLED)
    created_at = models.DateTimeField(_("created at"), auto_now_add=True)
    updated_at = models.DateTimeField(_("updated at"), auto_now=True)

    class Meta:
        verbose_name = _("rate plan")
        verbose_name_plural = _("rate plans")
        ordering = ["room_type", "model"]
        constraints = [
            models.UniqueConstraint(fields=["property", "vendor_id"], name="rateplan_vendor_id_unique_per_property"),
            models.UniqueConstraint(fields=["room_type", "model"], name="rateplan_one_per_roomtype_and_model"),
        ]

    def __str__(self):
        return f"{self.room_type.name} / {self.model.name} ({self.vendor_id})"

    def clean(self):
        if self.room_type_id and self.model_id and self.room_type.property_id != self.model.property_id:
            raise ValidationError({"model": _("Choose a rate plan model of the room type's property.")})
        if self.room_type_id:
            self.property_id = self.room_type.property_id
