"""Form fields and forms of the catalog: the tag fields of content, code mappings and their import."""

from django import forms
from django.core.exceptions import ValidationError
from django.utils.translation import gettext_lazy as _

from .choices import CatalogGroup
from .models import CodeMapping
from .selectors import catalog_check_codes
from .services.mapping import MAPPING_MAX_BYTES, code_mappings_read_csv
from .widgets import CatalogTagsWidget


class CatalogTagsField(forms.Field):
    """A list of codes of one catalog group, picked with CatalogTagsWidget; cleans to a list of codes.

    Codes that the latest catalog lacks (or any code before the catalog was fetched) are errors that
    name them (catalog_check_codes).
    """

    default_error_messages = {"invalid": _("Choose codes from the hub's code catalog.")}

    def __init__(self, group, **kwargs):
        self.group = CatalogGroup(group)
        kwargs.setdefault("widget", CatalogTagsWidget(self.group))
        super().__init__(**kwargs)

    def to_python(self, value):
        if value in self.empty_values:
            return []
        if isinstance(value, str):
            value = [value]
        if not isinstance(value, list | tuple):
            raise ValidationError(self.error_messages["invalid"], code="invalid")
        codes = []
        for code in value:
            if not isinstance(code, str):
                raise ValidationError(self.error_messages["invalid"], code="invalid")
            if code.strip() and code.strip() not in codes:
                codes.append(code.strip())
        return codes

    def validate(self, value):
        super().validate(value)
        errors = catalog_check_codes({"codes": value}, {"codes": self.group})
        if errors:
            raise errors["codes"]

    def has_changed(self, initial, data):
        try:
            data = self.to_python(data)
        except ValidationError:
            return True
        # The select posts codes in catalog order: another order is not a change.
        return sorted(initial or []) != sorted(data)


class CodeMappingForm(forms.ModelForm):
    """One code mapping; the hub code must be in the latest catalog's group."""

    class Meta:
        model = CodeMapping
        fields = ["group", "vendor_code", "hub_code", "note"]

    def clean(self):
        cleaned = super().clean() or {}
        if cleaned.get("group") and cleaned.get("hub_code"):
            errors = catalog_check_codes({"hub_code": [cleaned["hub_code"]]}, {"hub_code": cleaned["group"]})
            for name, error in errors.items():
                self.add_error(name, error)
        return cleaned


class CodeMappingImportForm(forms.Form):
    """The upload of a code mapping file. Cleaned: "file" is its text, "rows" its rows (unchecked)."""

    file = forms.FileField(
        label=_("CSV file"),
        help_text=_("UTF-8 text with the header line group,vendor_code,hub_code,note; one mapping per line."),
    )

    def clean_file(self):
        # One byte over the limit is enough to know it is too large, without reading all of it.
        content = self.cleaned_data["file"].read(MAPPING_MAX_BYTES + 1)
        self.cleaned_data["rows"] = code_mappings_read_csv(content)
        return content.decode("utf-8-sig")
