"""Bookings and the hub's calls, read-only, scoped like every screen by property membership."""

import datetime
from urllib.parse import urlencode

from django.contrib import admin, messages
from django.contrib.admin.utils import unquote
from django.contrib.admin.views.main import PAGE_VAR
from django.db.models import Q
from django.http import Http404, HttpResponseNotAllowed, HttpResponseRedirect
from django.template.loader import render_to_string
from django.urls import path, reverse
from django.utils import timezone
from django.utils.html import format_html
from django.utils.text import Truncator
from django.utils.translation import gettext_lazy as _
from django.utils.translation import ngettext, pgettext_lazy

from core.admin.log_display import decoded_path, pretty_json
from core.admin.mixins import ReadOnlyAdminMixin
from core.admin.paging import BoundedCountPaginator
from core.dates import KOREA, korea_today
from integration.access.admin_mixins import PropertyScopedAdmin, ScopedPropertyFilter
from integration.content.names import display_name
from integration.models import SalesChannel

# The Booking e-mails screen registers itself (every user's own choice; managers see who receives).
from . import admin_notifications  # noqa: F401
from .admin_display import amount_text, night_rows, stay_dates
from .models import Booking, InboundCall, RefusedCall
from .selectors import (
    DESK_ORDERING,
    HISTORY_CALLS,
    DeskView,
    booking_desk_marks,
    booking_hub_calls,
    bookings_for_desk,
    korea_day_bounds,
)
from .services import DeskRefused, booking_desk_mark, desk_marks_allowed
from .settlement.admin_compare import BookingCompareViews


class ReadOnlyAdmin(ReadOnlyAdminMixin, PropertyScopedAdmin):
    """Data the hub writes, millions of rows: nobody adds, changes or deletes it here, and its lists
    never count the whole table (see core.admin.paging)."""

    paginator = BoundedCountPaginator
    show_full_result_count = False


class ChannelFilter(admin.SimpleListFilter):
    """The hub's sales channels we know (a DISTINCT over millions of bookings would cost every page)."""

    title = _("channel")
    parameter_name = "channel"

    def lookups(self, request, model_admin):
        return [(str(channel.channel_id), str(channel)) for channel in SalesChannel.objects.order_by("channel_id")]

    def queryset(self, request, queryset):
        value = self.value()
        if value and value.isdigit():
            return queryset.filter(channel_id=int(value))
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
        # Bounds in time, not checkin__date (a cast of every row's check-in): the index on checkin serves them.
        today = korea_today()

        def start(days):
            return datetime.datetime.combine(today + datetime.timedelta(days=days), datetime.time(0), tzinfo=KOREA)

        ranges = {
            "past": Q(checkin__lt=start(0)),
            "today": Q(checkin__gte=start(0), checkin__lt=start(1)),
            "7": Q(checkin__gte=start(0), checkin__lt=start(7)),
            "30": Q(checkin__gte=start(0), checkin__lt=start(30)),
            "later": Q(checkin__gte=start(30)),
        }
        value = self.value()
        if value is not None and value in ranges:
            return queryset.filter(ranges[value])
        return queryset


class ReceivedFilter(admin.SimpleListFilter):
    """Bookings received (created) today, Korea time: the dashboard's "received today" link."""

    title = _("date received")
    parameter_name = "received"

    def lookups(self, request, model_admin):
        return [("today", _("Today"))]

    def queryset(self, request, queryset):
        if self.value() != "today":
            return queryset
        start, end = korea_day_bounds(korea_today())
        return queryset.filter(created_at__gte=start, created_at__lt=end)


class FrontDeskFilter(admin.ListFilter):
    """The front desk's lists of a date: ?desk=arrivals|departures|inhouse&on=YYYY-MM-DD (Korea's today
    without a date). Shown as tabs above the list (the sidebar shows nothing of it); a date that is not
    one says so there and lists nothing, never an error page."""

    title = _("front desk")
    template = "admin/bookings/booking/desk_filter.html"
    view_parameter, date_parameter = "desk", "on"

    def __init__(self, request, params, model, model_admin):
        super().__init__(request, params, model, model_admin)
        view = params.pop(self.view_parameter, [""])[-1]
        text = params.pop(self.date_parameter, [""])[-1].strip()
        self.view = view if view in DeskView.values else None
        self.date_text, self.error = text, None
        self.day: datetime.date | None
        try:
            self.day = datetime.date.fromisoformat(text) if text else korea_today()
        except ValueError:
            self.day = None
            # Quoted back cut short: whatever was typed, the message stays a line or two.
            self.error = _("“%(value)s” is not a date. Pick one in the calendar or type it as 2026-12-04.") % {
                "value": Truncator(text).chars(30)
            }
        if self.view:
            self.used_parameters[self.view_parameter] = self.view
        if text:
            self.used_parameters[self.date_parameter] = text

    def has_output(self):
        # True, or the change list would not apply it (the sidebar's template renders nothing).
        return True

    def expected_parameters(self):
        return [self.view_parameter, self.date_parameter]

    def choices(self, changelist):
        return []

    def queryset(self, request, queryset):
        if self.view is None:
            return queryset
        if self.day is None:
            return queryset.none()
        return bookings_for_desk(queryset, view=self.view, day=self.day)

    def tabs(self, changelist):
        """What the tabs above the list show: each tab with its link (the chosen date kept), the date and
        what is wrong with it."""
        # None drops a parameter (get_query_string's remove= drops every parameter starting with a name).
        page, date = {PAGE_VAR: None}, {self.date_parameter: self.date_text or None}
        everything = changelist.get_query_string({**page, self.view_parameter: None, self.date_parameter: None})
        tabs = [(_("All"), everything, not self.view)]
        tabs += [
            (label, changelist.get_query_string({**page, **date, self.view_parameter: value}), self.view == value)
            for value, label in DeskView.choices
        ]
        hidden = [
            (name, value)
            for name, value in changelist.params.items()
            if name not in (self.view_parameter, self.date_parameter, PAGE_VAR)
        ]
        return {
            "tabs": tabs,
            "view": self.view,
            "label": DeskView(self.view).label if self.view else "",
            "day": self.day,
            "date_text": self.date_text if self.error else (self.day.isoformat() if self.day else ""),
            "today": korea_today(),
            "error": self.error,
            "hidden": hidden,
            "view_parameter": self.view_parameter,
            "date_parameter": self.date_parameter,
        }


class CallStatusFilter(admin.SimpleListFilter):
    """Our answers by class (a list of every status ever answered would read the whole log)."""

    title = _("status")
    parameter_name = "status_class"

    def lookups(self, request, model_admin):
        return [("2", _("Success (2xx)")), ("4", _("Refused (4xx)")), ("5", _("Failed (5xx)"))]

    def queryset(self, request, queryset):
        value = self.value()
        if value in ("2", "4", "5"):
            first = int(value) * 100
            return queryset.filter(status__gte=first, status__lt=first + 100)
        return queryset


class CallMethodFilter(admin.SimpleListFilter):
    """The vendor API's methods (a fixed list, not a DISTINCT over the log)."""

    title = _("method")
    parameter_name = "method"

    def lookups(self, request, model_admin):
        return [(method, method) for method in ("GET", "POST", "PUT")]

    def queryset(self, request, queryset):
        return queryset.filter(method=self.value()) if self.value() else queryset


#: The most bookings one front desk action marks (a day's arrivals of a large hotel fit).
DESK_ACTION_LIMIT = 200


def booking_calls_url(booking):
    """The call log searched for booking's number: every call about it, refused ones too (those name it
    but are not linked to it)."""
    return reverse("admin:bookings_inboundcall_changelist") + "?" + urlencode({"q": booking.vendor_booking_number})


@admin.register(Booking)
class BookingAdmin(BookingCompareViews, ReadOnlyAdmin):
    """Every booking the hub made, read as the front desk needs it: the list fits a 1366 px screen, the
    page groups guest, booker, stay, money and channel, and prints."""

    # Two-line cells (the payment type as a filter only), so that the list reads without scrolling
    # sideways on a 1366 px screen.
    list_display = [
        "vendor_booking_number",
        "guest",
        "stay",
        "nights_count",
        "room",
        "state",
        "total",
    ]
    list_filter = [
        "status",
        ("property", ScopedPropertyFilter),
        ChannelFilter,
        CheckinRangeFilter,
        ReceivedFilter,
        "payment_type",
        FrontDeskFilter,
    ]
    list_select_related = ["property", "room_type"]
    # A part of any number or of the guest's name, whatever the case: one trigram index on PostgreSQL holds
    # the five (bookings/migrations/0001_initial.py).
    search_fields = [
        "vendor_booking_number",
        "channel_booking_number",
        "gds_booking_number",
        "gds_sub_booking_number",
        "guest_name",
    ]
    search_help_text = _("A part of any booking number or of the guest's name.")
    change_list_template = "admin/bookings/booking/front_desk_change_list.html"
    object_history_template = "admin/bookings/booking/object_history.html"
    # The page, in the groups the front desk reads (its template adds the print button, booking.css the
    # print stylesheet).
    change_form_template = "admin/bookings/booking/front_desk_change_form.html"
    fieldsets = [
        (
            pgettext_lazy("booking group", "Guest"),
            {"fields": ["guest_name", "guests", "visit_type", "special_comment"]},
        ),
        (pgettext_lazy("booking group", "Booker"), {"fields": ["booker_name", "booker_email", "booker_phone"]}),
        (
            pgettext_lazy("booking group", "Stay"),
            {
                "fields": [
                    "vendor_booking_number",
                    "state",
                    "type",
                    "property",
                    "room_name",
                    "plan",
                    "stay",
                    "nights_count",
                    "desk",
                ]
            },
        ),
        (
            pgettext_lazy("booking group", "Money"),
            {"fields": ["nightly_amounts", "total", "net", "payment_type"]},
        ),
        (
            pgettext_lazy("booking group", "Channel"),
            {
                "fields": [
                    "channel_name",
                    "channel_booking_number",
                    "secondary_channel",
                    "reserved_at",
                    "confirmed_at",
                    "canceled_at",
                    "calls",
                ]
            },
        ),
        (
            _("Technical details"),
            {
                "classes": ["collapse", "booking-technical"],
                "fields": [
                    "id",
                    "channel_id",
                    "gds_booking_number",
                    "gds_sub_booking_number",
                    "content_digest",
                    "created_at",
                    "updated_at",
                ],
            },
        ),
    ]
    readonly_fields = [field.name for field in Booking._meta.fields] + [
        "guests",
        "stay",
        "nights_count",
        "room_name",
        "plan",
        "state",
        "total",
        "net",
        "nightly_amounts",
        "calls",
        "desk",
        "party",
    ]

    class Media:
        css = {"all": ["bookings/changelist.css", "bookings/booking.css", "bookings/front_desk.css"]}

    def get_queryset(self, request):
        # English room names come from the room types' translations: one query per page, not per row.
        return super().get_queryset(request).prefetch_related("room_type__translations")

    def get_search_results(self, request, queryset, search_term):
        """A whole booking number finds its booking through the number's unique index; anything else is a
        part of a number or of a name, searched in the trigram index. (A trigram search for a whole number
        reads far more: each of its trigrams, "VH" and hex digits, is in thousands of other numbers.)"""
        term = search_term.strip()
        if term and not any(character.isspace() for character in term):
            exact = queryset.filter(vendor_booking_number__in={term, term.upper()})
            if exact.exists():
                return exact, False
        return super().get_search_results(request, queryset, search_term)

    def get_list_display(self, request):
        """On a front desk list, who comes and what they asked for (the party and the guest's request)."""
        columns = list(super().get_list_display(request))
        if request.GET.get(FrontDeskFilter.view_parameter) in DeskView.values:
            # In place of the nights (the stay's dates say them), so that the list still fits 1366 px.
            columns[columns.index("nights_count")] = "party"
        return columns

    def get_ordering(self, request):
        """A front desk list in the order guests come or leave; every other list newest first."""
        return DESK_ORDERING.get(request.GET.get(FrontDeskFilter.view_parameter), super().get_ordering(request))

    def changelist_view(self, request, extra_context=None):
        response = super().changelist_view(request, extra_context)
        context = getattr(response, "context_data", None) or {}
        changelist = context.get("cl")
        if changelist is not None:
            desk = next(spec for spec in changelist.filter_specs if isinstance(spec, FrontDeskFilter))
            context["desk"] = desk.tabs(changelist)
        return response

    def change_view(self, request, object_id, form_url="", extra_context=None):
        booking = self.get_object(request, unquote(object_id))
        marks = [(value, Booking.Desk(value).label) for value in desk_marks_allowed(booking)] if booking else []
        context = {"canceled": Booking.Status.CANCELED, "desk_marks": marks}
        return super().change_view(request, object_id, form_url, {**context, **(extra_context or {})})

    # --- The front desk's marks: a button on the booking's page, or an action on a list --------------------

    def get_urls(self):
        return [
            path("<path:object_id>/desk/", self.admin_site.admin_view(self.desk_view), name="bookings_booking_desk"),
            *super().get_urls(),
        ]

    def desk_view(self, request, object_id):
        """POST status=checked_in|checked_out|no_show: mark the booking (bookings.services.booking_desk_mark)
        and go back to its page, saying what was done or why not."""
        if request.method != "POST":
            return HttpResponseNotAllowed(["POST"])
        booking = self.get_object(request, unquote(object_id))
        if booking is None or not self.has_view_permission(request, booking):
            raise Http404("No such booking among your properties.")
        self._mark(request, [booking.pk], request.POST.get("status", ""))
        return HttpResponseRedirect(reverse("admin:bookings_booking_change", args=[booking.pk]))

    def _mark(self, request, booking_ids, status):
        """Mark each booking status, telling how many were and, for the others, why not."""
        marked, refused = 0, []
        for booking_id in booking_ids:
            try:
                booking_desk_mark(booking_id=booking_id, status=status, user=request.user)
            except DeskRefused as refusal:
                refused.append(refusal.message)
            else:
                marked += 1
        if marked:
            label = Booking.Desk(status).label
            message = ngettext(
                "%(count)d booking marked “%(status)s”.", "%(count)d bookings marked “%(status)s”.", marked
            )
            self.message_user(request, message % {"count": marked, "status": label}, messages.SUCCESS)
        for reason in dict.fromkeys(refused):
            self.message_user(request, str(reason), messages.ERROR)

    def get_actions(self, request):
        """The front desk's marks as list actions too (beside Compare with hub)."""
        actions = super().get_actions(request)
        for status in (Booking.Desk.CHECKED_IN, Booking.Desk.CHECKED_OUT, Booking.Desk.NO_SHOW):
            name = f"desk_{status}"
            description = _("Mark “%(status)s”") % {"status": status.label}
            actions[name] = (self._desk_action(status), name, description)
        return actions

    def _desk_action(self, status):
        def action(model_admin, request, queryset):
            ids = list(queryset.values_list("pk", flat=True)[: DESK_ACTION_LIMIT + 1])
            if len(ids) > DESK_ACTION_LIMIT:
                message = _("Choose at most %(count)d bookings to mark at once.") % {"count": DESK_ACTION_LIMIT}
                self.message_user(request, message, messages.WARNING)
                return
            # Each booking in its own transaction, so that one refused leaves the others marked.
            self._mark(request, ids, status)

        return action

    def history_view(self, request, object_id, extra_context=None):
        """The hub's calls about the booking (bookings are the hub's, never changed here)."""
        booking = self.get_object(request, unquote(object_id))
        context = {}
        if booking is not None:
            context = {
                "hub_calls": list(booking_hub_calls(booking)),
                "hub_calls_shown": HISTORY_CALLS,
                "call_log_url": booking_calls_url(booking),
            }
        return super().history_view(request, object_id, {**context, **(extra_context or {})})

    @admin.display(description=_("status"), ordering="status")
    def state(self, booking):
        """The status; for a pending booking, how long its rooms have been held; a canceled one as a red
        badge (front_desk.css strikes its row's stay and total through; its page says when); the front
        desk's mark under a confirmed one."""
        if booking.status == Booking.Status.CANCELED:
            return format_html('<span class="booking-canceled-badge">{}</span>', booking.get_status_display())
        if booking.status != Booking.Status.PENDING:
            if booking.desk_status:
                return format_html(
                    '{}<br><span class="booking-desk booking-desk-{}">{}</span>',
                    booking.get_status_display(),
                    booking.desk_status,
                    booking.get_desk_status_display(),
                )
            return booking.get_status_display()
        minutes = int((timezone.now() - booking.created_at).total_seconds() // 60)
        held = _("held %(minutes)d min") % {"minutes": minutes}
        return format_html("{}<br><small>{}</small>", booking.get_status_display(), held)

    @admin.display(description=_("room / property"), ordering="room_type__name")
    def room(self, booking):
        """The room type as staff name it in this language (its English name in English), the property
        under it, and "no rate plan" for a booking the hub made without one."""
        if booking.rate_plan_id is None:
            # Flagged for a look (its page says what to check): the hub sold it without a rate plan of ours.
            return format_html(
                '{}<br><small>{}</small><br><span class="booking-unmapped-badge">{}</span>',
                display_name(booking.room_type),
                booking.property.name,
                _("no rate plan"),
            )
        return format_html("{}<br><small>{}</small>", display_name(booking.room_type), booking.property.name)

    @admin.display(description=_("room type"))
    def room_name(self, booking):
        return display_name(booking.room_type)

    @admin.display(description=_("rate plan"))
    def plan(self, booking):
        return booking.plan_name()

    @admin.display(description=_("check-in / check-out"), ordering="checkin")
    def stay(self, booking):
        """The stay's dates, Korea time; a narrow column breaks the line before the arrow, never inside
        a date."""
        checkin, checkout = stay_dates(booking)
        return format_html(
            '<span class="booking-date">{}</span> <span class="booking-date">→ {}</span>',
            checkin.isoformat(),
            checkout.isoformat(),
        )

    @admin.display(description=_("nights"))
    def nights_count(self, booking):
        """How many nights; a day use says so."""
        if booking.type == Booking.Type.DAYUSE:
            return booking.get_type_display()
        return len(booking.nights)

    @admin.display(description=_("guest / channel"), ordering="guest_name")
    def guest(self, booking):
        return format_html("{}<br><small>{}</small>", booking.guest_name, booking.channel_name)

    @admin.display(description=_("party / request"))
    def party(self, booking):
        """The front desk lists' party (adults, children, infants, pets, cars) and the guest's request."""
        if not booking.special_comment:
            return self.guests(booking)
        return format_html(
            '{}<br><small class="booking-request">{}</small>', self.guests(booking), booking.special_comment
        )

    @admin.display(description=_("front desk"))
    def desk(self, booking):
        """The front desk's marks on the booking: which, who and when, oldest first."""
        return render_to_string("admin/bookings/booking/desk_marks.html", {"marks": booking_desk_marks(booking)})

    @admin.display(description=_("guests"))
    def guests(self, booking):
        """Who stays, in one line (zero counts left out)."""
        counts = [
            (booking.adults, _("adults")),
            (booking.children, _("children")),
            (booking.infants, _("infants")),
            (booking.pets, _("pets")),
            (booking.cars, _("cars")),
        ]
        return ", ".join(f"{label} {count}" for count, label in counts if count) or "-"

    @admin.display(description=_("total amount"), ordering="total_amount")
    def total(self, booking):
        return format_html(
            '<span class="booking-amount">{}</span>', amount_text(booking.total_amount, booking.currency)
        )

    @admin.display(description=_("net price"))
    def net(self, booking):
        return amount_text(booking.net_price, booking.currency)

    @admin.display(description=_("nightly amounts"))
    def nightly_amounts(self, booking):
        """The nights as a small table: date and the channel's amount, the room amount as the total."""
        rows = [
            (night, amount_text(amount, booking.currency) if amount else "-") for night, amount in night_rows(booking)
        ]
        return render_to_string(
            "admin/bookings/booking/nights.html",
            {"rows": rows, "amount": amount_text(booking.amount, booking.currency)},
        )

    @admin.display(description=_("hub calls"))
    def calls(self, booking):
        return format_html(
            '<a href="{}">{}</a>', booking_calls_url(booking), _("Calls the hub made about this booking")
        )


@admin.register(InboundCall)
class InboundCallAdmin(ReadOnlyAdmin):
    """Every call the hub made to the vendor API: request (tokens and signatures removed), our answer,
    status and duration."""

    property_path = "booking__property"
    list_display = ["created_at", "method", "path_text", "status", "duration_ms", "booking_link"]
    list_filter = [("created_at", admin.DateFieldListFilter), CallStatusFilter, CallMethodFilter]
    list_select_related = ["booking"]
    # The number alone, as typed (a call about a booking carries it): a search inside the paths, or of
    # UPPER(number), would read every row.
    search_fields = ["booking_number__exact"]
    readonly_fields = (
        "created_at",
        "method",
        "path_text",
        "address",
        "body_size",
        "status",
        "duration_ms",
        "booking",
        "booking_number",
        "headers_text",
        "request_text",
        "response_text",
    )
    fields = readonly_fields

    class Media:
        css = {"all": ["bookings/calls.css"]}

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


@admin.register(RefusedCall)
class RefusedCallAdmin(ReadOnlyAdminMixin, admin.ModelAdmin):
    """Calls to the vendor API refused by authentication: what they asked for and from where, never what
    they sent. No property's: superusers alone see them (no role grants them)."""

    paginator = BoundedCountPaginator
    show_full_result_count = False
    list_display = ["created_at", "method", "path_text", "address", "status", "code", "body_size"]
    list_filter = [("created_at", admin.DateFieldListFilter), CallMethodFilter]
    # The address as typed: a search inside the paths would read every row.
    search_fields = ["address__exact"]
    readonly_fields = ("created_at", "method", "path_text", "address", "status", "code", "body_size")
    fields = readonly_fields

    @admin.display(description=_("path"), ordering="path")
    def path_text(self, call):
        return decoded_path(call.path)
