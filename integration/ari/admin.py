"""The rates and availability screens of a property: the calendar grid (common values, or one channel's)
with inline cell edits, the bulk edit with its preview, and the CSV export and import with its dry run.
integration/admin.py imports this module.

Every screen hangs below the property's own admin URL (/admin/integration/property/<id>/calendar/...),
so the property admin's scoping applies: another property is a 404. Staff and managers may view and
edit: viewing needs the view permission on the property, editing the change permission (both roles hold
both).
"""

import secrets
from collections import defaultdict

from django.contrib import admin, messages
from django.core.exceptions import PermissionDenied, ValidationError
from django.db import IntegrityError
from django.http import Http404, HttpResponseNotAllowed, JsonResponse, StreamingHttpResponse
from django.shortcuts import redirect
from django.template.response import TemplateResponse
from django.urls import path, reverse
from django.utils.formats import date_format
from django.utils.http import urlencode
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from .admin import PropertyAdmin
from .ari import Operation, ari_edit_apply, ari_edit_plan, ari_window, korea_today, ranges_of, standalone_rates
from .ari_csv import AriRowStatus, ari_csv_apply, ari_csv_export, ari_csv_plan, ari_csv_read
from .ari_forms import AriBulkEditForm, AriCellForm, AriExportForm, AriImportForm
from .ari_grid import (
    add_months,
    ari_cell_save,
    ari_grid_read,
    grid_month,
    grid_months,
    month_end,
)
from .hub import endpoints
from .models import Property, ResourceKind, RoomType, SalesChannel
from .sync.resources import path_params
from .templatetags.vendorhub_ari import krw, render_ari_cells

#: The most cells a bulk edit preview lists (the errors first); the counts always cover every cell.
PREVIEW_CELLS = 400
#: The most rows an import preview lists (errors first, then changes); the counts cover every row.
PREVIEW_ROWS = 2000
#: The largest value the database holds in a rate, difference or count.
DB_INT_MAX = 2_147_483_647


def _import_session_key(prop):
    return f"integration.ari_import.{prop.pk}"


class PropertyAriAdmin(PropertyAdmin):
    """The property admin with its rates and availability screens."""

    def get_urls(self):
        def view(function):
            return self.admin_site.admin_view(function)

        return [
            path("<path:object_id>/calendar/", view(self.calendar_view), name="integration_property_calendar"),
            path(
                "<path:object_id>/calendar/cell/", view(self.calendar_cell_view), name="integration_property_ari_cell"
            ),
            path(
                "<path:object_id>/calendar/bulk/", view(self.calendar_bulk_view), name="integration_property_ari_bulk"
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
            *super().get_urls(),
        ]

    # --- Access ---------------------------------------------------------------------------------

    def _ari_property(self, request, object_id, *, edit):
        """The property of the URL among the user's (else 404), and whether they may view or edit it."""
        prop = self.get_object(request, object_id)
        if not self.has_view_or_change_permission(request, prop):
            raise PermissionDenied
        if edit and not self.has_change_permission(request, prop):
            raise PermissionDenied
        return prop

    def _channel(self, value):
        """The SalesChannel a ?channel= parameter names; None for the common values."""
        if not value:
            return None
        try:
            return SalesChannel.objects.get(pk=value)
        except (SalesChannel.DoesNotExist, ValueError, ValidationError):
            raise Http404("No such sales channel.") from None

    def _calendar_url(self, prop, *, month=None, channel=None):
        query = {}
        if month:
            query["month"] = month.strftime("%Y-%m")
        if channel is not None:
            query["channel"] = channel.pk
        url = reverse("admin:integration_property_calendar", args=[prop.pk])
        return f"{url}?{urlencode(query)}" if query else url

    def _context(self, request, prop, title, **context):
        return {
            **self.admin_site.each_context(request),
            "opts": self.opts,
            "original": prop,
            "property": prop,
            "title": title,
            "calendar_url": reverse("admin:integration_property_calendar", args=[prop.pk]),
            **context,
        }

    # --- The grid -------------------------------------------------------------------------------

    def calendar_view(self, request, object_id):
        """GET: a month of the grid (?month=YYYY-MM, ?channel=<id> for one channel's values)."""
        prop = self._ari_property(request, object_id, edit=False)
        month = grid_month(request.GET.get("month"))
        channel = self._channel(request.GET.get("channel"))
        grid = ari_grid_read(prop, first=month, last=month_end(month), channel=channel)
        months = grid_months()
        can_edit = self.has_change_permission(request, prop)
        query = {"channel": channel.pk} if channel else {}
        context = self._context(
            request,
            prop,
            _("Rates and availability: %(property)s") % {"property": prop.name},
            grid=grid,
            month=month,
            month_label=date_format(month, "YEAR_MONTH_FORMAT"),
            months=[(value.strftime("%Y-%m"), date_format(value, "YEAR_MONTH_FORMAT")) for value in months],
            previous_url=self._calendar_url(prop, month=add_months(month, -1), channel=channel)
            if month > months[0]
            else None,
            next_url=self._calendar_url(prop, month=add_months(month, 1), channel=channel)
            if month < months[-1]
            else None,
            channel=channel,
            channels=list(SalesChannel.objects.order_by("name")),
            can_edit=can_edit,
            column_count=len(grid.days) + 1,
            cell_url=reverse("admin:integration_property_ari_cell", args=[prop.pk]),
            bulk_url=reverse("admin:integration_property_ari_bulk", args=[prop.pk])
            + "?"
            + urlencode({"from": max(month, korea_today()), "to": min(month_end(month), ari_window()[1]), **query}),
            export_url=reverse("admin:integration_property_ari_export", args=[prop.pk]),
            import_url=reverse("admin:integration_property_ari_import", args=[prop.pk]),
            export_from=max(month, korea_today()).isoformat(),
            export_to=month_end(month).isoformat(),
        )
        return TemplateResponse(request, "admin/integration/property/ari_calendar.html", context)

    def calendar_cell_view(self, request, object_id):
        """POST one cell; answers JSON: {"ok": true, "cells": {id: html}} with every cell of the room type
        on that day (a standalone rate moves its packages' prices), or {"ok": false, "error": "..."}."""
        if request.method != "POST":
            return HttpResponseNotAllowed(["POST"])
        prop = self._ari_property(request, object_id, edit=True)
        form = AriCellForm(request.POST, property=prop)
        if not form.is_valid():
            if form.cleaned_data.get("target", 0) is None:
                raise Http404("No such row in this property.")
            message = " ".join(str(error) for errors in form.errors.values() for error in errors)
            return JsonResponse({"ok": False, "error": message}, status=400)
        data = form.cleaned_data
        if data["target"] is None:
            raise Http404("No such row in this property.")
        try:
            ari_cell_save(
                target=data["target"],
                day=data["date"],
                value=data["value"],
                business_day=data["business_day"],
                channel=data["channel"],
            )
        except ValidationError as error:
            return JsonResponse({"ok": False, "error": " ".join(error.messages)}, status=400)
        except IntegrityError:
            # A booking took rooms between the check and the write: the database refused to oversell.
            message = _("Bookings changed this day meanwhile; reload the page and try again.")
            return JsonResponse({"ok": False, "error": message}, status=409)
        room_type_id = data["target"].pk if isinstance(data["target"], RoomType) else data["target"].room_type_id
        grid = ari_grid_read(
            prop, first=data["date"], last=data["date"], channel=data["channel"], room_type_ids=[room_type_id]
        )
        return JsonResponse({"ok": True, "cells": render_ari_cells(grid, can_edit=True)})

    # --- Bulk edit ------------------------------------------------------------------------------

    def calendar_bulk_view(self, request, object_id):
        """GET: the bulk edit form. POST "preview": the cells and hub requests it would change. POST
        "apply" (of an unchanged, previewed form): the edit as one change, then back to the grid."""
        prop = self._ari_property(request, object_id, edit=True)
        if request.method == "POST":
            form = AriBulkEditForm(request.POST, property=prop)
        else:
            first = request.GET.get("from") or ""
            form = AriBulkEditForm(
                property=prop,
                initial={"ranges": [(first, request.GET.get("to") or "")], "channel": request.GET.get("channel")},
            )
        preview = None
        if form.is_bound and form.is_valid():
            edit = form.cleaned_data["edit"]
            plan = ari_edit_plan(edit)
            blocked = self._bulk_errors(form, plan)
            digest = form.digest()
            if "apply" in request.POST and not blocked:
                if secrets.compare_digest(request.POST.get("digest", ""), digest):
                    response = self._bulk_apply(request, prop, edit)
                    if response is not None:
                        return response
                else:
                    self.message_user(
                        request,
                        _("The choices changed since the preview: check this preview, then apply."),
                        messages.WARNING,
                    )
            preview = self._bulk_preview(prop, edit, plan, digest=digest, blocked=blocked)
        context = self._context(
            request,
            prop,
            _("Bulk edit: %(property)s") % {"property": prop.name},
            form=form,
            preview=preview,
            media=self.media + form.media,
        )
        return TemplateResponse(request, "admin/integration/property/ari_bulk.html", context)

    def _bulk_errors(self, form, plan):
        """Turn the cells the edit cannot change into form errors; True when there are any."""
        for change in plan.changes:
            if not change.error and change.new is not None and abs(change.new) > DB_INT_MAX:
                change.error = _("The result would be too large.")
        errors = plan.errors
        if not errors:
            return False
        messages_ = [_("%(count)s cells cannot change; nothing was saved:") % {"count": len(errors)}]
        messages_.extend(
            f"{change.date.isoformat()} · {_target_label(change.target)}: {change.error}" for change in errors[:10]
        )
        if len(errors) > 10:
            messages_.append(_("… and %(count)s more.") % {"count": len(errors) - 10})
        form.add_error(None, messages_)
        return True

    def _bulk_apply(self, request, prop, edit):
        """Apply the edit and go back to the grid; None (with a message) when the data changed so that
        it no longer applies, and the preview is shown again."""
        try:
            plan = ari_edit_apply(edit)
        except (ValidationError, IntegrityError) as error:
            reasons = " ".join(error.messages) if isinstance(error, ValidationError) else ""
            reasons = reasons or _("bookings changed meanwhile.")
            self.message_user(request, _("Nothing was saved: %(reasons)s") % {"reasons": reasons}, messages.ERROR)
            return None
        self.message_user(
            request,
            _("Changed %(cells)s cells; %(requests)s requests to the hub are queued.")
            % {"cells": len(plan.changed), "requests": len(plan.hub_requests)},
            messages.SUCCESS,
        )
        first = min(date_range.start for date_range in edit.ranges)
        return redirect(self._calendar_url(prop, month=first.replace(day=1), channel=edit.channel))

    def _bulk_preview(self, prop, edit, plan, *, digest, blocked):
        """What the preview shows: the cells (errors first, then changes), and the hub requests."""
        changed, errors = plan.changed, plan.errors
        dates = [change.date for change in plan.changes]
        bases = {}
        if dates and any(getattr(change.target, "model", None) for change in plan.changes):
            bases = standalone_rates(
                {change.target.room_type_id for change in plan.changes if not isinstance(change.target, RoomType)},
                min(dates),
                max(dates),
            )
        shown = [*errors, *changed][:PREVIEW_CELLS]
        availability = edit.operation == Operation.SET_AVAILABILITY
        ignored = 0
        if edit.operation != Operation.CLEAR_CHANNEL:
            ignored = len(edit.rate_plans) if availability else len(edit.room_types)
        return {
            "cells": [_preview_cell(change, bases) for change in shown],
            "changed_count": len(changed),
            "error_count": len(errors),
            "unchanged_count": len(plan.changes) - len(changed) - len(errors),
            "hidden_count": len(errors) + len(changed) - len(shown),
            "requests": _hub_requests(plan),
            "ignored": ignored,
            "availability": availability,
            "digest": digest,
            "blocked": blocked,
        }

    # --- CSV ------------------------------------------------------------------------------------

    def calendar_export_view(self, request, object_id):
        """GET ?date_from=&date_to=: the CSV file of the range, streamed; without a valid range, the form."""
        prop = self._ari_property(request, object_id, edit=False)
        form = AriExportForm(request.GET or None)
        if form.is_valid():
            first, last = form.cleaned_data["date_from"], form.cleaned_data["date_to"]
            response = StreamingHttpResponse(
                ari_csv_export(prop, first=first, last=last), content_type="text/csv; charset=utf-8"
            )
            filename = f"ari-{prop.vendor_id}-{first.isoformat()}-{last.isoformat()}.csv"
            response["Content-Disposition"] = f'attachment; filename="{filename}"'
            return response
        context = self._context(
            request,
            prop,
            _("Export rates and availability: %(property)s") % {"property": prop.name},
            export_form=form if form.is_bound else AriExportForm(initial=_month_range()),
            import_form=AriImportForm() if self.has_change_permission(request, prop) else None,
        )
        return TemplateResponse(request, "admin/integration/property/ari_csv.html", context)

    def calendar_import_view(self, request, object_id):
        """GET: the upload form. POST with a file: the dry run. POST "apply": the import of the previewed
        file, in one transaction, refused while any row has an error."""
        prop = self._ari_property(request, object_id, edit=True)
        if request.method == "POST" and "apply" in request.POST:
            return self._import_apply(request, prop)
        form = AriImportForm(*((request.POST, request.FILES) if request.method == "POST" else ()))
        if form.is_bound and form.is_valid():
            token = secrets.token_urlsafe(16)
            request.session[_import_session_key(prop)] = {"token": token, "text": form.cleaned_data["file"]}
            plan = ari_csv_plan(prop, form.cleaned_data["rows"])
            return self._render_import(request, prop, AriImportForm(), plan=plan, token=token)
        return self._render_import(request, prop, form)

    def _import_apply(self, request, prop):
        key = _import_session_key(prop)
        pending = request.session.get(key) or {}
        if not pending or not secrets.compare_digest(pending["token"], request.POST.get("token", "")):
            self.message_user(request, _("That preview has expired: upload the file again."), messages.ERROR)
            return redirect("admin:integration_property_ari_import", prop.pk)
        # The text was read without error for the preview; the plan is made again against today's data.
        plan = ari_csv_apply(prop, ari_csv_read(pending["text"]))
        if not plan.applied:
            self.message_user(
                request,
                _("Nothing was imported: correct the rows marked as errors and upload the file again."),
                messages.ERROR,
            )
            return self._render_import(request, prop, AriImportForm(), plan=plan, token=pending["token"])
        del request.session[key]
        counts = plan.counts
        self.message_user(
            request,
            _("Imported the rates and availability: %(change)s rows changed, %(unchanged)s unchanged.") % counts,
            messages.SUCCESS,
        )
        return redirect(self._calendar_url(prop))

    def _render_import(self, request, prop, form, *, plan=None, token=None):
        context = self._context(
            request,
            prop,
            _("Import rates and availability: %(property)s") % {"property": prop.name},
            import_form=form,
            export_form=None if plan else AriExportForm(initial=_month_range()),
            plan=plan,
            token=token,
        )
        if plan is not None:
            listed = [row for row in plan.rows if row.status == AriRowStatus.ERROR]
            listed += [row for row in plan.rows if row.status == AriRowStatus.CHANGE]
            context.update(
                summary=[(AriRowStatus(status).label, status, count) for status, count in plan.counts.items()],
                listed_rows=sorted(listed[:PREVIEW_ROWS], key=lambda row: row.line),
                hidden_count=len(listed) - min(len(listed), PREVIEW_ROWS),
                error_count=plan.count(AriRowStatus.ERROR),
                error_count_text=ngettext(
                    "%(count)s row has an error: nothing can be imported until the file is corrected.",
                    "%(count)s rows have errors: nothing can be imported until the file is corrected.",
                    plan.count(AriRowStatus.ERROR),
                )
                % {"count": plan.count(AriRowStatus.ERROR)},
            )
        return TemplateResponse(request, "admin/integration/property/ari_csv.html", context)


def _month_range():
    """This month's days from today (Korea time): what an export offers first."""
    today = korea_today()
    return {"date_from": today, "date_to": month_end(today.replace(day=1))}


def _target_label(target):
    if isinstance(target, RoomType):
        return _("%(room_type)s · availability") % {"room_type": target.name}
    return f"{target.room_type.name} · {target.model.name}"


def _preview_value(change, value, bases):
    """A cell's value as staff read it: a package's price with its difference, a business day as open or
    closed, "—" for none."""
    if change.field == "business_day":
        return "—" if value is None else (_("open") if value else _("closed"))
    if change.field == "rate_modify" and value is not None:
        base = bases.get((change.target.room_type_id, change.date))
        if base is None:
            return krw(value, signed=True)
        return _("%(price)s (difference %(diff)s)") % {"price": krw(base + value), "diff": krw(value, signed=True)}
    return krw(value)


def _preview_cell(change, bases):
    labels = {
        "rate": _("rate"),
        "rate_modify": _("price"),
        "business_day": _("open for sale"),
        "allotment": _("rooms to sell"),
        "cap": _("channel cap"),
    }
    return {
        "date": change.date,
        "weekday": date_format(change.date, "D"),
        "target": _target_label(change.target),
        "field": labels.get(change.field, change.field),
        "old": _preview_value(change, change.old, bases),
        "new": "" if change.error else _preview_value(change, change.new, bases),
        "error": change.error,
    }


def _hub_requests(plan):
    """One line per hub request the change causes: the rate plan's or room type's push, its path and the
    changed days as merged ranges."""
    dates = defaultdict(list)
    for change in plan.changed:
        dates[change.target].append(change.date)
    requests = []
    for target, days in dates.items():
        if isinstance(target, RoomType):
            kind, endpoint = ResourceKind.ARI_AVAILS, endpoints.ARI_AVAILS
        else:
            kind, endpoint = ResourceKind.ARI_RATES, endpoints.ARI_RATES
        ranges = ranges_of(days)
        requests.append(
            {
                "target": _target_label(target),
                "kind": kind.label,
                "path": f"{endpoint.method} {endpoint.path(**path_params(target))}",
                "days": len(days),
                "ranges": ", ".join(
                    r.start.isoformat() if r.start == r.end else f"{r.start.isoformat()} ~ {r.end.isoformat()}"
                    for r in ranges[:6]
                )
                + (" …" if len(ranges) > 6 else ""),
            }
        )
    return sorted(requests, key=lambda request: (request["target"], request["kind"]))


# The property admin gains the screens above: registered again as its subclass.
admin.site.unregister(Property)
admin.site.register(Property, PropertyAriAdmin)
