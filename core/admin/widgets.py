"""Admin widgets that keep Django's behaviour but answer hostile input with a form error, never a 500."""

from collections.abc import Iterable
from typing import Any

from django.contrib.admin import widgets
from django.core.exceptions import ValidationError


class AutocompleteSelect(widgets.AutocompleteSelect):
    """Django's autocomplete select, which renders a form posted back with a value that cannot name a row
    (`a\\x00b` for an id) as nothing selected: Django's own looks the value up as it is and fails (a 500)
    where the form only has to say the field is invalid."""

    def optgroups(self, name: str, value: Iterable[Any], attr: dict[str, Any] | None = None) -> Any:
        target = self.field.remote_field.model._meta.get_field(self.field.remote_field.field_name)
        return super().optgroups(name, [each for each in value if _is_valid(target, each)], attr)


def _is_valid(field: Any, value: Any) -> bool:
    try:
        field.to_python(value)
    except ValidationError:
        return False
    return True
