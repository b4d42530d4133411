"""The settlement screens, for managers only: ask for a reconciliation, follow its progress, read the report
(totals bar, per month, rows filtered and linked to their bookings) and export it as CSV."""

from django.contrib import admin, messages
from django.contrib.admin.utils import unquote
from django.core.exceptions import PermissionDenied, ValidationError
from django.core.paginator import Paginator
from django.http import Http404, JsonResponse, StreamingHttpResponse
from django.shortcuts import redirect
from django.template.response import TemplateResponse
from django.urls import path
from django.utils import translation
from django.utils.translation import gettext_lazy as _

from core.files.csv_files import CsvLines

from . import selectors, services
from .choices import Category, RunStatus
from .forms import ReconciliationForm
from .models import Reconciliation

ROWS_PER_PAGE = 100


@admin.register(Reconciliation)
class ReconciliationAdmin(admin.ModelAdmin):
    """Reconciliations of the properties the user manages; the change page is the report."""

    list_display = ["__str__", "property_names", "status", "progress", "created_at", "requested_by"]
    list_filter = ["status", "basis"]
    list_select_related = ["requested_by"]
    date_hierarchy = "created_at"
    change_form_template = "admin/settlement/reconciliation/report.html"

    def get_queryset(self, request):
        return selectors.reconciliations_for_user(request.user).prefetch_related("properties")

    def has_change_permission(self, request, obj=None):
        return False

    def has_delete_permission(self, request, obj=None):
        return False

    @admin.display(description=_("properties"))
    def property_names(self, reconciliation):
        return ", ".join(prop.name for prop in reconciliation.properties.all())

    @admin.display(description=_("progress"))
    def progress(self, reconciliation):
        if reconciliation.records_expected is None:
            return "—"
        return f"{reconciliation.records_seen:,} / {reconciliation.records_expected:,}"

    def get_urls(self):
        return [
            path(
                "<path:object_id>/progress/",
                self.admin_site.admin_view(self.progress_view),
                name="settlement_reconciliation_progress",
            ),
            path(
                "<path:object_id>/csv/", self.admin_site.admin_view(self.csv_view), name="settlement_reconciliation_csv"
            ),
            *super().get_urls(),
        ]

    def _readable(self, request, object_id):
        if not self.has_view_permission(request):
            raise PermissionDenied
        reconciliation = self.get_object(request, unquote(object_id))
        if reconciliation is None:
            raise Http404("No such reconciliation among your properties.")
        return reconciliation

    # --- Asking -----------------------------------------------------------------------------------

    def add_view(self, request, form_url="", extra_context=None):
        """The form that asks for a reconciliation; on success, the report page, which follows the run."""
        if not self.has_add_permission(request):
            raise PermissionDenied
        form = ReconciliationForm(request.POST or None, user=request.user)
        if request.method == "POST" and form.is_valid():
            try:
                reconciliation = services.reconciliation_request(
                    user=request.user,
                    properties=form.properties(),
                    basis=form.cleaned_data["basis"],
                    date_from=form.cleaned_data["date_from"],
                    date_to=form.cleaned_data["date_to"],
                )
            except ValidationError as error:
                form.add_error(None, error)
            else:
                self.message_user(request, _("The reconciliation has started."), messages.SUCCESS)
                return redirect("admin:settlement_reconciliation_change", reconciliation.pk)
        context = {
            **self.admin_site.each_context(request),
            "title": _("Run a settlement reconciliation"),
            "opts": self.opts,
            "form": form,
            "has_view_permission": True,
        }
        return TemplateResponse(request, "admin/settlement/reconciliation/run.html", context)

    # --- Reading ----------------------------------------------------------------------------------

    def change_view(self, request, object_id, form_url="", extra_context=None):
        """The report: progress while it runs, then totals, months and rows with filters."""
        reconciliation = self._readable(request, object_id)
        category = request.GET.get("category", "")
        category = category if category in Category.values else ""
        property_id = request.GET.get("property", "")
        property_id = int(property_id) if property_id.isdigit() else None
        number = request.GET.get("q", "")[:100]
        rows = selectors.reconciliation_rows(
            reconciliation, user=request.user, category=category, property_id=property_id, number=number
        )
        paginator = Paginator(rows, ROWS_PER_PAGE)
        if property_id is None and not number:
            known = selectors.known_row_count(reconciliation, category=category)
            if known is not None:
                paginator.count = known  # the run's totals: no COUNT over its rows
        page = paginator.get_page(request.GET.get("page"))
        query = request.GET.copy()
        query.pop("page", None)
        context = {
            **self.admin_site.each_context(request),
            "title": str(reconciliation),
            "subtitle": None,
            "opts": self.opts,
            "original": reconciliation,
            "reconciliation": reconciliation,
            "running": reconciliation.status in (RunStatus.QUEUED, RunStatus.RUNNING),
            "categories": selectors.category_totals(reconciliation),
            "category_choices": Category.choices,
            "months": selectors.monthly_totals(reconciliation),
            "properties": reconciliation.properties.order_by("name"),
            "filters": {"category": category, "property": property_id, "q": number},
            "page": page,
            "query": query.urlencode(),
            "has_view_permission": True,
        }
        return TemplateResponse(request, self.change_form_template, context)

    def progress_view(self, request, object_id):
        """The run's progress as JSON, which the report page polls while the run goes on."""
        reconciliation = self._readable(request, object_id)
        return JsonResponse(
            {
                "status": reconciliation.status,
                "status_label": str(reconciliation.get_status_display()),
                "seen": reconciliation.records_seen,
                "expected": reconciliation.records_expected,
            }
        )

    def csv_view(self, request, object_id):
        """The report's rows (with the page's filters) as CSV, UTF-8 with a BOM so that spreadsheet
        programs read Korean correctly; streamed, never held whole."""
        reconciliation = self._readable(request, object_id)
        category = request.GET.get("category", "")
        property_id = request.GET.get("property", "")
        rows = selectors.reconciliation_rows(
            reconciliation,
            user=request.user,
            category=category if category in Category.values else "",
            property_id=int(property_id) if property_id.isdigit() else None,
            number=request.GET.get("q", "")[:100],
        )
        writer = CsvLines()
        language = translation.get_language()

        def lines():
            # The server reads this after the view returned: keep the request's language for the labels.
            with translation.override(language):
                yield "\ufeff"
                yield writer.line(selectors.csv_header())
                for cells in selectors.csv_lines(rows):
                    yield writer.line(cells)

        response = StreamingHttpResponse(lines(), content_type="text/csv; charset=utf-8")
        name = f"settlement-{reconciliation.date_from}-{reconciliation.date_to}-{reconciliation.pk}.csv"
        response["Content-Disposition"] = f'attachment; filename="{name}"'
        return response
