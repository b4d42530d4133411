"""The inbox screen: the events of the user's properties, newest first, read per user; each opens where
it is handled (marking it read), and the whole list can be marked read. The header's badge is
templatetags/vendorhub_inbox.py."""

from django.contrib import admin, messages
from django.core.exceptions import PermissionDenied
from django.core.paginator import Paginator
from django.http import HttpResponseNotAllowed, HttpResponseRedirect
from django.shortcuts import get_object_or_404
from django.template.response import TemplateResponse
from django.urls import path, reverse
from django.utils.html import format_html
from django.utils.translation import gettext_lazy as _
from django.utils.translation import ngettext

from bookings.notifications import email_language
from core.admin.mixins import ReadOnlyAdminMixin
from integration.access.selectors import properties_for_user
from integration.hub.selectors import hub_distribution_pause_read

from . import selectors, services
from .display import event_link, event_text
from .models import Event, InboxPreference


class ReadFilter(admin.SimpleListFilter):
    """Unread or read by the viewer."""

    title = _("read")
    parameter_name = "read"

    def lookups(self, request, model_admin):
        return [("no", _("Unread")), ("yes", _("Read"))]

    def queryset(self, request, queryset):
        if self.value() in ("no", "yes"):
            return queryset.filter(unread=self.value() == "no")
        return queryset


#: Properties per page of the booking events' choices (a superuser sees every property).
CHOICES_PER_PAGE = 50


@admin.register(Event)
class EventAdmin(ReadOnlyAdminMixin, admin.ModelAdmin):
    """The viewer's events; everyone who works in the back office has an inbox (scoped by property)."""

    list_display = ["property", "kind", "last_at", "times"]  # with the event's sentence first: get_list_display
    list_display_links = None
    list_filter = [ReadFilter, "kind"]
    list_per_page = 25
    actions = ["mark_read"]
    change_list_template = "admin/inbox/event/change_list.html"

    # --- Access: anyone of the back office, their properties' events only ----------------------

    def has_view_permission(self, request, obj=None):
        return request.user.is_active and request.user.is_staff

    def has_module_permission(self, request):
        return self.has_view_permission(request)

    def get_queryset(self, request):
        return selectors.events_for_user(request.user).select_related("property")

    # --- The list ------------------------------------------------------------------------------

    def get_list_display(self, request):
        # The first column asks the viewer's admin whether it would show each event's screen.
        @admin.display(description=_("event"))
        def what(event):
            text = event_text(event)
            if event_link(request, self.admin_site, event) is not None:
                text = format_html('<a href="{}">{}</a>', reverse("admin:inbox_event_open", args=[event.pk]), text)
            css = "inbox-unread" if event.unread else "inbox-read"
            return format_html('<span class="{}">{}</span>', css, text)

        return [what, "property", "kind", "last_at", "times"]

    @admin.display(description=_("times"), empty_value="")
    def times(self, event):
        if event.count == 1:
            return None
        return ngettext("%(count)d time", "%(count)d times", event.count) % {"count": event.count}

    def changelist_view(self, request, extra_context=None):
        preference = InboxPreference.objects.filter(user=request.user).first()
        extra_context = {
            "title": _("Inbox"),
            **(extra_context or {}),
            "emails_on": bool(preference and preference.emails),
            "email_language": email_language(request.user),
            "has_email": bool(request.user.email),
            "distribution_paused": hub_distribution_pause_read(),
        }
        return super().changelist_view(request, extra_context)

    def change_view(self, request, object_id, form_url="", extra_context=None):
        return self.open_view(request, object_id)

    @admin.action(description=_("Mark as read"))
    def mark_read(self, request, queryset):
        count = services.events_mark_read(user=request.user, events=queryset)
        self._marked(request, count)

    def _marked(self, request, count):
        message = ngettext("%(count)d event marked read.", "%(count)d events marked read.", count)
        self.message_user(request, message % {"count": count})

    # --- Views ---------------------------------------------------------------------------------

    def get_urls(self):
        def view(function):
            return self.admin_site.admin_view(function)

        return [
            path("<int:object_id>/open/", view(self.open_view), name="inbox_event_open"),
            path("read-all/", view(self.read_all_view), name="inbox_event_read_all"),
            path("emails/", view(self.emails_view), name="inbox_event_emails"),
            path("bookings/", view(self.choices_view), name="inbox_event_choices"),
            *super().get_urls(),
        ]

    def open_view(self, request, object_id):
        """Mark the event read by the viewer and go where it is handled (back to the inbox when the viewer's
        admin would not show that screen)."""
        if not self.has_view_permission(request):
            raise PermissionDenied
        event = get_object_or_404(self.get_queryset(request), pk=object_id)
        services.events_mark_read(user=request.user, events=[event])
        url = event_link(request, self.admin_site, event)
        return HttpResponseRedirect(url or reverse("admin:inbox_event_changelist"))

    def read_all_view(self, request):
        """POST: mark every unread event of the viewer read."""
        if request.method != "POST":
            return HttpResponseNotAllowed(["POST"])
        if not self.has_view_permission(request):
            raise PermissionDenied
        count = services.events_mark_read(user=request.user, events=self.get_queryset(request).filter(unread=True))
        self._marked(request, count)
        return HttpResponseRedirect(reverse("admin:inbox_event_changelist"))

    def emails_view(self, request):
        """POST: turn the viewer's inbox e-mails on (emails=1) or off."""
        if request.method != "POST":
            return HttpResponseNotAllowed(["POST"])
        if not self.has_view_permission(request):
            raise PermissionDenied
        on = request.POST.get("emails") == "1"
        services.inbox_emails_set(user=request.user, emails=on)
        if on:
            self.message_user(request, _("These events will be e-mailed to you too."), messages.SUCCESS)
        else:
            self.message_user(request, _("These events will no longer be e-mailed to you."), messages.SUCCESS)
        return HttpResponseRedirect(reverse("admin:inbox_event_changelist"))

    def choices_view(self, request):
        """Per property, whether the viewer's inbox shows new and canceled bookings and whether they are
        e-mailed: a page of CHOICES_PER_PAGE properties, saved together (POST)."""
        if not self.has_view_permission(request):
            raise PermissionDenied
        paginator = Paginator(properties_for_user(request.user).order_by("name", "pk"), CHOICES_PER_PAGE)
        page = paginator.get_page(request.GET.get("page"))
        properties = list(page.object_list)
        if request.method == "POST":
            chosen = {
                prop.pk: (f"shown-{prop.pk}" in request.POST, f"emailed-{prop.pk}" in request.POST)
                for prop in properties
            }
            services.property_choices_set(user=request.user, choices=chosen)
            self.message_user(request, _("Your choices were saved."), messages.SUCCESS)
            return HttpResponseRedirect(request.get_full_path())
        choices = selectors.property_choices(request.user, properties)
        rows = [
            (
                prop,
                choices[prop.pk].bookings_shown if prop.pk in choices else True,
                choices[prop.pk].bookings_emailed if prop.pk in choices else False,
            )
            for prop in properties
        ]
        context = {
            **self.admin_site.each_context(request),
            "title": _("New and canceled bookings in your inbox"),
            "opts": self.opts,
            "rows": rows,
            "page": page,
            "has_email": bool(request.user.email),
            "email_language": email_language(request.user),
        }
        return TemplateResponse(request, "admin/inbox/event/choices.html", context)
