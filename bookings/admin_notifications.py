"""The "Booking e-mails" screen (/admin/bookings/notificationpreference/): every user turns booking e-mails
on or off for themselves and picks their language; managers also see, per property they manage, which
members receive them and why not."""

from django import forms
from django.conf import settings
from django.contrib import admin, messages
from django.http import HttpResponseRedirect
from django.template.response import TemplateResponse
from django.urls import reverse
from django.utils.translation import get_language, get_language_info, get_supported_language_variant, gettext
from django.utils.translation import gettext_lazy as _

from core.admin.mixins import ReadOnlyAdminMixin
from integration.access.choices import MembershipRole
from integration.access.selectors import properties_for_user

from .models import NotificationPreference
from .notifications import email_language, notification_preference_set
from .selectors import property_email_members


def _language_name(code):
    """A language named in itself (한국어, English), as the language switch names it."""
    return get_language_info(code)["name_local"]


class NotificationPreferenceForm(forms.Form):
    """The user's own choice."""

    booking_emails = forms.BooleanField(
        label=_("Receive booking e-mails"),
        required=False,
        help_text=_("New, changed and canceled bookings of the properties you work for."),
    )
    language = forms.ChoiceField(
        label=_("E-mail language"), choices=lambda: [(code, _language_name(code)) for code, _name in settings.LANGUAGES]
    )


def _member_row(membership):
    """One line of the managers' table: who, where, in which language, and whether they receive (why not,
    in the request's language)."""
    user = membership.user
    preference = getattr(user, "notification_preference", None)
    if not user.is_active:
        reason = gettext("Inactive user")
    elif not user.email:
        reason = gettext("No e-mail address")
    elif preference is not None and not preference.booking_emails:
        reason = gettext("Turned off")
    else:
        reason = None
    return {
        "property": membership.property,
        "user": user,
        "role": membership.get_role_display(),
        "language": _language_name(email_language(user)),
        "receives": reason is None,
        "reason": reason,
    }


@admin.register(NotificationPreference)
class NotificationPreferenceAdmin(ReadOnlyAdminMixin, admin.ModelAdmin):
    """One screen instead of a list: anyone who may use the back office sets their own booking e-mails
    here; nobody edits another person's choice."""

    def has_module_permission(self, request):
        return request.user.is_active and request.user.is_staff

    def has_view_permission(self, request, obj=None):
        return self.has_module_permission(request) and (obj is None or obj.user_id == request.user.pk)

    def changelist_view(self, request, extra_context=None):
        """GET: the user's choice and, for managers, who receives; POST: save the user's choice."""
        user = request.user
        preference = NotificationPreference.objects.filter(user=user).first()
        # Someone who never saved a choice is offered the language they read this screen in; until they
        # save, mail goes in the default language (the screen says which).
        initial = {
            "booking_emails": preference.booking_emails if preference else True,
            "language": preference.language if preference else get_supported_language_variant(get_language()),
        }
        form = NotificationPreferenceForm(request.POST if request.method == "POST" else None, initial=initial)
        if request.method == "POST" and form.is_valid():
            notification_preference_set(user=user, **form.cleaned_data)
            messages.success(request, _("Your booking e-mail settings were saved."))
            return HttpResponseRedirect(request.path)
        managed = properties_for_user(user, roles=(MembershipRole.MANAGER,))
        context = {
            **self.admin_site.each_context(request),
            "opts": self.opts,
            "title": _("Booking e-mails"),
            "form": form,
            "email": user.email,
            "unsaved_language": None if preference else _language_name(email_language(user)),
            "members": [_member_row(membership) for membership in property_email_members(managed)],
            "manages": managed.exists(),
            **(extra_context or {}),
        }
        return TemplateResponse(request, "admin/bookings/notificationpreference/screen.html", context)

    def change_view(self, request, object_id, form_url="", extra_context=None):
        return HttpResponseRedirect(reverse("admin:bookings_notificationpreference_changelist"))
