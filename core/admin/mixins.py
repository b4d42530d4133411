"""Admin behaviour every app shares."""

from django.contrib import admin
from django.contrib.admin.helpers import ACTION_CHECKBOX_NAME
from django.core.exceptions import NON_FIELD_ERRORS, ValidationError
from django.utils.html import format_html
from django.utils.translation import gettext


class ReadOnlyAdminMixin:
    """A log, a copy of what the hub holds or a screen of its own: shown, never added, changed or deleted in
    the admin."""

    def has_add_permission(self, request, obj=None):
        return False

    def has_change_permission(self, request, obj=None):
        return False

    def has_delete_permission(self, request, obj=None):
        return False


class PlainActionCheckboxMixin:
    """A list's action checkbox written directly, the same input Django's widget renders through the form
    templates: that rendering costs a row about as much as all its other columns (a page of a hundred
    properties spent 40 % of its rows' time there)."""

    def action_checkbox(self, obj):
        label = format_html(gettext("Select this object for an action - {}"), str(obj))
        return format_html(
            '<input type="checkbox" name="{}" value="{}" class="action-select" aria-label="{}">',
            ACTION_CHECKBOX_NAME,
            obj.pk,
            label,
        )


#: The request's attribute that carries a refused save from the first pass of a form to the second.
_REFUSAL = "_vendorhub_save_refused"


class SaveRefusalAdmin(admin.ModelAdmin):
    """An add or change form whose save_model calls a service that can refuse only as it writes (a file
    storage that is full or cannot be written): the service's ValidationError shows the form again, as
    the user filled it, with the refusal as its errors, instead of a server error. The view's transaction
    is rolled back, so nothing half-saved remains.

    The form is shown again by running the view a second time with the refusal added to the form's own
    validation, rather than by copying the admin's rendering of a form."""

    def changeform_view(self, request, object_id=None, form_url="", extra_context=None):
        try:
            return super().changeform_view(request, object_id, form_url, extra_context)
        except ValidationError as error:
            if request.method != "POST" or hasattr(request, _REFUSAL):
                raise
            setattr(request, _REFUSAL, error)
            return super().changeform_view(request, object_id, form_url, extra_context)

    def get_form(self, request, obj=None, change=False, **kwargs):
        form = super().get_form(request, obj, change=change, **kwargs)
        refusal = getattr(request, _REFUSAL, None)
        if refusal is None:
            return form
        errors = refusal.update_error_dict({})

        def clean(self):
            form.clean(self)
            # A field the form does not show has its error above the form.
            raise ValidationError({name if name in self.fields else NON_FIELD_ERRORS: e for name, e in errors.items()})

        return type(form.__name__, (form,), {"clean": clean})
