"""The prices per channel screen of a property: per open channel its rules, its commission (typed, measured,
in use) and the price, expected commission and expected net of each standalone plan; the forms of the
rounding rule, a channel's rule (with its preview and the price guard's refusals and confirmations), a
typed commission and a rate plan's guard; the history of rule changes with their undo. A part of the
property's admin (integration.ari.admin)."""

from django.contrib import messages
from django.core.exceptions import ValidationError
from django.http import Http404
from django.shortcuts import redirect
from django.template.response import TemplateResponse
from django.urls import path, reverse
from django.utils.formats import date_format
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from ..content.names import display_name
from .admin_pages import AriPageViews
from .dates import korea_today
from .forms_prices import CommissionForm, PriceGuardForm, PriceRuleForm, PricingSettingsForm
from .models_prices import PriceGuard, PriceMethod, PriceRuleChange
from .selectors.prices import channel_price_rows, pricing_settings
from .services.guard import move_percent
from .services.price_rules import (
    RuleStale,
    channel_commission_set,
    price_guard_save,
    price_rule_plan,
    price_rule_set,
    price_rule_undo,
    price_rule_undo_plan,
    pricing_settings_save,
)
from .templatetags import krw

#: The most price moves a preview lists (its counts cover all of them).
PREVIEW_MOVES = 60
#: The rule changes the screen lists.
HISTORY_ROWS = 30


def rule_label(method, value):
    """A rule as staff read it: "+10 %", "+5,000 KRW", "net target", or "common rate"."""
    if not method:
        return _("common rate")
    if method == PriceMethod.NET:
        return _("net target")
    if method == PriceMethod.PERCENT:
        return f"{value.normalize():+f} %"
    return f"{int(value):+,} KRW"


def _move_mark(move):
    """ "▲ 80 %": how far a price moves, for a row the guard asks to confirm."""
    return f"{'▲' if move.new > move.old else '▼'} {move_percent(move.old, move.new)} %"


def _moves_preview(plan, *, fingerprint):
    """What a preview of a rule change (or its undo) shows."""
    shown = [*plan.errors, *[move for move in plan.moves if not move.error]][:PREVIEW_MOVES]
    return {
        "moves": [
            {
                "date": move.date,
                "weekday": date_format(move.date, "D"),
                "plan": display_name(move.rate_plan),
                "old": krw(move.old),
                "new": krw(move.new),
                "error": move.error,
                # The field says what to confirm; each row shows only how far its price moves.
                "warning": _move_mark(move) if move.warning else "",
            }
            for move in shown
        ],
        "count": len(plan.moves),
        "error_count": len(plan.errors),
        "warning_count": len(plan.warnings),
        "hidden": len(plan.moves) - len(shown),
        "plans": len({move.rate_plan.pk for move in plan.moves}),
        "fingerprint": fingerprint,
    }


class AriPriceViews(AriPageViews):
    """The prices per channel views, mixed into the property admin."""

    def get_urls(self):
        def view(function):
            return self.admin_site.admin_view(function)

        return [
            path(
                "<path:object_id>/calendar/prices/",
                view(self.calendar_prices_view),
                name="integration_property_ari_prices",
            ),
            path(
                "<path:object_id>/calendar/prices/changes/<int:change_id>/undo/",
                view(self.calendar_price_undo_view),
                name="integration_property_ari_price_undo",
            ),
            *super().get_urls(),
        ]

    def calendar_prices_view(self, request, object_id):
        """GET: the screen. POST form=settings|rule|commission|guard: that form; a rule is previewed
        ("preview") before it is applied ("apply", of the previewed prices)."""
        prop = self.page_property(request, object_id, edit=request.method == "POST")
        settings = pricing_settings(prop)
        post = request.POST if request.method == "POST" else None
        which = request.POST.get("form") if post else None
        forms = {
            "settings": PricingSettingsForm(post if which == "settings" else None, instance=settings),
            "rule": PriceRuleForm(post if which == "rule" else None, property=prop),
            "commission": CommissionForm(post if which == "commission" else None, property=prop),
            "guard": PriceGuardForm(post if which == "guard" else None, property=prop),
        }
        preview = None
        if which in forms and forms[which].is_valid():
            if which == "rule":
                done, preview = self._rule_post(request, prop, forms["rule"])
            else:
                done = getattr(self, f"_{which}_save")(request, prop, forms[which])
            if done:
                return redirect(reverse("admin:integration_property_ari_prices", args=[prop.pk]))
        context = self._context(
            request,
            prop,
            _("Prices per channel: %(property)s") % {"property": prop.name},
            forms=forms,
            preview=preview,
            rows=[
                (
                    row,
                    [
                        (display_name(plan) if plan else _("All plans"), rule_label(rule.method, rule.value))
                        for plan, rule in row.rules
                    ],
                )
                for row in channel_price_rows(prop, first=korea_today())
            ],
            settings=settings,
            guards=PriceGuard.objects.filter(rate_plan__property=prop).select_related(
                "rate_plan__room_type", "rate_plan__model"
            ),
            history=self._history(prop),
            can_edit=self.has_change_permission(request, prop),
        )
        return TemplateResponse(request, "admin/integration/property/ari_prices.html", context)

    def _history(self, prop):
        changes = PriceRuleChange.objects.filter(property=prop).select_related(
            "channel", "rate_plan__room_type", "rate_plan__model", "user"
        )[:HISTORY_ROWS]
        return [
            {
                "change": change,
                "plan": display_name(change.rate_plan) if change.rate_plan else _("All standalone rate plans"),
                "old": rule_label(change.old_method, change.old_value),
                "new": rule_label(change.new_method, change.new_value),
                "undo_url": reverse("admin:integration_property_ari_price_undo", args=[prop.pk, change.pk]),
            }
            for change in changes
        ]

    def _rule_post(self, request, prop, form):
        """Preview the rule, or apply it when its preview still holds; (done, preview)."""
        data = form.cleaned_data
        rule = {"channel": data["channel"], "rate_plan": data["rate_plan"], "method": data["method"]}
        plan = price_rule_plan(prop=prop, **rule, value=data["value"])
        if "apply" in request.POST:
            try:
                change = price_rule_set(
                    prop=prop,
                    **rule,
                    value=data["value"],
                    user=request.user,
                    confirmed=data["confirm_prices"],
                    expected=request.POST.get("fingerprint", ""),
                )
            except RuleStale as stale:
                self.message_user(
                    request, _("The prices changed since your preview: check it again."), messages.WARNING
                )
                plan = stale.plan
            except ValidationError as error:
                self._rule_errors(form, error)
            else:
                moved = change.cell_count if change else 0
                self.message_user(
                    request,
                    ngettext(
                        "The rule is saved: %(count)s channel price changes; the hub gets it shortly.",
                        "The rule is saved: %(count)s channel prices change; the hub gets them shortly.",
                        moved,
                    )
                    % {"count": moved},
                    messages.SUCCESS,
                )
                return True, None
        elif plan.errors:
            form.add_error("value", plan.errors[0].error)
        elif plan.warnings and not data["confirm_prices"]:
            form.add_error("confirm_prices", plan.warnings[0].warning)
        form.asks_price_confirmation = bool(plan.warnings)
        return False, _moves_preview(plan, fingerprint=plan.fingerprint())

    @staticmethod
    def _rule_errors(form, error):
        for field, errors in error.error_dict.items() if hasattr(error, "error_dict") else [(None, error.error_list)]:
            for item in errors:
                target = "confirm_prices" if item.code == "confirm" else field
                form.add_error(target if target in form.fields else None, item.messages[0])

    def _settings_save(self, request, prop, form):
        moved = pricing_settings_save(settings=form.save(commit=False))
        self.message_user(request, self._saved_message(moved), messages.SUCCESS)
        return True

    def _commission_save(self, request, prop, form):
        moved = channel_commission_set(
            prop=prop, channel=form.cleaned_data["channel"], typed=form.cleaned_data["typed"]
        )
        self.message_user(request, self._saved_message(moved), messages.SUCCESS)
        return True

    def _guard_save(self, request, prop, form):
        data = form.cleaned_data
        price_guard_save(
            rate_plan=data["rate_plan"], floor=data["floor"], ceiling=data["ceiling"], max_move=data["max_move"]
        )
        self.message_user(request, _("The price guard is saved."), messages.SUCCESS)
        return True

    @staticmethod
    def _saved_message(moved):
        return ngettext(
            "Saved: %(count)s channel price changes; the hub gets it shortly.",
            "Saved: %(count)s channel prices change; the hub gets them shortly.",
            moved,
        ) % {"count": moved}

    def calendar_price_undo_view(self, request, object_id, change_id):
        """GET: what undoing a rule change would move. POST (of that preview): the undo, as a new change."""
        prop = self.page_property(request, object_id, edit=True)
        change = (
            PriceRuleChange.objects.filter(property=prop, pk=change_id)
            .select_related("channel", "rate_plan__model")
            .first()
        )
        if change is None:
            raise Http404("No such change of this property.")
        change.property = prop
        prices_url = reverse("admin:integration_property_ari_prices", args=[prop.pk])
        plan = price_rule_undo_plan(change)
        if request.method == "POST":
            try:
                price_rule_undo(change=change, user=request.user, expected=request.POST.get("fingerprint", ""))
            except RuleStale as stale:
                plan = stale.plan
                self.message_user(
                    request, _("The prices changed since your preview: check it again."), messages.WARNING
                )
            except ValidationError as error:
                self.message_user(request, " ".join(error.messages), messages.ERROR)
            else:
                self.message_user(request, _("The rule is back to what it was."), messages.SUCCESS)
                return redirect(prices_url)
        context = self._context(
            request,
            prop,
            _("Undo a price rule change: %(property)s") % {"property": prop.name},
            change=change,
            old=rule_label(change.new_method, change.new_value),
            new=rule_label(change.old_method, change.old_value),
            preview=_moves_preview(plan, fingerprint=plan.fingerprint()),
            prices_url=prices_url,
        )
        return TemplateResponse(request, "admin/integration/property/ari_price_undo.html", context)
