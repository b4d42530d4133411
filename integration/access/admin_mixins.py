"""The base every admin screen of property-owned data follows: it shows only the user's properties."""

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, ClassVar

from django.contrib import admin
from django.contrib.admin import widgets
from django.db import models
from django.http import Http404

from ..content.models import Property
from .choices import MembershipRole
from .selectors import properties_for_user, scope_to_user

if TYPE_CHECKING:
    # What the mixin uses of the ModelAdmin (or inline) it is mixed into (a real base would come before
    # that admin in the composed admin's MRO).
    _ModelAdminBase = admin.ModelAdmin
else:
    _ModelAdminBase = object


class PropertyScopedAdminMixin(_ModelAdminBase):
    """Scopes a ModelAdmin or inline to the properties the user holds a role at.

    Lists, change and delete views, history, actions (which act on get_queryset) and property choices
    all see only those properties; any other object is a 404, never a row or a redirect.
    """

    #: Lookup from the admin's model to its Property; "" when the model is Property.
    property_path = "property"
    #: Roles that may see this data; None means any role (staff and managers).
    scope_roles: tuple[MembershipRole, ...] | None = None
    # Staff type addresses without a scheme (the hub needs absolute https URLs); the hub's times are HH:mm.
    formfield_overrides: ClassVar[Mapping[type[models.Field], Mapping[str, Any]]] = {
        models.URLField: {"assume_scheme": "https"},
        models.TimeField: {"widget": widgets.AdminTimeWidget(format="%H:%M")},
    }

    def scoped_properties(self, request):
        """The properties this screen may show to the requesting user."""
        return properties_for_user(request.user, roles=self.scope_roles)

    def get_queryset(self, request):
        return scope_to_user(
            super().get_queryset(request),
            request.user,
            property_path=self.property_path,
            roles=self.scope_roles,
        )

    def get_object(self, request, object_id, from_field=None):
        obj = super().get_object(request, object_id, from_field)
        if obj is None:
            raise Http404("No such object among your properties.")
        return obj

    def formfield_for_foreignkey(self, db_field, request, **kwargs):
        related = db_field.related_model
        if related is Property:
            kwargs["queryset"] = self.scoped_properties(request)
        elif any(field.name == "property" and field.related_model is Property for field in related._meta.fields):
            # A room type, rate plan model, ...: only those of the user's properties can be chosen.
            kwargs["queryset"] = related._default_manager.filter(property__in=self.scoped_properties(request))
        return super().formfield_for_foreignkey(db_field, request, **kwargs)


class ScopedPropertyFilter(admin.RelatedFieldListFilter):
    """The user's properties, read from the properties (not, as RelatedOnlyFieldListFilter does, from
    every row of the list: a DISTINCT over a log of millions)."""

    def field_choices(self, field, request, model_admin):
        return [(prop.pk, str(prop)) for prop in model_admin.scoped_properties(request).order_by("name")]


class PropertyScopedAdmin(PropertyScopedAdminMixin, admin.ModelAdmin):
    """ModelAdmin for property-owned data."""
