"""The screens of periods of a property's rates and availability: the copy of a period onto another (its
form, the preview of every cell it changes and of the hub updates, then the apply as one change), and the
named seasons a bulk edit can target. A part of the property's admin (integration.ari.admin)."""

import secrets

from django.contrib import messages
from django.core.exceptions import ValidationError
from django.db import IntegrityError
from django.shortcuts import get_object_or_404, redirect
from django.template.response import TemplateResponse
from django.urls import reverse
from django.utils.translation import gettext as _

from .admin_bulk import AriBulkEditViews, plan_preview
from .forms import AriCopyForm, AriSeasonForm
from .models import AriSeason
from .services.copy import ari_copy_apply, ari_copy_plan
from .services.edits import AriStale
from .services.seasons import ari_season_save
from .templatetags import ari_dates


class AriPeriodViews(AriBulkEditViews):
    """The copy of a period and the seasons, mixed into the property admin."""

    def calendar_copy_view(self, request, object_id):
        """GET: the copy form. POST "preview": the cells and hub updates the copy would change. POST
        "apply" (of an unchanged, previewed form): the copy as one change, then the grid on its days."""
        prop = self.page_property(request, object_id, edit=True)
        form = AriCopyForm(request.POST if request.method == "POST" else None, property=prop)
        preview = None
        if form.is_bound and form.is_valid():
            copy = form.cleaned_data["copy"]
            plan = ari_copy_plan(copy)
            blocked = self._bulk_errors(form, plan)
            digest = form.digest()
            if "apply" in request.POST and not blocked:
                posted, _sep, cells = request.POST.get("digest", "").partition(":")
                if secrets.compare_digest(posted, digest):
                    response, plan = self._copy_apply(request, prop, copy, expected=cells)
                    if response is not None:
                        return response
                    blocked = self._bulk_errors(form, plan)
                else:
                    self.message_user(
                        request,
                        _("The choices changed since the preview: check this preview, then apply."),
                        messages.WARNING,
                    )
            preview = {
                **plan_preview(request, plan, rate_plans=form.rate_plans),
                "source": ari_dates(copy.source.start, copy.source.end),
                "target": ari_dates(copy.target.start, copy.target.end),
                "weeks": copy.shift.days // 7,
                "missing": plan.missing,
                "digest": f"{digest}:{plan.fingerprint()}",
                "blocked": blocked,
            }
        context = self._context(
            request,
            prop,
            _("Copy a period: %(property)s") % {"property": prop.name},
            form=form,
            preview=preview,
            media=self.media + form.media,
        )
        return TemplateResponse(request, "admin/integration/property/ari_copy.html", context)

    def _copy_apply(self, request, prop, copy, *, expected):
        """Apply the copy if its cells still hold what the preview showed, and show the grid on its days.
        Else (None, the plan as it is now) with a message: the preview is shown again, nothing saved."""
        try:
            plan, change_set = ari_copy_apply(prop=prop, copy=copy, user=request.user, expected=expected)
        except (AriStale, ValidationError, IntegrityError) as error:
            self._message_not_saved(request, error)
            return None, error.plan if isinstance(error, AriStale) else ari_copy_plan(copy)
        self._message_applied(request, prop, plan, change_set)
        return redirect(self._calendar_url(prop, start=copy.target.start)), plan

    def calendar_seasons_view(self, request, object_id):
        """GET: the property's seasons and the form of a new one (?season=<id>: of that one). POST: save
        the form, or "delete" a season."""
        prop = self.page_property(request, object_id, edit=True)
        seasons = AriSeason.objects.filter(property=prop).prefetch_related("ranges")
        url = reverse("admin:integration_property_ari_seasons", args=[prop.pk])
        if request.method == "POST" and "delete" in request.POST:
            season = get_object_or_404(seasons, pk=request.POST["delete"])
            season.delete()
            self.message_user(request, _("The season “%(name)s” was deleted.") % {"name": season.name})
            return redirect(url)
        instance = AriSeason(property=prop)
        wanted = request.POST.get("season") or request.GET.get("season")
        if wanted:
            instance = get_object_or_404(seasons, pk=wanted) if wanted.isdigit() else instance
        form = AriSeasonForm(request.POST if request.method == "POST" else None, instance=instance, property=prop)
        if form.is_bound and form.is_valid():
            try:
                season = ari_season_save(form.save(commit=False), form.cleaned_data["ranges"])
            except IntegrityError:
                form.add_error("name", _("The property has a season of this name already."))
            else:
                self.message_user(request, _("The season “%(name)s” was saved.") % {"name": season.name})
                return redirect(url)
        context = self._context(
            request,
            prop,
            _("Seasons: %(property)s") % {"property": prop.name},
            form=form,
            seasons=[(season, [ari_dates(r.date_from, r.date_to) for r in season.ranges.all()]) for season in seasons],
            editing=instance,
        )
        return TemplateResponse(request, "admin/integration/property/ari_seasons.html", context)
