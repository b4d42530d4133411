"""License requests: what a manager submitted for a property, its file, and the hub's review of it."""

from django.conf import settings
from django.core.exceptions import ValidationError
from django.core.validators import MaxLengthValidator
from django.db import models
from django.utils.translation import gettext_lazy as _

from integration.hub.environments import HubEnvironment
from integration.models import Property

from .choices import BusinessType, FileFormat, LicenseType, PermitType, ReviewStatus
from .files import license_file_path, license_storage, validate_license_file
from .validators import business_number_mask, validate_business_number, validate_not_future_in_korea

#: Spec limits (Limits table).
COMMENT_MAX_LENGTH = 16000
PERMIT_NUMBER_MAX_LENGTH = 254
OWNER_NAME_MAX_LENGTH = 128
NAME_MAX_LENGTH = 254
INDUSTRY_MAX_LENGTH = 64

#: The fields each type of request carries, in the order of the form; the first ones are required.
PERMIT_FIELDS = ("permit_type", "permit_number", "permit_date")
BUSINESS_REQUIRED_FIELDS = ("business_type", "business_number", "owner_name", "open_date")
#: Required for a corporation, optional for a sole proprietor.
CORPORATION_FIELDS = ("business_name", "business_address", "industry", "category")
BUSINESS_FIELDS = BUSINESS_REQUIRED_FIELDS + CORPORATION_FIELDS


class LicenseRequest(models.Model):
    """One submission of a permit or a business registration for a property, as the manager entered it,
    and where the hub's review of it stands (refreshed from the hub).

    The row is never changed by people once created: a rejected request is followed by a new one
    (resubmission_of), and a failed send is retried as it is.
    """

    property = models.ForeignKey(
        Property, verbose_name=_("property"), on_delete=models.CASCADE, related_name="license_requests"
    )
    type = models.CharField(_("license"), max_length=10, choices=LicenseType.choices)

    permit_type = models.CharField(_("permit type"), max_length=40, choices=PermitType.choices, blank=True)
    permit_number = models.CharField(_("permit number"), max_length=PERMIT_NUMBER_MAX_LENGTH, blank=True)
    permit_date = models.DateField(_("permit date"), null=True, blank=True, validators=[validate_not_future_in_korea])

    business_type = models.CharField(_("business type"), max_length=12, choices=BusinessType.choices, blank=True)
    #: The ten digits, without hyphens; shown masked (business_number_mask) everywhere but the resubmit form.
    business_number = models.CharField(
        _("business registration number"), max_length=10, blank=True, validators=[validate_business_number]
    )
    owner_name = models.CharField(_("owner name"), max_length=OWNER_NAME_MAX_LENGTH, blank=True)
    open_date = models.DateField(_("opening date"), null=True, blank=True, validators=[validate_not_future_in_korea])
    business_name = models.CharField(_("business name"), max_length=NAME_MAX_LENGTH, blank=True)
    business_address = models.CharField(_("business address"), max_length=NAME_MAX_LENGTH, blank=True)
    industry = models.CharField(_("industry"), max_length=INDUSTRY_MAX_LENGTH, blank=True)
    category = models.CharField(_("category"), max_length=INDUSTRY_MAX_LENGTH, blank=True)

    comment = models.TextField(
        _("comment"),
        blank=True,
        validators=[MaxLengthValidator(COMMENT_MAX_LENGTH)],
        help_text=_("For the hub's reviewers."),
    )
    file = models.FileField(
        _("file"),
        storage=license_storage,
        upload_to=license_file_path,
        max_length=200,
        validators=[validate_license_file],
    )
    file_name = models.CharField(_("file name"), max_length=255, blank=True)
    file_size = models.PositiveIntegerField(_("file size"), default=0)
    file_format = models.CharField(_("file format"), max_length=4, choices=FileFormat.choices, blank=True)

    # What the hub says: set from its answer to the submission, then by each refresh.
    hub_id = models.PositiveBigIntegerField(_("hub request id"), null=True, blank=True)
    #: The hub environment that received the request and whose review the fields below are; a switch to
    #: another environment leaves them with it (that hub reviews its own submissions).
    hub_environment = models.CharField(_("hub environment"), max_length=12, choices=HubEnvironment.choices, blank=True)
    status = models.CharField(_("review status"), max_length=8, choices=ReviewStatus.choices, blank=True)
    reason = models.TextField(_("reason"), blank=True)
    hub_number = models.CharField(
        _("business number at the hub"), max_length=20, blank=True, help_text=_("As the hub shows it, masked.")
    )
    #: The hub's history of the review, newest first: [{"status", "reason", "created_at"}].
    history = models.JSONField(_("review history"), default=list, blank=True)
    hub_created_at = models.DateTimeField(_("submitted to the hub at"), null=True, blank=True)
    hub_updated_at = models.DateTimeField(_("updated at the hub"), null=True, blank=True)
    refreshed_at = models.DateTimeField(_("last read from the hub"), null=True, blank=True)

    resubmission_of = models.ForeignKey(
        "self",
        verbose_name=_("resubmission of"),
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="resubmissions",
    )
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        verbose_name=_("uploaded by"),
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
    )
    created_at = models.DateTimeField(_("uploaded at"), auto_now_add=True, db_index=True)
    updated_at = models.DateTimeField(_("updated at"), auto_now=True)

    class Meta:
        verbose_name = _("license request")
        verbose_name_plural = _("license requests")
        ordering = ["-created_at", "-id"]
        constraints = [
            models.UniqueConstraint(
                fields=["property", "hub_environment", "hub_id"], name="license_request_one_per_hub_id"
            ),
        ]
        indexes = [models.Index(fields=["status", "hub_id"], name="license_request_review")]

    def __str__(self):
        # Named by what it is, never by where it stands (the status has its own badge beside the name).
        label = f"#{self.hub_id}" if self.hub_id else self.document_number()
        return f"{self.get_type_display()} {label}".strip()

    def clean_fields(self, exclude=None):
        """Each field's own rules, then: the fields of the request's type are required (the corporation's
        four only for a corporation) and the other type's stay empty. Fields in exclude (a form already
        reported them) are not reported again."""
        errors: dict[str, list[ValidationError]] = {}
        try:
            super().clean_fields(exclude=exclude)
        except ValidationError as error:
            errors = error.update_error_dict(errors)
        exclude = set(exclude or ())
        required: tuple[str, ...]
        unused: tuple[str, ...]
        if self.type == LicenseType.PERMIT:
            required, unused = PERMIT_FIELDS, BUSINESS_FIELDS
        elif self.type == LicenseType.BUSINESS:
            required, unused = BUSINESS_REQUIRED_FIELDS, PERMIT_FIELDS
            if self.business_type == BusinessType.CORPORATION:
                required += CORPORATION_FIELDS
        else:
            required, unused = (), ()
        for name in required:
            if name in exclude or name in errors or getattr(self, name) not in (None, ""):
                continue
            if name in CORPORATION_FIELDS:
                errors[name] = [ValidationError(_("Required for a corporation."), code="corporation")]
            else:
                errors[name] = [ValidationError(_("This field is required."), code="required")]
        for name in unused:
            if name not in exclude and getattr(self, name) not in (None, ""):
                errors.setdefault(name, []).append(
                    ValidationError(_("Not part of this kind of license."), code="unused")
                )
        if errors:
            raise ValidationError(errors)

    def masked_number(self):
        """The business number as the hub shows it (masked); "" for a permit."""
        if self.type != LicenseType.BUSINESS:
            return ""
        return self.hub_number or business_number_mask(self.business_number)

    def document_number(self):
        """The permit number, or the masked business number: what lists show."""
        return self.permit_number if self.type == LicenseType.PERMIT else self.masked_number()
