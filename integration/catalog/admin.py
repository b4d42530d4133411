"""Admin screens of the code catalog: the fetched catalogs with a "Fetch catalog now" button, and the
code mapping table with its CSV import (preview, then apply). integration/admin.py imports this module."""

import secrets

from django.contrib import admin, messages
from django.contrib.admin.views.main import ChangeList
from django.core.exceptions import PermissionDenied
from django.http import HttpResponseNotAllowed, StreamingHttpResponse
from django.shortcuts import redirect
from django.template.response import TemplateResponse
from django.urls import path
from django.utils.html import format_html, format_html_join
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext

from core.admin.audit import AuditedAdminMixin

from ..hub.client import HubError
from .choices import CatalogGroup
from .forms import CodeMappingForm, CodeMappingImportForm
from .models import CatalogSnapshot, CodeMapping
from .selectors import Catalog, catalog_counts, catalog_read
from .services.catalog import catalog_refresh
from .services.mapping import (
    MappingImportAction,
    code_mappings_csv_export,
    code_mappings_import,
    code_mappings_read_csv,
)


def _count_column(group):
    """A changelist column with the number of codes of one group."""

    @admin.display(description=group.label)
    def column(snapshot):
        return catalog_counts(snapshot)[group]

    column.__name__ = f"count_{group}"
    return column


@admin.register(CatalogSnapshot)
class CatalogSnapshotAdmin(admin.ModelAdmin):
    """The catalogs fetched so far, newest first, read-only; anyone who may view them may fetch one now."""

    list_display = ["fetched_at", "environment", *(_count_column(group) for group in CatalogGroup)]
    list_per_page = 20  # each row's counts come from its catalog, so pages stay short
    readonly_fields = ("fetched_at", "environment", "codes")
    fields = readonly_fields

    def has_add_permission(self, request):
        return False

    def has_change_permission(self, request, obj=None):
        return False

    def get_urls(self):
        fetch = self.admin_site.admin_view(self.fetch_view)
        return [path("fetch/", fetch, name="integration_catalogsnapshot_fetch"), *super().get_urls()]

    def changelist_view(self, request, extra_context=None):
        return super().changelist_view(
            request, {"can_fetch": self.has_view_permission(request), **(extra_context or {})}
        )

    def fetch_view(self, request):
        """POST: fetch the catalog from the hub now; the outcome is an admin message on the list."""
        if request.method != "POST":
            return HttpResponseNotAllowed(["POST"])
        if not self.has_view_permission(request):
            raise PermissionDenied
        try:
            snapshot = catalog_refresh()
        except HubError as error:
            self.message_user(
                request,
                _("The code catalog could not be fetched: %(message)s") % {"message": error.message},
                messages.ERROR,
            )
        else:
            codes = sum(catalog_counts(snapshot).values())
            self.message_user(
                request,
                ngettext(
                    "Fetched the code catalog: %(count)d code.", "Fetched the code catalog: %(count)d codes.", codes
                )
                % {"count": codes},
                messages.SUCCESS,
            )
        return redirect("admin:integration_catalogsnapshot_changelist")

    @admin.display(description=gettext_lazy("codes"))
    def codes(self, snapshot):
        """Every code of every group with its label (the hub's names)."""
        catalog = Catalog(snapshot)
        sections = []
        for group in CatalogGroup:
            rows = format_html_join(
                "",
                "<tr><td><code>{}</code></td><td>{}</td></tr>",
                ((code, catalog.label(group, code)) for code in catalog.paths[group]),
            )
            sections.append(
                format_html(
                    '<h3>{}</h3><table class="vh-catalog-codes"><thead><tr><th>{}</th><th>{}</th></tr>'
                    "</thead><tbody>{}</tbody></table>",
                    group.label,
                    _("Code"),
                    _("Name"),
                    rows,
                )
            )
        return format_html_join("", "{}", ((section,) for section in sections))

    class Media:
        css = {"all": ["vendorhub/catalog_widgets.css"]}


class CodeMappingChangeList(ChangeList):
    """The code mapping list, each row given the hub code's label from one read of the catalog."""

    def get_results(self, request):
        super().get_results(request)
        catalog = catalog_read()
        for mapping in self.result_list:
            mapping.hub_label = catalog.label(mapping.group, mapping.hub_code) if catalog else None


#: Where a previewed file waits in the session for "Apply".
_IMPORT_SESSION_KEY = "integration.codemapping_import"


@admin.register(CodeMapping)
class CodeMappingAdmin(AuditedAdminMixin, admin.ModelAdmin):
    """Our codes and the hub codes they stand for; managers edit them one by one or import a CSV file."""

    form = CodeMappingForm
    list_display = ["vendor_code", "group", "hub_code", "hub_name", "note", "updated_at"]
    list_filter = ["group"]
    search_fields = ["vendor_code", "hub_code", "note"]

    def get_changelist(self, request, **kwargs):
        return CodeMappingChangeList

    @admin.display(description=gettext_lazy("hub name"))
    def hub_name(self, mapping):
        label = getattr(mapping, "hub_label", None)
        if label:
            return label
        return format_html('<span class="vh-tag-unknown">{}</span>', _("Not in the hub's catalog"))

    def has_import_permission(self, request):
        """Importing creates and changes mappings."""
        return self.has_add_permission(request) and self.has_change_permission(request)

    def get_urls(self):
        import_view = self.admin_site.admin_view(self.import_view)
        export_view = self.admin_site.admin_view(self.export_view)
        return [
            path("import/", import_view, name="integration_codemapping_import"),
            path("export/", export_view, name="integration_codemapping_export"),
            *super().get_urls(),
        ]

    def export_view(self, request):
        """The whole table as a CSV file in the import's format, to edit in a spreadsheet and import back."""
        if not self.has_view_permission(request):
            raise PermissionDenied
        response = StreamingHttpResponse(code_mappings_csv_export(), content_type="text/csv; charset=utf-8")
        response["Content-Disposition"] = 'attachment; filename="code-mappings.csv"'
        return response

    def changelist_view(self, request, extra_context=None):
        context = {"can_import": self.has_import_permission(request), **(extra_context or {})}
        return super().changelist_view(request, context)

    def import_view(self, request):
        """GET: the upload form. POST with a file: the preview. POST "apply": the import of the previewed file."""
        if not self.has_import_permission(request):
            raise PermissionDenied
        if request.method == "POST" and "apply" in request.POST:
            return self._apply(request)
        form = CodeMappingImportForm(*((request.POST, request.FILES) if request.method == "POST" else ()))
        if form.is_bound and form.is_valid():
            token = secrets.token_urlsafe(16)
            request.session[_IMPORT_SESSION_KEY] = {"token": token, "text": form.cleaned_data["file"]}
            plan = code_mappings_import(form.cleaned_data["rows"], apply=False)
            return self._render_import(request, CodeMappingImportForm(), plan=plan, token=token)
        return self._render_import(request, form)

    def _apply(self, request):
        pending = request.session.get(_IMPORT_SESSION_KEY) or {}
        if not pending or not secrets.compare_digest(pending["token"], request.POST.get("token", "")):
            self.message_user(request, _("That preview has expired: upload the file again."), messages.ERROR)
            return redirect("admin:integration_codemapping_import")
        # The text was read without error for the preview; the plan is made again against today's data.
        plan = code_mappings_import(code_mappings_read_csv(pending["text"]), apply=True, user=request.user)
        if not plan.applied:
            self.message_user(
                request,
                _("Nothing was imported: correct the rows marked as errors and upload the file again."),
                messages.ERROR,
            )
            return self._render_import(request, CodeMappingImportForm(), plan=plan, token=pending["token"])
        del request.session[_IMPORT_SESSION_KEY]
        counts = plan.counts
        self.message_user(
            request,
            _("Imported the code mappings: %(create)s created, %(update)s updated, %(unchanged)s unchanged.") % counts,
            messages.SUCCESS,
        )
        return redirect("admin:integration_codemapping_changelist")

    def _render_import(self, request, form, *, plan=None, token=None):
        context = {
            **self.admin_site.each_context(request),
            "opts": self.opts,
            "title": _("Import code mappings"),
            "form": form,
            "plan": plan,
            "token": token,
        }
        if plan is not None:
            context["summary"] = [
                (MappingImportAction(action).label, action, count) for action, count in plan.counts.items()
            ]
            context["error_count_text"] = ngettext(
                "%(count)s row has an error: nothing can be imported until the file is corrected.",
                "%(count)s rows have errors: nothing can be imported until the file is corrected.",
                plan.count(MappingImportAction.ERROR),
            ) % {"count": plan.count(MappingImportAction.ERROR)}
        return TemplateResponse(request, "admin/integration/codemapping/import.html", context)
