"""The license requests screen: managers of a property upload permits and business registrations, follow
the hub's review, resubmit rejected requests and download the files. Staff never see it.

The screen's read-only fields are in admin_display, its download and refresh views and actions in
admin_views."""

from typing import Any, cast

from django.contrib import admin, messages
from django.contrib.admin.utils import unquote
from django.core.exceptions import PermissionDenied
from django.shortcuts import redirect
from django.template.response import TemplateResponse
from django.urls import reverse
from django.utils.functional import Promise
from django.utils.html import format_html, format_html_join
from django.utils.translation import gettext_lazy as _

from core.admin.mixins import SaveRefusalAdmin
from integration.access.admin_mixins import PropertyScopedAdmin
from integration.access.choices import MembershipRole
from integration.models import ResourceKind
from integration.sync.admin import sync_badge
from integration.sync.choices import SyncStatus
from integration.sync.selectors import with_sync_state

from . import selectors, services
from .admin_display import LicenseRequestDisplay, review_badge
from .admin_views import LicenseRequestViews
from .choices import LicenseType, ReviewStatus
from .forms import FORMS, LicenseRequestForm
from .models import CORPORATION_FIELDS, PERMIT_FIELDS, LicenseRequest


class ReviewStatusFilter(admin.SimpleListFilter):
    """Where requests stand: under review, confirmed, rejected, not yet at the hub, or failed to send."""

    title = _("status")
    parameter_name = "status"
    UNSENT = "unsent"
    FAILED = "failed"

    def lookups(self, request, model_admin):
        return [
            *ReviewStatus.choices,
            (self.UNSENT, _("Not at the hub yet")),
            (self.FAILED, _("Submission failed")),
        ]

    def queryset(self, request, queryset):
        value = self.value()
        if value in ReviewStatus.values:
            return queryset.filter(status=value)
        if value == self.UNSENT:
            return queryset.filter(hub_id__isnull=True).exclude(sync_status=SyncStatus.FAILED)
        if value == self.FAILED:
            return queryset.filter(sync_status=SyncStatus.FAILED)
        return queryset


@admin.register(LicenseRequest)
class LicenseRequestAdmin(SaveRefusalAdmin, LicenseRequestDisplay, LicenseRequestViews, PropertyScopedAdmin):
    """License requests of the properties the user manages, newest first. A request is never edited once
    uploaded: a rejected one is resubmitted as a new request, a failed one is retried as it is. A file the
    storage cannot keep is an error on the upload form (SaveRefusalAdmin)."""

    scope_roles = (MembershipRole.MANAGER,)
    # Two-line cells (the license over its document), so that the list, status and time included, fits a
    # 1366 px screen beside both sidebars.
    list_display = [
        "request_label",
        "property",
        "document",
        "number",
        "status_column",
        "created_at",
    ]
    list_filter = ["type", ReviewStatusFilter, "hub_environment", ("property", admin.RelatedOnlyFieldListFilter)]
    list_select_related = ["property"]
    search_fields = ["permit_number", "business_name", "owner_name"]
    ordering = ["-created_at", "-id"]
    actions = ["refresh_from_hub", "retry_failed"]
    change_list_template = "admin/licenses/licenserequest/change_list.html"
    change_form_template = "admin/licenses/licenserequest/change_form.html"

    class Media:
        css = {"all": ["licenses/licenses.css"]}

    # --- Lists ----------------------------------------------------------------------------------

    def get_queryset(self, request):
        return (
            with_sync_state(super().get_queryset(request), ResourceKind.LICENSE)
            # The list never shows the history or the comment: they stay in the database.
            .defer("history", "comment")
        )

    @admin.display(description=_("request"), ordering="hub_id")
    def request_label(self, obj):
        return f"#{obj.hub_id}" if obj.hub_id else _("new")

    @admin.display(description=_("license / document"), ordering="type")
    def document(self, obj):
        if obj.type == LicenseType.PERMIT:
            document = obj.get_permit_type_display()
        else:
            document = obj.business_name or obj.owner_name
        return format_html("{}<br><small>{}</small>", obj.get_type_display(), document)

    @admin.display(description=_("number"))
    def number(self, obj):
        return obj.document_number()

    @admin.display(description=_("status"), ordering="status")
    def status_column(self, obj):
        parts = [review_badge(obj.status)]
        if obj.sync_status != SyncStatus.SYNCED or not obj.status:
            label = _("Sending to the hub") if obj.sync_status == SyncStatus.PENDING else None
            parts.append(sync_badge(obj.sync_status, label))
        if obj.sync_status == SyncStatus.FAILED and obj.sync_error:
            parts.append(format_html('<span class="sync-error">{}</span>', obj.sync_error))
        return format_html_join(" ", "{}", ((part,) for part in parts if part))

    # --- Permissions: requests are uploaded, never edited ----------------------------------------

    def has_change_permission(self, request, obj=None):
        return False

    def has_delete_permission(self, request, obj=None):
        # Superusers only (cleaning up); the hub has no deletion, so managers do not delete either.
        return request.user.is_active and request.user.is_superuser

    def delete_model(self, request, obj):
        services.license_request_delete(license_request=obj)

    def delete_queryset(self, request, queryset):
        for obj in queryset:
            services.license_request_delete(license_request=obj)

    # --- The upload form ----------------------------------------------------------------------------

    def _resubmit_source(self, request):
        """The request a resubmission starts from (?resubmit=<pk>), if the user may see it and it may be
        resubmitted."""
        pk = request.GET.get("resubmit", "")
        if not pk.isdigit():
            return None
        source = self.get_queryset(request).filter(pk=pk).first()
        if source is None or not selectors.license_request_can_resubmit(source, source.sync_status):
            return None
        return source

    def _license_type(self, request):
        source = self._resubmit_source(request)
        if source is not None:
            return LicenseType(source.type)
        value = request.GET.get("type")
        return LicenseType(value) if value in LicenseType.values else None

    def add_view(self, request, form_url="", extra_context=None):
        if self._license_type(request) is None:
            if not self.has_add_permission(request):
                raise PermissionDenied
            context = {
                **self.admin_site.each_context(request),
                "opts": self.opts,
                "title": _("Upload a license"),
                "types": [
                    (value, label, f"{reverse('admin:licenses_licenserequest_add')}?type={value}")
                    for value, label in LicenseType.choices
                ],
            }
            return TemplateResponse(request, "admin/licenses/licenserequest/choose_type.html", context)
        source = self._resubmit_source(request)
        if source is not None:
            title = _("Resubmit: %(request)s") % {"request": source}
        else:
            title = _("Upload: %(license)s") % {"license": self._license_type(request).label}
        extra_context = {
            "title": title,
            "show_save_and_continue": False,
            "show_save_and_add_another": False,
            **(extra_context or {}),
        }
        return super().add_view(request, form_url, extra_context)

    def formfield_for_dbfield(self, db_field, request, **kwargs):
        formfield = super().formfield_for_dbfield(db_field, request, **kwargs)
        if db_field.name == "property" and formfield is not None:
            # Choosing a property here, not editing one: no add, change or view buttons beside it.
            widget = formfield.widget
            widget.can_add_related = widget.can_change_related = widget.can_view_related = False
            widget.can_delete_related = False
        return formfield

    def get_form(self, request, obj=None, change=False, **kwargs):
        if obj is None:
            form = FORMS[self._license_type(request)]
            source = self._resubmit_source(request)
            if source is not None:
                form = cast(type[LicenseRequestForm], type(form.__name__, (form,), {"resubmit_source": source}))
            kwargs["form"] = form
        return super().get_form(request, obj, change=change, **kwargs)

    def get_changeform_initial_data(self, request):
        source = self._resubmit_source(request)
        if source is not None:
            names = FORMS[LicenseType(source.type)].document_field_names
            return {"property": source.property_id, **{name: getattr(source, name) for name in names}}
        managed = self.scoped_properties(request)
        if managed.count() == 1:
            return {"property": managed.get().pk}
        return {}

    def get_fieldsets(self, request, obj=None):
        if obj is not None:
            return self._detail_fieldsets(obj)
        file_fields = ["file", "reuse_file", "comment"] if self._resubmit_source(request) else ["file", "comment"]
        document: list[tuple[str | Promise, dict[str, Any]]]
        if self._license_type(request) == LicenseType.PERMIT:
            document = [(_("Permit"), {"fields": list(PERMIT_FIELDS)})]
        else:
            document = [
                (
                    _("Business registration"),
                    {"fields": ["business_type", "business_number", "owner_name", "open_date"]},
                ),
                (
                    _("Corporation"),
                    {
                        "fields": list(CORPORATION_FIELDS),
                        "description": _("Required for a corporation, optional for a sole proprietor."),
                    },
                ),
            ]
        return [(None, {"fields": ["property"]}), *document, (_("File"), {"fields": file_fields})]

    def _detail_fieldsets(self, obj):
        if obj.type == LicenseType.PERMIT:
            document = list(PERMIT_FIELDS)
        else:
            document = ["business_type", "masked_business_number", "owner_name", "open_date", *CORPORATION_FIELDS]
        return [
            (None, {"fields": ["property", "type", "review", "hub_environment", "hub_sync", "related_requests"]}),
            (_("Document"), {"fields": document}),
            (_("File"), {"fields": ["file_link", "comment"]}),
            (_("Review history"), {"fields": ["timeline"]}),
            (_("Upload"), {"fields": ["uploaded_by", "created_at", "refreshed_at"]}),
        ]

    def get_readonly_fields(self, request, obj=None):
        if obj is None:
            return []
        return [name for _title, options in self._detail_fieldsets(obj) for name in options["fields"]]

    def save_model(self, request, obj, form, change):
        created = services.license_request_submit(
            property=form.cleaned_data["property"],
            type=form.license_type,
            fields=form.document_fields(),
            file=form.new_file(),
            user=request.user,
            resubmission_of=form.resubmit_source,
        )
        obj.pk = created.pk

    def response_add(self, request, obj, post_url_continue=None):
        # One message (Django's own "was added successfully" would be a second), and on to the request,
        # where its review appears.
        self.message_user(
            request,
            _("“%(request)s” is stored and is being sent to the hub; its review status appears here.")
            % {"request": obj},
            messages.SUCCESS,
        )
        return redirect("admin:licenses_licenserequest_change", obj.pk)

    # --- The detail page ------------------------------------------------------------------------

    def change_view(self, request, object_id, form_url="", extra_context=None):
        obj = self.get_object(request, unquote(object_id))
        extra_context = {**(extra_context or {})}
        if obj is not None and self.has_view_permission(request, obj):
            state = selectors.license_request_sync_state(obj)
            if self.has_add_permission(request) and selectors.license_request_can_resubmit(
                obj, state.status if state else None
            ):
                extra_context["resubmit_url"] = f"{reverse('admin:licenses_licenserequest_add')}?resubmit={obj.pk}"
            if obj.hub_id:
                extra_context["refresh_url"] = reverse("admin:licenses_licenserequest_refresh", args=[obj.pk])
        return super().change_view(request, object_id, form_url, extra_context)
