"""The CSV screens of a property's rates and availability: the export of a date range, and the import
with its dry run before the apply. A part of the property's admin (integration.ari.admin)."""

import secrets

from django.contrib import messages
from django.http import StreamingHttpResponse
from django.shortcuts import redirect
from django.template.response import TemplateResponse
from django.urls import reverse
from django.utils.html import format_html
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from .csv_export import ari_csv_export
from .csv_import import ari_csv_apply, ari_csv_plan
from .csv_parse import AriRowStatus, ari_csv_read
from .dates import korea_today
from .forms import AriExportForm, AriImportForm
from .grid import month_end

#: The most rows an import preview lists (errors first, then changes); the counts cover every row.
PREVIEW_ROWS = 2000


def _import_session_key(prop):
    return f"integration.ari_import.{prop.pk}"


def _month_range():
    """This month's days from today (Korea time): what an export offers first."""
    today = korea_today()
    return {"date_from": today, "date_to": month_end(today.replace(day=1))}


class AriCsvViews:
    """The CSV export and import views of PropertyAriAdmin."""

    def calendar_export_view(self, request, object_id):
        """GET ?date_from=&date_to=: the CSV file of the range, streamed; without a valid range, the form."""
        prop = self.page_property(request, object_id, edit=False)
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
        prop = self.page_property(request, object_id, edit=True)
        if request.method == "POST" and "apply" in request.POST:
            return self._import_apply(request, prop)
        form = AriImportForm(*((request.POST, request.FILES) if request.method == "POST" else ()))
        if form.is_bound and form.is_valid():
            token = secrets.token_urlsafe(16)
            plan = ari_csv_plan(prop, form.cleaned_data["rows"])
            request.session[_import_session_key(prop)] = {
                "token": token,
                "text": form.cleaned_data["file"],
                "name": request.FILES["file"].name,
                "fingerprint": plan.fingerprint(),
            }
            return self._render_import(request, prop, AriImportForm(), plan=plan, token=token)
        return self._render_import(request, prop, form)

    def _import_apply(self, request, prop):
        key = _import_session_key(prop)
        pending = request.session.get(key) or {}
        if not pending or not secrets.compare_digest(pending["token"], request.POST.get("token", "")):
            self.message_user(request, _("That preview has expired: upload the file again."), messages.ERROR)
            return redirect("admin:integration_property_ari_import", prop.pk)
        # The text was read without error for the preview; the plan is made again against today's data.
        plan = ari_csv_apply(
            prop,
            ari_csv_read(pending["text"]),
            user=request.user,
            file_name=pending.get("name", ""),
            expected=pending.get("fingerprint"),
        )
        if plan.stale:
            request.session[key] = {**pending, "fingerprint": plan.fingerprint()}
            self.message_user(
                request,
                _("Nothing was imported: these days changed since the preview. Check this new preview, then apply it."),
                messages.WARNING,
            )
            return self._render_import(request, prop, AriImportForm(), plan=plan, token=pending["token"])
        if not plan.applied:
            self.message_user(
                request,
                _("Nothing was imported: correct the rows marked as errors and upload the file again."),
                messages.ERROR,
            )
            return self._render_import(request, prop, AriImportForm(), plan=plan, token=pending["token"])
        del request.session[key]
        message = (
            _("Imported the rates and availability: %(change)s rows changed, %(unchanged)s unchanged.") % plan.counts
        )
        if plan.change_set is not None:
            url = reverse("admin:integration_property_ari_change", args=[prop.pk, plan.change_set.pk])
            message = format_html('{} <a href="{}">{}</a>', message, url, _("See or undo this change"))
        self.message_user(request, message, messages.SUCCESS)
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
