"""The CSV screens of a property's rates and availability: the export of a date range, and the import:
the upload, then the import's page, which follows its check (a job) and then offers to apply the rows
that change without the rows with errors, lists the errors 100 a page and gives them as a file. A part
of the property's admin (integration.ari.admin)."""

from django.contrib import messages
from django.core.paginator import Paginator
from django.http import HttpResponseNotAllowed, JsonResponse, StreamingHttpResponse
from django.shortcuts import get_object_or_404, redirect
from django.template.response import TemplateResponse
from django.urls import reverse
from django.utils.translation import get_language, ngettext
from django.utils.translation import gettext as _

from .admin_pages import AriPageViews
from .csv_export import ari_csv_export, ari_import_error_file
from .csv_parse import ARI_CSV_COLUMNS
from .dates import korea_today, month_end
from .forms import AriExportForm, AriImportForm
from .models import AriImport, AriImportStatus
from .selectors.history import ari_import_lines
from .services.imports import ari_import_apply_start, ari_import_start

#: Lines listed per page of an import (errors, or changes).
LINES_PER_PAGE = 100
#: Imports listed on the upload page.
RECENT_IMPORTS = 10


def _month_range():
    """This month's days from today (Korea time): what an export offers first."""
    today = korea_today()
    return {"date_from": today, "date_to": month_end(today.replace(day=1))}


class AriCsvViews(AriPageViews):
    """The CSV export and import views, mixed into the property admin."""

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
        """GET: the upload form and the property's recent imports. POST a file: the file is recorded and
        its check queued; on to the import's page, which follows it."""
        prop = self.page_property(request, object_id, edit=True)
        form = AriImportForm(*((request.POST, request.FILES) if request.method == "POST" else ()))
        if form.is_bound and form.is_valid():
            ari_import = ari_import_start(
                property=prop,
                user=request.user,
                file_name=request.FILES["file"].name,
                text=form.cleaned_data["file"],
                language=get_language(),
            )
            return redirect("admin:integration_property_ari_import_page", prop.pk, ari_import.pk)
        context = self._context(
            request,
            prop,
            _("Import rates and availability: %(property)s") % {"property": prop.name},
            import_form=form,
            export_form=AriExportForm(initial=_month_range()),
            imports=AriImport.objects.filter(property=prop).select_related("user")[:RECENT_IMPORTS],
        )
        return TemplateResponse(request, "admin/integration/property/ari_csv.html", context)

    def _ari_import(self, request, object_id, import_id):
        prop = self.page_property(request, object_id, edit=True)
        return prop, get_object_or_404(
            AriImport.objects.select_related("user", "change_set"), pk=import_id, property=prop
        )

    def calendar_import_page_view(self, request, object_id, import_id):
        """An import: its progress while a job works on it; once checked, the counts, the apply of the
        rows that change without the rows with errors, and the errors (or, ?lines=changes, the changes)
        100 a page (?page=)."""
        prop, ari_import = self._ari_import(request, object_id, import_id)
        show_errors = request.GET.get("lines") != "changes" and ari_import.error_count > 0
        page = None
        if ari_import.status in (AriImportStatus.CHECKED, AriImportStatus.APPLIED):
            page = Paginator(ari_import_lines(ari_import, errors=show_errors), LINES_PER_PAGE).get_page(
                request.GET.get("page")
            )
        context = self._context(
            request,
            prop,
            _("Import of %(file)s: %(property)s") % {"file": ari_import.file_name, "property": prop.name},
            ari_import=ari_import,
            progress=_progress(ari_import),
            page=page,
            show_errors=show_errors,
            columns=ARI_CSV_COLUMNS,
            apply_label=_apply_label(ari_import),
            # Counts as people read them (165,256, not 165256).
            shown={
                name: f"{getattr(ari_import, name):,}" for name in ("change_count", "unchanged_count", "error_count")
            },
            import_url=reverse("admin:integration_property_ari_import", args=[prop.pk]),
            change_url=reverse("admin:integration_property_ari_change", args=[prop.pk, ari_import.change_set_id])
            if ari_import.change_set_id
            else None,
        )
        return TemplateResponse(request, "admin/integration/property/ari_import.html", context)

    def calendar_import_progress_view(self, request, object_id, import_id):
        """The import's progress as JSON, which its page polls while a job works on it."""
        _prop, ari_import = self._ari_import(request, object_id, import_id)
        return JsonResponse(_progress(ari_import))

    def calendar_import_apply_view(self, request, object_id, import_id):
        """POST: queue the apply of the rows that change, without the rows with errors."""
        if request.method != "POST":
            return HttpResponseNotAllowed(["POST"])
        prop, ari_import = self._ari_import(request, object_id, import_id)
        if not ari_import_apply_start(ari_import=ari_import):
            self.message_user(request, _("This import cannot be applied now: see where it stands."), messages.WARNING)
        return redirect("admin:integration_property_ari_import_page", prop.pk, ari_import.pk)

    def calendar_import_errors_view(self, request, object_id, import_id):
        """The lines with errors as a CSV file: correct them and upload the file again."""
        _prop, ari_import = self._ari_import(request, object_id, import_id)
        response = StreamingHttpResponse(ari_import_error_file(ari_import), content_type="text/csv; charset=utf-8")
        name = ari_import.file_name.removesuffix(".csv").replace('"', "")
        response["Content-Disposition"] = f'attachment; filename="{name}-errors.csv"'
        return response


def _progress(ari_import):
    """What the import's page shows of a running job, and polls."""
    percent = ari_import.permille // 10
    if ari_import.status == AriImportStatus.QUEUED:
        text = _("Waiting for a worker to check the file…")
    elif ari_import.status == AriImportStatus.CHECKING and ari_import.rows:
        text = ngettext(
            "Checking %(rows)s row: %(percent)s %%", "Checking %(rows)s rows: %(percent)s %%", ari_import.rows
        ) % {"rows": f"{ari_import.rows:,}", "percent": percent}
    elif ari_import.status == AriImportStatus.CHECKING:
        text = _("Reading the file: %(percent)s %%") % {"percent": percent}
    elif ari_import.status == AriImportStatus.APPLYING:
        text = ngettext("Applying %(count)s row…", "Applying %(count)s rows…", ari_import.change_count) % {
            "count": f"{ari_import.change_count:,}"
        }
    else:
        text = ari_import.get_status_display()
    return {
        "status": ari_import.status,
        "running": ari_import.is_running(),
        "percent": percent,
        "text": text,
    }


def _apply_label(ari_import):
    count = {"count": f"{ari_import.change_count:,}"}
    if ari_import.error_count:
        return (
            ngettext(
                "Apply the %(count)s row that changes, without the rows with errors",
                "Apply the %(count)s rows that change, without the rows with errors",
                ari_import.change_count,
            )
            % count
        )
    return (
        ngettext(
            "Apply the %(count)s row that changes", "Apply the %(count)s rows that change", ari_import.change_count
        )
        % count
    )
