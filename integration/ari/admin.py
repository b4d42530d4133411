"""The rates and availability screens of a property: the calendar grid (common values, or one channel's)
with inline cell edits (here), the bulk edit with its preview (admin_bulk), the copy of a period and the
named seasons (admin_periods), the CSV export and import
with its dry run (admin_csv), and the history of changes with their undo (admin_history).

Every screen hangs below the property's own admin URL (/admin/integration/property/<id>/calendar/...),
so the property admin's scoping applies: another property is a 404. Staff and managers may view and
edit: viewing needs the view permission on the property, editing the change permission (both roles hold
both).
"""

from django.core.exceptions import ValidationError
from django.db import IntegrityError
from django.http import Http404, HttpResponseNotAllowed, JsonResponse
from django.template.response import TemplateResponse
from django.urls import path, reverse
from django.utils.http import urlencode
from django.utils.translation import gettext as _

from ..channels.models import SalesChannel
from ..channels.selectors import open_channels
from ..content.models import RoomType
from ..sync.models import ResourceKind
from . import admin_avail  # noqa: F401  (registers the availability levers' screens)
from .admin_csv import AriCsvViews
from .admin_history import AriHistoryViews
from .admin_periods import AriPeriodViews
from .admin_prices import AriPriceViews
from .dates import GRID_DAYS, ari_window, grid_window, month_start
from .forms import AriCellForm
from .selectors.grid import ari_grid_hub, ari_grid_read
from .selectors.rates import ari_hub_standing
from .services.cells import AriCellStale, ari_cell_save
from .templatetags import ari_dates, cell_key, hub_badge, render_ari_cells


class AriCalendarViews(AriPeriodViews, AriCsvViews, AriHistoryViews, AriPriceViews):
    """The rates and availability screens, mixed into the property admin (golive.admin composes it)."""

    def get_urls(self):
        def view(function):
            return self.admin_site.admin_view(function)

        return [
            path("<path:object_id>/calendar/", view(self.calendar_view), name="integration_property_calendar"),
            path(
                "<path:object_id>/calendar/cell/", view(self.calendar_cell_view), name="integration_property_ari_cell"
            ),
            path("<path:object_id>/calendar/hub/", view(self.calendar_hub_view), name="integration_property_ari_hub"),
            path(
                "<path:object_id>/calendar/bulk/", view(self.calendar_bulk_view), name="integration_property_ari_bulk"
            ),
            path(
                "<path:object_id>/calendar/copy/", view(self.calendar_copy_view), name="integration_property_ari_copy"
            ),
            path(
                "<path:object_id>/calendar/seasons/",
                view(self.calendar_seasons_view),
                name="integration_property_ari_seasons",
            ),
            path(
                "<path:object_id>/calendar/history/",
                view(self.calendar_history_view),
                name="integration_property_ari_history",
            ),
            path(
                "<path:object_id>/calendar/changes/",
                view(self.calendar_changes_view),
                name="integration_property_ari_changes",
            ),
            path(
                "<path:object_id>/calendar/changes/<int:change_id>/",
                view(self.calendar_change_view),
                name="integration_property_ari_change",
            ),
            path(
                "<path:object_id>/calendar/export/",
                view(self.calendar_export_view),
                name="integration_property_ari_export",
            ),
            path(
                "<path:object_id>/calendar/import/",
                view(self.calendar_import_view),
                name="integration_property_ari_import",
            ),
            path(
                "<path:object_id>/calendar/import/<int:import_id>/",
                view(self.calendar_import_page_view),
                name="integration_property_ari_import_page",
            ),
            path(
                "<path:object_id>/calendar/import/<int:import_id>/progress/",
                view(self.calendar_import_progress_view),
                name="integration_property_ari_import_progress",
            ),
            path(
                "<path:object_id>/calendar/import/<int:import_id>/apply/",
                view(self.calendar_import_apply_view),
                name="integration_property_ari_import_apply",
            ),
            path(
                "<path:object_id>/calendar/import/<int:import_id>/errors.csv",
                view(self.calendar_import_errors_view),
                name="integration_property_ari_import_errors",
            ),
            *super().get_urls(),
        ]

    # --- Access ---------------------------------------------------------------------------------

    def _channel(self, value, prop):
        """The SalesChannel a ?channel= parameter names, among those open for the property (else 404);
        None for the common values."""
        if not value:
            return None
        try:
            return open_channels(prop).get(pk=value)
        except (SalesChannel.DoesNotExist, ValueError, ValidationError):
            raise Http404("No such sales channel open for this property.") from None

    # --- The grid -------------------------------------------------------------------------------

    def calendar_view(self, request, object_id):
        """GET: a span of the grid (?start=YYYY-MM-DD&days=N, from today by default; ?month=YYYY-MM for a
        calendar month), ?channel=<id> for one channel's values."""
        prop = self.page_property(request, object_id, edit=False)
        window = grid_window(request.GET.get("start"), request.GET.get("days"), request.GET.get("month"))
        channel = self._channel(request.GET.get("channel"), prop)
        grid = ari_grid_read(prop, first=window.first, last=window.last, channel=channel)
        ari_grid_hub(grid)
        can_edit = self.has_change_permission(request, prop)
        query = {"channel": channel.pk} if channel else {}
        hub_first, hub_last = ari_window()
        context = self._context(
            request,
            prop,
            _("Rates and availability: %(property)s") % {"property": prop.name},
            grid=grid,
            window=window,
            window_label=ari_dates(window.first, window.last),
            grid_days=GRID_DAYS,
            earliest=month_start(hub_first).isoformat(),
            latest=hub_last.isoformat(),
            today=hub_first,
            today_url=self._calendar_url(prop, start=hub_first, days=window.days, channel=channel),
            previous_url=self._calendar_url(prop, start=window.previous, days=window.days, channel=channel)
            if window.previous
            else None,
            next_url=self._calendar_url(prop, start=window.next, days=window.days, channel=channel)
            if window.next
            else None,
            channel=channel,
            channels=list(open_channels(prop)),
            can_edit=can_edit,
            column_count=len(grid.days) + 1,
            hub_log_url=self._hub_log_url(request),
            hub_url=reverse("admin:integration_property_ari_hub", args=[prop.pk])
            + "?"
            + urlencode({**window.query(), **query}),
            cell_url=reverse("admin:integration_property_ari_cell", args=[prop.pk]),
            bulk_url=reverse("admin:integration_property_ari_bulk", args=[prop.pk])
            + "?"
            + urlencode({"from": max(window.first, hub_first), "to": min(window.last, hub_last), **query}),
            bulk_base_url=reverse("admin:integration_property_ari_bulk", args=[prop.pk]),
            copy_url=reverse("admin:integration_property_ari_copy", args=[prop.pk]),
            export_url=reverse("admin:integration_property_ari_export", args=[prop.pk]),
            import_url=reverse("admin:integration_property_ari_import", args=[prop.pk]),
            history_url=reverse("admin:integration_property_ari_history", args=[prop.pk]),
            prices_url=reverse("admin:integration_property_ari_prices", args=[prop.pk]),
            changes_url=reverse("admin:integration_property_ari_changes", args=[prop.pk]),
            export_from=max(window.first, hub_first).isoformat(),
            export_to=window.last.isoformat(),
        )
        return TemplateResponse(request, "admin/integration/property/ari_calendar.html", context)

    def _hub_log_url(self, request):
        """The log of exchanges with the hub, for those who may read it ("" for the others)."""
        if request.user.has_perm("integration.view_syncattempt"):
            return reverse("admin:integration_syncattempt_changelist")
        return ""

    def calendar_hub_view(self, request, object_id):
        """GET ?start=&days=[&channel=] (the grid's window): where its rows stand with the hub, as JSON for the
        calendar's refresh: {"rows": {box id: {"status", "html"}}, "unsent": [cell ids], "waiting": bool}
        (two queries for the standing, whatever the rows)."""
        prop = self.page_property(request, object_id, edit=False)
        window = grid_window(request.GET.get("start"), request.GET.get("days"), request.GET.get("month"))
        channel = self._channel(request.GET.get("channel"), prop)
        log_url = self._hub_log_url(request)
        availability = "al" if channel is None else "cap"
        rows: dict[str, dict[str, str]] = {}
        unsent: list[str] = []
        waiting = False
        for (kind, object_id_), standing in ari_hub_standing(prop, first=window.first, last=window.last).items():
            prefix = "rp" if kind == ResourceKind.ARI_RATES else availability
            rows[f"hub-{prefix}-{object_id_}"] = {
                "status": standing.status,
                "html": str(hub_badge(standing, log_url=log_url)),
            }
            unsent.extend(cell_key(prefix, object_id_, day) for span in standing.unsent for day in span.days())
            waiting = waiting or standing.waiting
        return JsonResponse({"rows": rows, "unsent": unsent, "waiting": waiting})

    def calendar_cell_view(self, request, object_id):
        """POST one cell; answers JSON: {"ok": true, "cells": {id: html}} with every cell of the room type
        on that day (a standalone rate moves its packages' prices), or {"ok": false, "error": "..."} with
        "confirm": true when confirming the rooms to sell would save it, or "stale": true and the cells as
        they are now when someone changed the cell after the page showed it."""
        if request.method != "POST":
            return HttpResponseNotAllowed(["POST"])
        prop = self.page_property(request, object_id, edit=True)
        form = AriCellForm(request.POST, property=prop)
        if not form.is_valid():
            if form.cleaned_data.get("target", 0) is None:
                raise Http404("No such row in this property.")
            message = " ".join(str(error) for errors in form.errors.values() for error in errors)
            return JsonResponse({"ok": False, "error": message}, status=400)
        data = form.cleaned_data
        if data["target"] is None:
            raise Http404("No such row in this property.")
        room_type_id = data["target"].pk if isinstance(data["target"], RoomType) else data["target"].room_type_id

        def cells():
            grid = ari_grid_read(
                prop, first=data["date"], last=data["date"], channel=data["channel"], room_type_ids=[room_type_id]
            )
            ari_grid_hub(grid)
            return render_ari_cells(grid, can_edit=True)

        try:
            ari_cell_save(
                target=data["target"],
                day=data["date"],
                value=data["value"],
                business_day=data["business_day"],
                channel=data["channel"],
                user=request.user,
                seen=data["seen"],
                confirmed=data["confirm"],
            )
        except AriCellStale as error:
            # Someone saved the cell meanwhile: show what it holds now, and save nothing.
            return JsonResponse({"ok": False, "stale": True, "error": error.messages[0], "cells": cells()}, status=409)
        except ValidationError as error:
            confirm = any(item.code == "confirm" for item in error.error_list)
            return JsonResponse({"ok": False, "confirm": confirm, "error": " ".join(error.messages)}, status=400)
        except IntegrityError:
            # A booking took rooms between the check and the write: the database refused to oversell.
            message = _("Bookings changed this day meanwhile; reload the page and try again.")
            return JsonResponse({"ok": False, "error": message}, status=409)
        return JsonResponse({"ok": True, "cells": cells()})
