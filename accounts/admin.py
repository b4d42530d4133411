"""Superusers' screens of accounts and security: unlocking a login that django-axes locked out, people's
authenticator apps and recovery codes (django-otp's screens, in the user's language), and the audit trail
of every staff change (who, when, which fields, before and after), filtered."""

from axes.admin import AccessAttemptAdmin
from axes.models import AccessAttempt, AccessFailureLog
from django.contrib import admin, messages
from django.contrib.admin.models import LogEntry
from django.template.loader import render_to_string
from django.utils.html import format_html
from django.utils.translation import gettext_lazy as _
from django.utils.translation import ngettext
from django_otp.plugins.otp_static.admin import StaticDeviceAdmin, StaticTokenInline
from django_otp.plugins.otp_static.models import StaticDevice
from django_otp.plugins.otp_totp.admin import TOTPDeviceAdmin
from django_otp.plugins.otp_totp.models import TOTPDevice

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
# django-axes' log of every failure stays empty (AXES_ENABLE_ACCESS_FAILURE_LOG is off: a flood of
# invented user names would grow it without bound); the failed logins that count are AccessAttempt's.
admin.site.unregister(AccessFailureLog)


#: django-otp's fields by the words people read (its models name them by their English field names only, and
#: renaming them on the models would be a migration of django-otp's apps).
DEVICE_LABELS = {
    "user": _("person"),
    "name": _("name"),
    "confirmed": _("set up"),
    "key": _("key"),
    "step": _("seconds per code"),
    "t0": _("start time"),
    "digits": _("digits"),
    "tolerance": _("codes accepted either side"),
    "drift": _("clock drift"),
    "throttling_failure_timestamp": _("last wrong code at"),
    "throttling_failure_count": _("wrong codes in a row"),
    "token": _("recovery code"),
}


class ConfirmedFilter(admin.SimpleListFilter):
    """Whether the device was set up (its first code typed)."""

    title = _("set up")
    parameter_name = "confirmed"

    def lookups(self, request, model_admin):
        return [("1", _("Yes")), ("0", _("No"))]

    def queryset(self, request, queryset):
        if self.value() in ("0", "1"):
            return queryset.filter(confirmed=self.value() == "1")
        return queryset


class DeviceAdminMixin(admin.ModelAdmin):
    """A django-otp device's screens with their columns, filters, fields and search hint in the user's
    language."""

    list_display = ["person", "device_name", "created", "last_used", "is_confirmed"]
    list_filter = [ConfirmedFilter]
    readonly_fields = ["created", "last_used"]
    search_help_text = _("Search by the person's user name or e-mail address.")

    def get_form(self, request, obj=None, change=False, **kwargs):
        return super().get_form(request, obj, change, labels=DEVICE_LABELS, **kwargs)

    def get_fieldsets(self, request, obj=None):
        return [
            (_("Whose"), {"fields": ["user", "name", "confirmed"]}),
            (_("When"), {"fields": ["created", "last_used"]}),
        ]

    @admin.display(description=_("person"), ordering="user__username")
    def person(self, device):
        return device.user

    @admin.display(description=_("name"), ordering="name")
    def device_name(self, device):
        return device.name

    @admin.display(description=_("created"), ordering="created_at")
    def created(self, device):
        return device.created_at

    @admin.display(description=_("last used"), ordering="last_used_at")
    def last_used(self, device):
        return device.last_used_at

    @admin.display(description=_("set up"), boolean=True, ordering="confirmed")
    def is_confirmed(self, device):
        return device.confirmed


class AuthenticatorAppAdmin(DeviceAdminMixin, TOTPDeviceAdmin):
    """People's authenticator apps: a superuser deletes a lost phone's app, and its owner sets it up again
    (a saved app's key is never shown: OTP_ADMIN_HIDE_SENSITIVE_DATA)."""

    def get_fieldsets(self, request, obj=None):
        settings = ["step", "t0", "digits", "tolerance"] if obj else ["key", "step", "t0", "digits", "tolerance"]
        return [
            *super().get_fieldsets(request, obj),
            (_("Settings"), {"fields": settings}),
            (_("State"), {"fields": ["drift"]}),
            (_("Wrong codes"), {"fields": ["throttling_failure_timestamp", "throttling_failure_count"]}),
        ]


class RecoveryCodeInline(StaticTokenInline):
    """The codes of one list, each usable once."""

    def get_formset(self, request, obj=None, **kwargs):
        return super().get_formset(request, obj, labels=DEVICE_LABELS, **kwargs)


class RecoveryCodesAdmin(DeviceAdminMixin, StaticDeviceAdmin):
    """People's recovery codes (one list each)."""

    inlines = [RecoveryCodeInline]


for _model, _model_admin in ((TOTPDevice, AuthenticatorAppAdmin), (StaticDevice, RecoveryCodesAdmin)):
    admin.site.unregister(_model)
    admin.site.register(_model, _model_admin)


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
