"""Admin screens of the sales channels: the hub's channel list (refreshed daily and by a button), and per
property one screen with every channel, its status, what it sells, a cms channel's mapping and the
history of the property's requests; managers open channels and edit, staff read.

The property screens hang below /admin/integration/propertychannel/property/<property id>/, scoped to the
user's properties (any other property is a 404); changes go through one service each.
"""

from django.contrib import admin, messages
from django.core.exceptions import PermissionDenied, ValidationError
from django.http import Http404, HttpResponseNotAllowed, HttpResponseRedirect
from django.shortcuts import get_object_or_404
from django.template.response import TemplateResponse
from django.urls import path, reverse
from django.utils.translation import gettext as _

from core.admin.mixins import ReadOnlyAdminMixin

from ..access.admin_mixins import PropertyScopedAdmin
from ..access.choices import MembershipRole
from ..access.selectors import properties_for_user
from . import selectors, services
from .forms import ChannelMappingForm, ChannelSettingsForm, OpenRequestForm
from .models import PropertyChannel, SalesChannel


def can_manage(user):
    """Whether the user manages the channels of some property (the hub's list refresh is theirs too)."""
    return user.is_active and (user.is_superuser or user.has_perm("integration.change_propertychannel"))


@admin.register(SalesChannel)
class SalesChannelAdmin(ReadOnlyAdminMixin, admin.ModelAdmin):
    """The hub's sales channels as last read from the hub; managers read the list again with a button."""

    list_display = ["name", "channel_id", "channel_type", "listed", "refreshed_at"]
    list_filter = ["channel_type", "listed"]
    search_fields = ["name", "=channel_id"]
    change_list_template = "admin/integration/saleschannel/change_list.html"

    def get_urls(self):
        return [
            path("refresh/", self.admin_site.admin_view(self.refresh_view), name="integration_saleschannel_refresh"),
            *super().get_urls(),
        ]

    def changelist_view(self, request, extra_context=None):
        extra_context = {**(extra_context or {}), "can_refresh": can_manage(request.user)}
        return super().changelist_view(request, extra_context)

    def refresh_view(self, request):
        """POST: queue a read of the hub's channel list."""
        if request.method != "POST":
            return HttpResponseNotAllowed(["POST"])
        if not can_manage(request.user):
            raise PermissionDenied
        try:
            services.sales_channels_queue_refresh()
        except ValidationError as error:
            self.message_user(request, " ".join(error.messages), messages.ERROR)
        else:
            self.message_user(request, _("The channel list will be read from the hub in a moment; reload to see it."))
        return HttpResponseRedirect(reverse("admin:integration_saleschannel_changelist"))


@admin.register(PropertyChannel)
class PropertyChannelAdmin(PropertyScopedAdmin):
    """The channels of each property: a list of the user's properties, and one screen per property."""

    def has_add_permission(self, request):
        return False

    def has_delete_permission(self, request, obj=None):
        return False

    def get_urls(self):
        def view(function):
            return self.admin_site.admin_view(function)

        base = "property/<int:property_id>/"
        return [
            path(base, view(self.property_view), name="integration_propertychannel_property"),
            path(base + "refresh/", view(self.refresh_view), name="integration_propertychannel_refresh"),
            path(base + "open/<int:channel_pk>/", view(self.open_view), name="integration_propertychannel_open"),
            path(
                base + "settings/<int:channel_pk>/",
                view(self.settings_view),
                name="integration_propertychannel_settings",
            ),
            path(
                base + "mapping/<int:channel_pk>/", view(self.mapping_view), name="integration_propertychannel_mapping"
            ),
            *super().get_urls(),
        ]

    # --- Access ---------------------------------------------------------------------------------

    def _property(self, request, property_id, *, edit):
        """The property among the user's (else 404); editing needs the manager role there (else 403)."""
        if not self.has_view_or_change_permission(request):
            raise PermissionDenied
        prop = properties_for_user(request.user).filter(pk=property_id).first()
        if prop is None:
            raise Http404("No such property among yours.")
        if edit and not self._manages(request, prop):
            raise PermissionDenied
        return prop

    def _manages(self, request, prop):
        managed = properties_for_user(request.user, roles=(MembershipRole.MANAGER,))
        return self.has_change_permission(request) and managed.filter(pk=prop.pk).exists()

    def _channel(self, channel_pk):
        return get_object_or_404(SalesChannel, pk=channel_pk)

    def _screen_url(self, prop):
        return reverse("admin:integration_propertychannel_property", args=[prop.pk])

    def _context(self, request, prop, title, **context):
        return {
            **self.admin_site.each_context(request),
            "opts": self.opts,
            "property": prop,
            "title": title,
            "screen_url": self._screen_url(prop),
            **context,
        }

    # --- Screens --------------------------------------------------------------------------------

    def changelist_view(self, request, extra_context=None):
        """The user's properties, each linking to its channel screen (straight there when there is one)."""
        if not self.has_view_or_change_permission(request):
            raise PermissionDenied
        props = list(properties_for_user(request.user).order_by("name"))
        if len(props) == 1:
            return HttpResponseRedirect(self._screen_url(props[0]))
        context = {
            **self.admin_site.each_context(request),
            "opts": self.opts,
            "title": _("Sales channels of your properties"),
            "properties": [(prop, self._screen_url(prop)) for prop in props],
        }
        return TemplateResponse(request, "admin/integration/propertychannel/index.html", context)

    def property_view(self, request, property_id):
        """Every channel of the hub with the property's status, what it sells there, a cms channel's
        mapping, the state of their sync, and the history of the property's requests."""
        prop = self._property(request, property_id, edit=False)
        context = self._context(
            request,
            prop,
            _("Sales channels: %(property)s") % {"property": prop.name},
            rows=selectors.property_channel_rows(prop),
            can_edit=self._manages(request, prop),
        )
        return TemplateResponse(request, "admin/integration/propertychannel/property.html", context)

    def refresh_view(self, request, property_id):
        """POST: queue a read of the property's statuses and requests from the hub."""
        if request.method != "POST":
            return HttpResponseNotAllowed(["POST"])
        prop = self._property(request, property_id, edit=False)
        try:
            services.property_channels_queue_refresh(property=prop)
        except ValidationError as error:
            self.message_user(request, " ".join(error.messages), messages.ERROR)
        else:
            self.message_user(request, _("The channels will be read from the hub in a moment; reload to see them."))
        return HttpResponseRedirect(self._screen_url(prop))

    def open_view(self, request, property_id, channel_pk):
        """Ask the hub to open a channel: the fields its type needs."""
        prop = self._property(request, property_id, edit=True)
        channel = self._channel(channel_pk)
        form = OpenRequestForm(request.POST or None, channel=channel)
        if request.method == "POST" and form.is_valid():
            try:
                services.channel_open_request(property=prop, channel=channel, user=request.user, **form.cleaned_data)
            except ValidationError as error:
                _add_errors(form, error)
            else:
                self.message_user(
                    request, _("The request to open %(channel)s was sent to the hub.") % {"channel": channel.name}
                )
                return HttpResponseRedirect(self._screen_url(prop))
        title = _("Open %(channel)s") % {"channel": channel.name}
        context = self._context(request, prop, title, form=form, channel=channel, kind="open")
        return TemplateResponse(request, "admin/integration/propertychannel/form.html", context)

    def _link(self, prop, channel_pk):
        link = PropertyChannel.objects.select_related("channel", "property").filter(
            property=prop, channel_id=channel_pk
        )
        return get_object_or_404(link)

    def settings_view(self, request, property_id, channel_pk):
        """What the property sells on an open channel."""
        prop = self._property(request, property_id, edit=True)
        link = self._link(prop, channel_pk)
        form = ChannelSettingsForm(request.POST or None, property_channel=link)
        if request.method == "POST" and form.is_valid():
            rooms_off, plans_off = form.switched_off()
            try:
                services.channel_settings_update(
                    property_channel=link,
                    on_sale=form.cleaned_data["on_sale"],
                    room_types_off=rooms_off,
                    rate_plans_off=plans_off,
                    user=request.user,
                )
            except ValidationError as error:
                _add_errors(form, error)
            else:
                self.message_user(request, _("What %(channel)s sells was saved.") % {"channel": link.channel.name})
                return HttpResponseRedirect(self._screen_url(prop))
        title = _("What %(channel)s sells") % {"channel": link.channel.name}
        context = self._context(request, prop, title, form=form, channel=link.channel, kind="settings")
        return TemplateResponse(request, "admin/integration/propertychannel/form.html", context)

    def mapping_view(self, request, property_id, channel_pk):
        """A cms channel's code of each room type and rate plan."""
        prop = self._property(request, property_id, edit=True)
        link = self._link(prop, channel_pk)
        if not link.channel.is_cms:
            raise Http404("Only a directly contracted (CMS) channel has a mapping.")
        form = ChannelMappingForm(request.POST or None, property_channel=link)
        if request.method == "POST" and form.is_valid():
            room_codes, plan_codes = form.codes()
            try:
                services.channel_mapping_update(
                    property_channel=link, room_type_codes=room_codes, rate_plan_codes=plan_codes, user=request.user
                )
            except ValidationError as error:
                _add_errors(form, error)
            else:
                self.message_user(request, _("The mapping of %(channel)s was saved.") % {"channel": link.channel.name})
                return HttpResponseRedirect(self._screen_url(prop))
        title = _("Mapping of %(channel)s") % {"channel": link.channel.name}
        context = self._context(request, prop, title, form=form, channel=link.channel, kind="mapping")
        return TemplateResponse(request, "admin/integration/propertychannel/form.html", context)


def _add_errors(form, error):
    if hasattr(error, "error_dict"):
        for field, errors in error.message_dict.items():
            form.add_error(field if field in form.fields else None, errors)
    else:
        form.add_error(None, error.messages)
