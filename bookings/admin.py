"""Bookings and the hub's calls, read-only, scoped like every screen by property membership."""

import datetime

from django.contrib import admin
from django.db.models import Q
from django.urls import reverse
from django.utils import timezone
from django.utils.html import format_html
from django.utils.translation import gettext_lazy as _

from integration.access.admin_mixins import PropertyScopedAdmin
from integration.ari.dates import korea_today
from integration.log_display import decoded_path, pretty_json

from .models import Booking, InboundCall
from .settlement.admin_compare import BookingCompareViews


class ReadOnlyAdmin(PropertyScopedAdmin):
    """Data the hub writes: nobody adds, changes or deletes it here."""

    def has_add_permission(self, request):
        return False

    def has_change_permission(self, request, obj=None):
        return False

    def has_delete_permission(self, request, obj=None):
        return False


class ChannelFilter(admin.SimpleListFilter):
    """The hub's sales channels that have bookings the user may see."""

    title = _("channel")
    parameter_name = "channel"

    def lookups(self, request, model_admin):
        channels = model_admin.get_queryset(request).values_list("channel_id", "channel_name").distinct()
        return sorted({(str(channel_id), f"{name} (#{channel_id})") for channel_id, name in channels})

    def queryset(self, request, queryset):
        if self.value() and self.value().isdigit():
            return queryset.filter(channel_id=int(self.value()))
        return queryset


class CheckinRangeFilter(admin.SimpleListFilter):
    """Check-in dates (Korea time) relative to today."""

    title = _("check-in")
    parameter_name = "checkin_range"

    def lookups(self, request, model_admin):
        return [
            ("past", _("Before today")),
            ("today", _("Today")),
            ("7", _("Next 7 days")),
            ("30", _("Next 30 days")),
            ("later", _("In more than 30 days")),
        ]

    def queryset(self, request, queryset):
        today = korea_today()
        ranges = {
            "past": Q(checkin__date__lt=today),
            "today": Q(checkin__date=today),
            "7": Q(checkin__date__gte=today, checkin__date__lt=today + datetime.timedelta(days=7)),
            "30": Q(checkin__date__gte=today, checkin__date__lt=today + datetime.timedelta(days=30)),
            "later": Q(checkin__date__gte=today + datetime.timedelta(days=30)),
        }
        if self.value() in ranges:
            return queryset.filter(ranges[self.value()])
        return queryset


@admin.register(Booking)
class BookingAdmin(BookingCompareViews, ReadOnlyAdmin):
    """Every booking the hub made; pending ones show how long their rooms have been held."""

    list_display = [
        "vendor_booking_number",
        "status",
        "hold_age",
        "property",
        "room_type",
        "checkin",
        "checkout",
        "guest_name",
        "channel_name",
        "payment_type",
        "total_amount",
        "created_at",
    ]
    list_filter = [
        "status",
        ("property", admin.RelatedOnlyFieldListFilter),
        ChannelFilter,
        CheckinRangeFilter,
        "payment_type",
    ]
    list_select_related = ["property", "room_type"]
    search_fields = [
        "=vendor_booking_number",
        "=channel_booking_number",
        "=gds_booking_number",
        "=gds_sub_booking_number",
        "guest_name",
    ]
    date_hierarchy = "checkin"
    readonly_fields = [field.name for field in Booking._meta.fields] + ["calls"]

    @admin.display(description=_("held for"))
    def hold_age(self, booking):
        if booking.status != Booking.Status.PENDING:
            return "-"
        minutes = int((timezone.now() - booking.created_at).total_seconds() // 60)
        return _("%(minutes)d min") % {"minutes": minutes}

    @admin.display(description=_("hub calls"))
    def calls(self, booking):
        url = reverse("admin:bookings_inboundcall_changelist") + f"?booking__id__exact={booking.pk}"
        return format_html('<a href="{}">{}</a>', url, _("Calls the hub made about this booking"))


@admin.register(InboundCall)
class InboundCallAdmin(ReadOnlyAdmin):
    """Every call the hub made to the vendor API: request (tokens and signatures removed), our answer,
    status and duration."""

    property_path = "booking__property"
    list_display = ["created_at", "method", "path_text", "status", "duration_ms", "booking_link"]
    list_filter = ["status", "method"]
    list_select_related = ["booking"]
    search_fields = ["=booking_number", "path"]
    date_hierarchy = "created_at"
    fields = [
        "created_at",
        "method",
        "path_text",
        "status",
        "duration_ms",
        "booking",
        "booking_number",
        "headers_text",
        "request_text",
        "response_text",
    ]
    readonly_fields = fields

    @admin.display(description=_("path"), ordering="path")
    def path_text(self, call):
        return decoded_path(call.path)

    @admin.display(description=_("request headers"))
    def headers_text(self, call):
        return pretty_json(call.request_headers)

    @admin.display(description=_("request body"))
    def request_text(self, call):
        return pretty_json(call.request_body)

    @admin.display(description=_("response body"))
    def response_text(self, call):
        return pretty_json(call.response_body)

    def get_queryset(self, request):
        queryset = super().get_queryset(request)
        match = request.resolver_match
        if match and match.url_name and match.url_name.endswith("changelist"):
            # The list never loads the bodies.
            queryset = queryset.defer("request_headers", "request_body", "response_body")
        return queryset

    @admin.display(description=_("booking"), ordering="booking_number")
    def booking_link(self, call):
        if call.booking_id is None:
            return call.booking_number or "-"
        url = reverse("admin:bookings_booking_change", args=[call.booking_id])
        return format_html('<a href="{}">{}</a>', url, call.booking_number)
