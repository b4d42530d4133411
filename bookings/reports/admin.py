"""The reports' screen: the daily figures' entry in the admin opens the report page (form, definitions,
chart, table), and the same address with format=csv gives the table as a CSV file."""

from django.contrib import admin
from django.http import StreamingHttpResponse
from django.template.response import TemplateResponse
from django.urls import path
from django.utils import translation
from django.utils.translation import gettext_lazy as _

from core.dates import korea_today
from core.files.csv_files import CsvLines

from .forms import ReportForm, ReportKind
from .models import DailyFigure
from .selectors import Report, report_of, report_properties


@admin.register(DailyFigure)
class ReportAdmin(admin.ModelAdmin):
    """The reports of the properties the user manages; nobody adds, edits or deletes a figure."""

    def get_urls(self):
        # The report page only: a figure has no page of its own (no change, history or delete).
        return [path("", self.admin_site.admin_view(self.changelist_view), name="reports_dailyfigure_changelist")]

    def has_add_permission(self, request):
        return False

    def has_change_permission(self, request, obj=None):
        return False

    def has_delete_permission(self, request, obj=None):
        return False

    def changelist_view(self, request, extra_context=None):
        """GET: the report the form asks for (this month's occupancy, ADR and RevPAR of every property the
        user manages when it asks nothing); format=csv: its table as a CSV file."""
        if not self.has_view_permission(request):
            return super().changelist_view(request, extra_context)
        properties = report_properties(request.user)
        form = ReportForm(request.GET, properties=properties)
        report = None
        if form.is_valid():
            data = form.cleaned_data
            scope = properties.filter(pk=data["property"].pk) if data["property"] else properties
            report = report_of(data["report"], scope, data["start"], data["end"], data["grouping"], today=korea_today())
            if request.GET.get("format") == "csv":
                return _csv(report, f"{data['report']}-{data['start']}-{data['end']}.csv")
        query = request.GET.copy()
        query["format"] = "csv"
        context = {
            **self.admin_site.each_context(request),
            "title": _("Reports"),
            "opts": self.model._meta,
            "form": form,
            "report": report,
            "kind": form.cleaned_data.get("report") if report else None,
            "kinds": ReportKind,
            "csv_query": query.urlencode(),
            "chart": report.chart() if report else None,
        }
        return TemplateResponse(request, "admin/reports/report.html", context)


def _csv(report: Report, name: str) -> StreamingHttpResponse:
    """The report's table and total as CSV, UTF-8 with a BOM (spreadsheet programs then read Korean),
    every text cell neutralised against formulas (core.files.csv_files)."""
    writer = CsvLines()
    language = translation.get_language()

    def lines():
        # The server reads this after the view returned: keep the request's language for the headings.
        with translation.override(language):
            yield "\ufeff"
            yield writer.line([str(column.label) for column in report.columns])
            for row in [*report.rows, *([report.total] if report.total else [])]:
                yield writer.line([row[column.key] for column in report.columns])

    response = StreamingHttpResponse(lines(), content_type="text/csv; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="{name}"'
    return response
