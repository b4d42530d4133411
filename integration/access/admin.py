"""Admin screen of property memberships, kept by superusers."""

from django.contrib import admin

from core.admin.widgets import AutocompleteSelect

from . import services
from .models import PropertyMembership


@admin.register(PropertyMembership)
class PropertyMembershipAdmin(admin.ModelAdmin):
    """Who holds which role at which property; kept by superusers."""

    list_display = ["user", "property", "role", "created_at"]
    list_filter = ["role", "property"]
    search_fields = ["user__username", "user__email", "property__name", "property__vendor_id"]
    autocomplete_fields = ["user", "property"]

    def _superuser_only(self, request, obj=None):
        return request.user.is_active and request.user.is_superuser

    has_module_permission = has_view_permission = has_add_permission = _superuser_only
    has_change_permission = has_delete_permission = _superuser_only

    def formfield_for_foreignkey(self, db_field, request, **kwargs):
        if db_field.name in self.autocomplete_fields:
            kwargs["widget"] = AutocompleteSelect(db_field, self.admin_site, using=kwargs.get("using"))
        return super().formfield_for_foreignkey(db_field, request, **kwargs)

    def get_readonly_fields(self, request, obj=None):
        # A membership is one person at one property; only the role of an existing one changes.
        return ["user", "property"] if obj else []

    def save_model(self, request, obj, form, change):
        obj.pk = services.membership_grant(user=obj.user, property=obj.property, role=obj.role, by=request.user).pk

    def delete_model(self, request, obj):
        services.membership_revoke(membership=obj, by=request.user)

    def delete_queryset(self, request, queryset):
        for membership in queryset.select_related("user"):
            services.membership_revoke(membership=membership, by=request.user)

    # The services record each grant and revocation, with the values, in the audit trail (core.audit): the
    # admin's own entries would only repeat them without the values.
    def log_addition(self, request, obj, message):
        return None

    def log_change(self, request, obj, message):
        return None

    def log_deletions(self, request, queryset):
        return None
