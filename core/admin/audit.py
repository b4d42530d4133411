"""The admin's own saves in the audit trail (core.audit): a ModelAdmin mixin whose History entries carry
each changed field's value before and after, for the object and its inlines."""

from django.contrib import admin

from core.audit import audit_message, audit_values


def _stored(obj):
    """obj's audited values as the database holds them, before the form's changes are saved."""
    return audit_values(type(obj)._base_manager.get(pk=obj.pk))


class AuditedAdminMixin(admin.ModelAdmin):
    """For a ModelAdmin whose form saves the object itself (not through a service that records it); put it
    before the other ModelAdmin bases."""

    def save_model(self, request, obj, form, change):
        if change:
            obj._audit_before = _stored(obj)
        super().save_model(request, obj, form, change)

    def save_formset(self, request, form, formset, change):
        for inline_form in formset.initial_forms:
            if inline_form.instance.pk and inline_form.has_changed():
                inline_form.instance._audit_before = _stored(inline_form.instance)
        super().save_formset(request, form, formset, change)

    def construct_change_message(self, request, form, formsets, add=False):
        message = super().construct_change_message(request, form, formsets, add)
        obj = form.instance
        inline_values = iter(
            (changed, audit_message(type(changed), getattr(changed, "_audit_before", {}), audit_values(changed)))
            for formset in formsets or ()
            for changed, _fields in formset.changed_objects
        )
        for part in message:
            if "added" in part and not part["added"]:
                part["values"] = audit_message(type(obj), {}, audit_values(obj))
            elif "changed" in part and "name" not in part["changed"]:
                values = audit_message(type(obj), getattr(obj, "_audit_before", {}), audit_values(obj))
                part["changed"]["values"] = values["values"] if values else []
            elif "changed" in part:
                changed, values = next(inline_values)
                part["changed"]["model"] = changed._meta.label_lower
                part["changed"]["values"] = values["values"] if values else []
        return message
