"""The upload forms of license requests (one per type), and their business number and file fields.

Every rule of the spec is a field error here, before anything is stored or sent: the model's validators
(dates not in the future in Korea, lengths, the corporation's fields) run in the form's model
validation, the number and the file are checked by their fields.
"""

from django import forms
from django.template.defaultfilters import filesizeformat
from django.utils.functional import lazy
from django.utils.translation import gettext_lazy as _

from .choices import LicenseType
from .files import MAX_FILE_BYTES, license_file_check
from .models import BUSINESS_FIELDS, BUSINESS_REQUIRED_FIELDS, PERMIT_FIELDS, LicenseRequest
from .validators import BUSINESS_NUMBER_EXAMPLE, business_number_normalize, validate_business_number

#: What the file picker offers first; the bytes decide (license_file_check).
FILE_ACCEPT = ".pdf,.jpg,.jpeg,.png,.gif,.webp,application/pdf,image/jpeg,image/png,image/gif,image/webp"


class BusinessNumberField(forms.CharField):
    """A business registration number typed with or without hyphens; cleans to its ten digits after
    checking the check digit."""

    default_validators = [validate_business_number]

    def __init__(self, **kwargs):
        kwargs.setdefault("max_length", 12)
        kwargs.setdefault(
            "widget",
            forms.TextInput(
                attrs={"placeholder": BUSINESS_NUMBER_EXAMPLE, "inputmode": "numeric", "autocomplete": "off"}
            ),
        )
        super().__init__(**kwargs)

    def to_python(self, value):
        value = super().to_python(value)
        # Ten digits in the usual shape become the digits alone; anything else stays as typed, for the
        # validator to name the problem.
        return business_number_normalize(value) or value


def _file_help_text():
    # Lazy as a whole: fields are built at import, and the text must follow the language of each request.
    return _("A scan or photo of the license: PDF, JPEG, PNG, GIF or WebP, at most %(limit)s.") % {
        "limit": filesizeformat(MAX_FILE_BYTES)
    }


class LicenseFileField(forms.FileField):
    """An uploaded license file: a JPEG, PNG, GIF, WebP or PDF by its bytes, at most MAX_FILE_BYTES."""

    def __init__(self, **kwargs):
        kwargs.setdefault("widget", forms.ClearableFileInput(attrs={"accept": FILE_ACCEPT}))
        kwargs.setdefault("help_text", lazy(_file_help_text, str)())
        super().__init__(**kwargs)

    def clean(self, data, initial=None):
        file = super().clean(data, initial)
        if file:
            license_file_check(file)
        return file


class LicenseRequestForm(forms.ModelForm):
    """The fields both types share. Subclasses name their type and document fields.

    resubmit_source (set by the admin on a subclass) is the request a resubmission starts from: its
    file may be used again instead of a new upload.
    """

    license_type: LicenseType | None = None
    #: The fields license_request_submit takes from the form (the document's, and the comment).
    document_field_names: tuple[str, ...] = ()
    required_fields: tuple[str, ...] = ()
    resubmit_source: LicenseRequest | None = None

    file = LicenseFileField(label=_("File"), required=False)
    reuse_file = forms.BooleanField(label=_("Use the previous file"), required=False)

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.instance.type = self.license_type
        for name in self.required_fields:
            if name in self.fields:
                self.fields[name].required = True
        source = self.resubmit_source
        # Without an earlier file to use again, a new file is required (and marked so).
        self.fields["file"].required = source is None or not source.file
        self.fields["file"].error_messages["required"] = _("Choose the license file.")
        if "reuse_file" in self.fields:
            if source is not None and source.file:
                self.fields["reuse_file"].initial = True
                self.fields["reuse_file"].label = _("Use the file of the earlier request: %(name)s (%(size)s)") % {
                    "name": source.file_name,
                    "size": filesizeformat(source.file_size),
                }
                self.fields["reuse_file"].help_text = _("Or choose a new file above; a new file is used instead.")
            else:
                self.fields["reuse_file"].disabled = True

    def clean(self):
        cleaned = super().clean() or {}
        reuse = cleaned.get("reuse_file") and self.resubmit_source is not None and self.resubmit_source.file
        if not cleaned.get("file") and not reuse and "file" not in self.errors:
            self.add_error("file", forms.ValidationError(_("Choose the license file."), code="required"))
        return cleaned

    def full_clean(self):
        super().full_clean()
        chosen = self.files.get(self.add_prefix("file")) if self.is_bound else None
        # The file's own error says to choose another file, except when the storage could not keep it:
        # then the same file is to be chosen again. The server keeps no upload for a next attempt: that
        # would need the very storage that just failed (or a second one, with its own cleanup and access
        # checks), while a user expects the form back as typed and to pick the file again, by its name.
        if self.errors and chosen is not None and ("file" not in self.errors or self.has_error("file", "storage")):
            # A browser never keeps a chosen file when the form comes back with an error: say so, by name.
            self.add_error(
                "file",
                forms.ValidationError(
                    _("Choose “%(name)s” again: the browser lets go of a chosen file when the form has an error."),
                    code="choose_again",
                    params={"name": chosen.name},
                ),
            )

    def document_fields(self):
        """The cleaned document fields (and comment) for license_request_submit."""
        return {name: self.cleaned_data[name] for name in self.document_field_names if name in self.cleaned_data}

    def new_file(self):
        """The uploaded file, or None when the previous request's file is used again."""
        return self.cleaned_data.get("file") or None


class PermitLicenseForm(LicenseRequestForm):
    """An accommodation permit: type, number, date, file, comment."""

    license_type = LicenseType.PERMIT
    document_field_names = (*PERMIT_FIELDS, "comment")
    required_fields = PERMIT_FIELDS

    class Meta:
        model = LicenseRequest
        fields = ["property", *PERMIT_FIELDS, "file", "comment"]


class BusinessLicenseForm(LicenseRequestForm):
    """A business registration: holder, number, owner, opening date, and for a corporation its name,
    address, industry and category; file, comment."""

    license_type = LicenseType.BUSINESS
    document_field_names = (*BUSINESS_FIELDS, "comment")
    required_fields = BUSINESS_REQUIRED_FIELDS

    business_number = BusinessNumberField(label=_("Business registration number"))

    class Meta:
        model = LicenseRequest
        fields = [
            "property",
            "business_type",
            "business_number",
            "owner_name",
            "open_date",
            "business_name",
            "business_address",
            "industry",
            "category",
            "file",
            "comment",
        ]
        help_texts = {
            "business_name": _("Required for a corporation."),
            "business_address": _("Required for a corporation."),
            "industry": _("Required for a corporation."),
            "category": _("Required for a corporation."),
        }


FORMS = {LicenseType.PERMIT: PermitLicenseForm, LicenseType.BUSINESS: BusinessLicenseForm}
