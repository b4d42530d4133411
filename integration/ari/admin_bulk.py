"""The bulk edit screen of a property's rates and availability: the form, its preview (every cell's old
and new value, and the hub requests the change causes), then the apply. A part of the property's admin
(integration.ari.admin)."""

import secrets
from collections import defaultdict

from django.contrib import messages
from django.core.exceptions import ValidationError
from django.db import IntegrityError
from django.shortcuts import redirect
from django.template.response import TemplateResponse
from django.urls import reverse
from django.utils.formats import date_format
from django.utils.html import format_html
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from ..content.models import RoomType
from ..content.names import display_name
from ..content.resources import path_params
from ..hub import endpoints
from ..sync.models import ResourceKind
from .admin_pages import AriPageViews
from .dates import ranges_of
from .forms import AriBulkEditForm
from .models import AriChangeSource
from .selectors.rates import standalone_rates
from .services.bulk import ari_change_apply
from .services.edits import AriStale, Operation, ari_derived_prices, ari_edit_plan
from .templatetags import ari_date, ari_dates, krw

#: The most cells a bulk edit preview lists (the errors first); the counts always cover every cell.
PREVIEW_CELLS = 400

#: The largest value the database holds in a rate, difference or count.
DB_INT_MAX = 2_147_483_647


def _target_label(target):
    if isinstance(target, RoomType):
        return _("%(room_type)s · availability") % {"room_type": display_name(target)}
    return display_name(target)


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
        "warning": change.warning,
    }


def _hub_requests(plan, *, paths=False):
    """One line per update the change sends to the hub (a rate plan's rates or a room type's availability):
    what it updates and the changed days as merged ranges; paths: the request itself (for superusers)."""
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
                "path": f"{endpoint.method} {endpoint.path(**path_params(target))}" if paths else "",
                "days": len(days),
                "ranges": ", ".join(ari_dates(r.start, r.end) for r in ranges[:6]) + (" …" if len(ranges) > 6 else ""),
            }
        )
    return sorted(requests, key=lambda request: (request["target"], request["kind"]))


def hub_updates_label(count):
    """ "2 updates to the hub": how staff read the requests a change sends."""
    return ngettext("%(count)s update to the hub", "%(count)s updates to the hub", count) % {"count": count}


def _derived_rows(derived, rate_plans):
    """The package prices that follow the standalone rates, as the preview lists them."""
    return [
        {
            "date": price.date,
            "weekday": date_format(price.date, "D"),
            "target": display_name(rate_plans[price.rate_plan_id]),
            "difference": krw(price.difference, signed=True),
            "old": krw(price.before),
            "new": krw(price.after),
        }
        for price in derived
        if price.rate_plan_id in rate_plans
    ]


def plan_preview(request, plan, *, rate_plans, channel=None):
    """What the preview of a plan shows, on every screen that applies one (the bulk edit, the copy of a
    period): the cells (errors first, then changes), the package prices that follow the standalone rates,
    and the updates to the hub."""
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
    derived = ari_derived_prices(plan, channel=channel)
    requests = _hub_requests(plan, paths=request.user.is_superuser)
    return {
        "cells": [_preview_cell(change, bases) for change in shown],
        "derived": _derived_rows(derived[:PREVIEW_CELLS], rate_plans),
        "derived_count": len(derived),
        "derived_hidden": max(0, len(derived) - PREVIEW_CELLS),
        "changed_count": len(changed),
        "error_count": len(errors),
        "unchanged_count": len(plan.changes) - len(changed) - len(errors),
        "hidden_count": len(errors) + len(changed) - len(shown),
        "requests": requests,
        "requests_label": hub_updates_label(len(requests)),
    }


class AriBulkEditViews(AriPageViews):
    """The bulk edit views, mixed into the property admin."""

    def calendar_bulk_view(self, request, object_id):
        """GET: the bulk edit form. POST "preview": the cells and hub requests it would change. POST
        "apply" (of an unchanged, previewed form): the edit as one change, then back to the grid."""
        prop = self.page_property(request, object_id, edit=True)
        if request.method == "POST":
            form = AriBulkEditForm(request.POST, property=prop)
        else:
            # From the grid: its days (and, for a block of cells selected there, its rows) chosen.
            first = request.GET.get("from") or ""
            form = AriBulkEditForm(
                property=prop,
                initial={
                    "ranges": [(first, request.GET.get("to") or "")],
                    "channel": request.GET.get("channel"),
                    "targets": request.GET.getlist("targets"),
                },
            )
        preview = None
        if form.is_bound and form.is_valid():
            edit = form.cleaned_data["edit"]
            plan = ari_edit_plan(edit)
            blocked = self._bulk_errors(form, plan)
            digest = form.digest()
            if "apply" in request.POST and not blocked:
                # "<choices digest>:<cells fingerprint>": the previewed choices, then what the cells held.
                posted, _sep, cells = request.POST.get("digest", "").partition(":")
                if secrets.compare_digest(posted, digest):
                    response, plan = self._bulk_apply(request, prop, edit, plan, expected=cells)
                    if response is not None:
                        return response
                    blocked = self._bulk_errors(form, plan)
                else:
                    self.message_user(
                        request,
                        _("The choices changed since the preview: check this preview, then apply."),
                        messages.WARNING,
                    )
            preview = self._bulk_preview(
                request, edit, plan, digest=digest, blocked=blocked, rate_plans=form.rate_plans
            )
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
        if plan.warnings and not plan.errors:
            # Big price moves: the preview lists them, the confirmation field applies them.
            form.asks_price_confirmation = True
            if not form.cleaned_data["confirm_prices"]:
                form.add_error("confirm_prices", plan.warnings[0].warning)
                return True
        errors = plan.errors
        if not errors:
            return False
        messages_ = [
            ngettext(
                "%(count)d cell cannot change; nothing was saved:",
                "%(count)d cells cannot change; nothing was saved:",
                len(errors),
            )
            % {"count": len(errors)}
        ]
        messages_.extend(
            f"{ari_date(change.date)} · {_target_label(change.target)}: {change.error}" for change in errors[:10]
        )
        if len(errors) > 10:
            messages_.append(_("… and %(count)s more.") % {"count": len(errors) - 10})
        form.add_error(None, messages_)
        return True

    def _bulk_apply(self, request, prop, edit, plan, *, expected):
        """Apply the edit if the cells still hold what the preview showed, and go back to the grid. Else
        (None, the plan as it is now) with a message: the preview is shown again, nothing saved."""
        try:
            plan, change_set = ari_change_apply(
                prop=prop,
                edit=edit,
                source=AriChangeSource.BULK,
                user=request.user,
                expected=expected,
            )
        except (AriStale, ValidationError, IntegrityError) as error:
            self._message_not_saved(request, error)
            return None, error.plan if isinstance(error, AriStale) else plan
        self._message_applied(request, prop, plan, change_set)
        first = min(date_range.start for date_range in edit.ranges)
        return redirect(self._calendar_url(prop, start=first, channel=edit.channel)), plan

    def _message_not_saved(self, request, error):
        """Say why an apply saved nothing: the cells changed after the preview (AriStale: the new preview is
        shown), or a refusal (its reasons; an IntegrityError: bookings changed meanwhile)."""
        if isinstance(error, AriStale):
            self.message_user(
                request,
                _(
                    "Someone changed some of these cells after your preview, so nothing was saved. "
                    "This is the new preview: check it, then apply."
                ),
                messages.WARNING,
            )
            return
        reasons = " ".join(error.messages) if isinstance(error, ValidationError) else ""
        reasons = reasons or _("bookings changed meanwhile.")
        self.message_user(request, _("Nothing was saved: %(reasons)s") % {"reasons": reasons}, messages.ERROR)

    def _message_applied(self, request, prop, plan, change_set):
        """Tell staff what an applied plan changed and queued for the hub, with a link to its undo."""
        cells = len(plan.changed)
        message = _("%(cells)s changed; %(updates)s queued.") % {
            "cells": ngettext("%(count)s cell", "%(count)s cells", cells) % {"count": cells},
            "updates": hub_updates_label(len(plan.hub_requests)),
        }
        if change_set is not None:
            url = reverse("admin:integration_property_ari_change", args=[prop.pk, change_set.pk])
            message = format_html('{} <a href="{}">{}</a>', message, url, _("See or undo this change"))
        self.message_user(request, message, messages.SUCCESS)

    def _bulk_preview(self, request, edit, plan, *, digest, blocked, rate_plans):
        """What the bulk edit's preview shows (plan_preview), with the rows chosen that the operation
        leaves as they are."""
        availability = edit.operation == Operation.SET_AVAILABILITY
        ignored = 0
        if edit.operation != Operation.CLEAR_CHANNEL:
            ignored = len(edit.rate_plans) if availability else len(edit.room_types)
        return {
            **plan_preview(request, plan, rate_plans=rate_plans, channel=edit.channel),
            "ignored": ignored,
            "availability": availability,
            "digest": f"{digest}:{plan.fingerprint()}",
            "blocked": blocked,
        }
