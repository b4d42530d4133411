"""The audit trail of staff changes: who, when, which fields, and each field's value before and after.

Entries are the admin's own LogEntry rows (so each object's History page and the admin's permissions
apply as they are), whose change message carries the values as well as the field names Django stores:
``[{"changed": {"fields": ["refund policy"], "values": [{"field": "refund_policy", "before": ..., "after":
...}]}}]``. Django's message readers ignore the values; audit_changes reads them back, labelled in the
reader's language. A write records its entry where it happens, with the person who made it: a service
takes the acting user, the admin's own saves go through AuditedAdminMixin (core.admin.audit).
"""

import datetime
import decimal
import json

from django.apps import apps
from django.contrib.admin.models import ADDITION, CHANGE, DELETION, LogEntry
from django.core.exceptions import FieldDoesNotExist
from django.db import models
from django.utils import translation
from django.utils.translation import gettext as _

__all__ = ["ADDITION", "CHANGE", "DELETION", "audit_changes", "audit_message", "audit_record", "audit_values"]


def _plain(value):
    """A field's value as JSON can hold it: dates as ISO text, numbers and JSON as they are, objects by name."""
    if isinstance(value, datetime.datetime | datetime.date | datetime.time):
        return value.isoformat()
    if isinstance(value, decimal.Decimal):
        return str(value)
    if isinstance(value, models.Model):
        return str(value)
    if value is None or isinstance(value, bool | int | float | str | list | dict):
        return value
    return str(value)


def audit_values(obj):
    """The values of obj's audited fields: every editable concrete field but its id and automatic times."""
    values = {}
    for field in obj._meta.concrete_fields:
        if field.primary_key or not field.editable or getattr(field, "auto_now", False):
            continue
        value = getattr(obj, field.name) if field.is_relation else field.value_from_object(obj)
        values[field.name] = _plain(value)
    return values


def audit_message(model, before, after):
    """The "changed" part of a change message between two audit_values of one model (None: no change)."""
    names = [name for name in after if before.get(name) != after[name]]
    if not names:
        return None
    with translation.override(None):  # stored untranslated, as the admin stores its own entries
        labels = [str(model._meta.get_field(name).verbose_name) for name in names]
    return {
        "fields": labels,
        "values": [{"field": name, "before": before.get(name), "after": after[name]} for name in names],
    }


def audit_record(*, user, obj, action=CHANGE, before=None, after=None):
    """Record user's change of obj: for CHANGE, the fields whose value differs between before and after
    (audit_values; after defaults to obj now), nothing when none does; for ADDITION and DELETION, every
    value. No entry without a user (a command or a task acting on its own)."""
    if user is None or not user.is_authenticated:
        return None
    after = audit_values(obj) if after is None and action != DELETION else (after or {})
    if action == CHANGE:
        changed = audit_message(type(obj), before or {}, after)
        if changed is None:
            return None
        message = [{"changed": changed}]
    elif action == ADDITION:
        message = [{"added": {}, "values": audit_message(type(obj), {}, after)}]
    else:
        message = [{"deleted": {}, "values": audit_message(type(obj), before or {}, {})}]
    return LogEntry.objects.log_actions(
        user_id=user.pk, queryset=[obj], action_flag=action, change_message=message, single_object=True
    )


def _display(model, name, value):
    """A stored value as the reader should see it: a choice's label, yes/no, JSON compact, empty as "—"."""
    try:
        field = model._meta.get_field(name) if model is not None else None
    except FieldDoesNotExist:
        field = None
    if value is None or value == "":
        return "—"
    if field is not None and field.choices:
        return str(dict(field.flatchoices).get(value, value))
    if isinstance(value, bool):
        return _("Yes") if value else _("No")
    if isinstance(value, list | dict):
        return json.dumps(value, ensure_ascii=False)
    return str(value)


def audit_changes(entry):
    """The field changes an entry records, each as {"label", "before", "after"} in the reader's language
    (for an addition or deletion, its values with an empty side); [] for an entry without values."""
    try:
        parts = json.loads(entry.change_message or "[]")
    except json.JSONDecodeError:
        return []
    entry_model = entry.content_type.model_class() if entry.content_type_id else None
    rows = []
    for part in parts if isinstance(parts, list) else []:
        changed = part.get("changed") or part.get("values") or {}
        model = apps.get_model(changed["model"]) if changed.get("model") else entry_model  # an inline's
        for value in changed.get("values") or []:
            name = value.get("field")
            try:
                label = model._meta.get_field(name).verbose_name if model is not None else name
            except FieldDoesNotExist:
                label = name
            rows.append(
                {
                    "label": str(label),
                    "object": changed.get("object", ""),
                    "before": _display(model, name, value.get("before")) if "added" not in part else "",
                    "after": _display(model, name, value.get("after")) if "deleted" not in part else "",
                }
            )
    return rows
