"""The history screens of a property's rates and availability: one cell's changes (opened from the
calendar), the list of changes, and one change with its cells and its undo (previewed, then applied as a
new change). A part of the property's admin (integration.ari.admin)."""

from django.contrib import messages
from django.contrib.auth import get_user_model
from django.core.exceptions import ValidationError
from django.db import IntegrityError
from django.http import Http404
from django.shortcuts import get_object_or_404, redirect
from django.template.response import TemplateResponse
from django.urls import reverse
from django.utils.translation import gettext as _

from core.admin.paging import UncountedPage

from .admin_bulk import PREVIEW_CELLS, _hub_requests, _preview_cell, _target_label, hub_updates_label
from .admin_pages import AriPageViews
from .forms import AriCellForm, AriChangesFilterForm
from .models import AriChangeSet
from .selectors.history import ari_cell_history, ari_change_cell_counts, ari_change_cells, ari_changes
from .selectors.rates import standalone_rates
from .services.edits import AriStale
from .services.history import ari_change_set_undo, ari_undo_plan
from .templatetags import ari_date, krw

#: Changes listed per page.
CHANGES_PER_PAGE = 50


def _field_label(field):
    labels = {
        "rate": _("rate"),
        "rate_modify": _("difference"),
        "business_day": _("open for sale"),
        "allotment": _("rooms to sell"),
        "cap": _("channel cap"),
    }
    return labels.get(field, field)


def _value(field, value):
    """A recorded value as staff read it."""
    if value is None:
        return "—"
    if field == "business_day":
        return _("open") if value else _("closed")
    return krw(value, signed=field == "rate_modify")


def _who(change_set):
    return change_set.user.get_username() if change_set.user else _("(a program)")


def _cell_line(cell):
    """One changed cell in a line: "Dec. 4, 2026 · Room 00 · Room only: rate 100,000 → 120,000"."""
    target = _target_label(cell.target)
    if cell.channel_id:
        target = f"{target} @ {cell.channel}"
    return _("%(date)s · %(row)s: %(value)s %(old)s → %(new)s") % {
        "date": ari_date(cell.date),
        "row": target,
        "value": _field_label(cell.field),
        "old": _value(cell.field, cell.old),
        "new": _value(cell.field, cell.new),
    }


class AriHistoryViews(AriPageViews):
    """The history views, mixed into the property admin."""

    def _change_url(self, prop, change_set):
        return reverse("admin:integration_property_ari_change", args=[prop.pk, change_set.pk])

    def calendar_history_view(self, request, object_id):
        """GET ?kind=rate|availability&target=&date=[&channel=]: the cell's changes as an HTML fragment
        (the calendar's cell editor shows it)."""
        prop = self.page_property(request, object_id, edit=False)
        form = AriCellForm(request.GET, property=prop)
        if not form.is_valid() or form.cleaned_data["target"] is None:
            raise Http404("No such cell in this property.")
        data = form.cleaned_data
        changes = ari_cell_history(
            target=data["target"],
            date=data["date"],
            channel=data["channel"],
            room_type=data["kind"] == "availability",
        )
        rows = [
            {
                "when": change.change_set.created_at,
                "who": _who(change.change_set),
                "source": change.change_set.get_source_display(),
                "url": self._change_url(prop, change.change_set),
                "field": _field_label(change.field),
                "old": _value(change.field, change.old),
                "new": _value(change.field, change.new),
            }
            for change in changes
        ]
        return TemplateResponse(request, "admin/integration/property/ari_cell_history.html", {"rows": rows})

    def calendar_changes_view(self, request, object_id):
        """GET: the property's changes of rates and availability, newest first, each with what it changed
        (its first cells, "and N more"), filtered by when, a day, a row and who: the same number of queries
        whatever the history's size, paged newer / older without counting it."""
        prop = self.page_property(request, object_id, edit=False)
        users = (
            get_user_model()
            .objects.filter(pk__in=AriChangeSet.objects.filter(property=prop, user__isnull=False).values("user"))
            .order_by(get_user_model().USERNAME_FIELD)
        )
        form = AriChangesFilterForm(request.GET or None, property=prop, users=users)
        filters, cells = {}, None
        if form.is_bound and form.is_valid():
            data = form.cleaned_data
            cells = form.cells() or None
            filters = {"made_from": data["made_from"], "made_to": data["made_to"], "cells": cells}
            if data["user"] is not None:
                filters["user"] = data["user"]
        changes = ari_changes(prop, **filters) if not form.errors else AriChangeSet.objects.none()
        # Not counted: a day or a row is touched by changes all through the history, which a count would read.
        page = UncountedPage(changes, CHANGES_PER_PAGE, request.GET.get("page"))
        shown = ari_change_cells(page.object_list, cells=cells)
        counts = ari_change_cell_counts(page.object_list, cells) if cells else {}
        for change_set in page:
            change_set.who = _who(change_set)
            change_set.url = self._change_url(prop, change_set)
            change_set.what = [_cell_line(cell) for cell in shown.get(change_set.pk, [])]
            total = counts.get(change_set.pk, 0) if cells else change_set.cell_count
            change_set.more = max(0, total - len(change_set.what))
        query = request.GET.copy()
        query.pop("page", None)
        context = self._context(
            request,
            prop,
            _("Change history: %(property)s") % {"property": prop.name},
            page=page,
            filter_form=form,
            filtered=bool(filters),
            page_query=query.urlencode(),
        )
        return TemplateResponse(request, "admin/integration/property/ari_changes.html", context)

    def calendar_change_view(self, request, object_id, change_id):
        """GET: one change and its cells. POST "preview": what undoing it would do. POST "apply" (of the
        previewed undo): the undo as a new change, refused with the new preview when the cells changed
        since."""
        prop = self.page_property(request, object_id, edit=request.method == "POST")
        change_set = get_object_or_404(
            AriChangeSet.objects.select_related("user", "undo_of"), property=prop, pk=change_id
        )
        undo = None
        if request.method == "POST":
            undo = ari_undo_plan(change_set)
            if "apply" in request.POST:
                response, undo = self._undo_apply(request, prop, change_set, undo)
                if response is not None:
                    return response
        cells = list(
            change_set.cells.select_related("rate_plan__model", "rate_plan__room_type", "room_type", "channel")[
                :PREVIEW_CELLS
            ]
        )
        context = self._context(
            request,
            prop,
            _("Change of rates and availability: %(property)s") % {"property": prop.name},
            change_set=change_set,
            who=_who(change_set),
            undo_of_url=self._change_url(prop, change_set.undo_of) if change_set.undo_of else None,
            undos=[(undo_set, self._change_url(prop, undo_set)) for undo_set in change_set.undos.all()],
            cells=[
                {
                    "date": cell.date,
                    "target": _target_label(cell.target),
                    "channel": cell.channel,
                    "field": _field_label(cell.field),
                    "old": _value(cell.field, cell.old),
                    "new": _value(cell.field, cell.new),
                }
                for cell in cells
            ],
            hidden_count=change_set.cell_count - len(cells),
            can_edit=self.has_change_permission(request, prop),
            undo=self._undo_preview(undo, paths=request.user.is_superuser) if undo is not None else None,
            changes_url=reverse("admin:integration_property_ari_changes", args=[prop.pk]),
        )
        return TemplateResponse(request, "admin/integration/property/ari_change.html", context)

    def _undo_apply(self, request, prop, change_set, undo):
        """Undo the change and show the new one; else (None, the undo as it is now) with a message."""
        try:
            new = ari_change_set_undo(change_set=change_set, user=request.user, expected=request.POST.get("cells", ""))
        except AriStale as stale:
            self.message_user(
                request,
                _(
                    "Some of these cells changed after your preview, so nothing was undone. "
                    "This is the new preview: check it, then undo."
                ),
                messages.WARNING,
            )
            return None, stale.plan
        except (ValidationError, IntegrityError) as error:
            reasons = " ".join(error.messages) if isinstance(error, ValidationError) else ""
            reasons = reasons or _("bookings changed meanwhile.")
            self.message_user(request, _("Nothing was undone: %(reasons)s") % {"reasons": reasons}, messages.ERROR)
            return None, undo
        if new is None:
            self.message_user(request, _("Nothing to undo: every cell already holds its earlier value."))
            return redirect(self._change_url(prop, change_set)), undo
        self.message_user(
            request,
            _("Undone: %(cells)s cells restored; the hub receives them like any edit.") % {"cells": new.cell_count},
            messages.SUCCESS,
        )
        return redirect(self._change_url(prop, new)), undo

    def _undo_preview(self, undo, *, paths):
        """What the undo preview shows: the cells it restores (now and after), those it leaves and why,
        and the updates to the hub (paths: with their requests)."""
        plan = undo.plan
        requests = _hub_requests(plan, paths=paths)
        changes = [*plan.errors, *plan.changed]
        bases = {}
        packages = [change for change in changes if change.field == "rate_modify"]
        if packages:
            bases = standalone_rates(
                {change.target.room_type_id for change in packages},
                min(change.date for change in packages),
                max(change.date for change in packages),
            )
        return {
            "cells": [_preview_cell(change, bases) for change in changes[:PREVIEW_CELLS]],
            "changed_count": len(plan.changed),
            "error_count": len(plan.errors),
            "skipped": [
                {
                    "date": cell.date,
                    "target": _target_label(cell.target),
                    "field": _field_label(cell.field),
                    "reason": reason,
                }
                for cell, reason in undo.skipped[:PREVIEW_CELLS]
            ],
            "skipped_count": len(undo.skipped),
            "requests": requests,
            "requests_label": hub_updates_label(len(requests)),
            "digest": undo.fingerprint(),
        }
