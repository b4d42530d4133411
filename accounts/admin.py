"""Superusers' screens of accounts and security: unlocking a login that django-axes locked out, and the
audit trail of every staff change (who, when, which fields, before and after), filtered."""

from axes.admin import AccessAttemptAdmin
from axes.models import AccessAttempt
from django.contrib import admin, messages
from django.contrib.admin.models import LogEntry
from django.template.loader import render_to_string
from django.utils.html import format_html
from django.utils.translation import gettext_lazy as _
from django.utils.translation import ngettext

from core.admin.mixins import ReadOnlyAdminMixin
from core.audit import audit_changes


class UnlockingAccessAttemptAdmin(AccessAttemptAdmin):
    """django-axes' failed login attempts, with an action that lets the user or address log in again."""

    actions = ["unlock", *AccessAttemptAdmin.actions]

    @admin.action(description=_("Unlock: allow these logins again"), permissions=["delete"])
    def unlock(self, request, queryset):
        count, _deleted = queryset.delete()
        self.message_user(
            request,
            ngettext("%(count)d lockout lifted.", "%(count)d lockouts lifted.", count) % {"count": count},
            messages.SUCCESS,
        )


admin.site.unregister(AccessAttempt)
admin.site.register(AccessAttempt, UnlockingAccessAttemptAdmin)


@admin.register(LogEntry)
class AuditTrailAdmin(ReadOnlyAdminMixin, admin.ModelAdmin):
    """Every change staff made through the admin or a service that records it, read-only, for superusers:
    filtered by person, kind of object, action and date, searched by object or person."""

    list_display = ["action_time", "user", "content_type", "object_link", "action_flag", "changes"]
    list_filter = ["action_flag", "content_type", "action_time", ("user", admin.RelatedOnlyFieldListFilter)]
    search_fields = ["object_repr", "user__username"]
    date_hierarchy = "action_time"
    list_select_related = ["user", "content_type"]
    list_per_page = 50

    def _superuser_only(self, request, obj=None):
        return request.user.is_active and request.user.is_superuser

    has_module_permission = has_view_permission = _superuser_only

    @admin.display(description=_("object"), ordering="object_repr")
    def object_link(self, entry):
        """The object, linked to its page while it exists."""
        url = entry.get_admin_url()
        return format_html('<a href="{}">{}</a>', url, entry.object_repr) if url else entry.object_repr

    @admin.display(description=_("changes"))
    def changes(self, entry):
        """What changed: the admin's sentence, and each field before and after."""
        table = render_to_string("admin/accounts/field_changes.html", {"changes": audit_changes(entry)})
        return format_html("{}{}", entry.get_change_message(), table)
