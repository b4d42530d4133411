"""Superusers' screens of accounts and security: unlocking a login that django-axes locked out."""

from axes.admin import AccessAttemptAdmin
from axes.models import AccessAttempt
from django.contrib import admin, messages
from django.utils.translation import gettext_lazy as _
from django.utils.translation import ngettext


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
