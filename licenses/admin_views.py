"""The license requests screen's own views and actions: the file download, and reading the hub's review
again. A part of the screen (licenses.admin)."""

from typing import TYPE_CHECKING

from django.contrib import admin, messages
from django.contrib.admin.utils import unquote
from django.core.exceptions import ValidationError
from django.http import FileResponse, Http404, HttpResponseNotAllowed
from django.shortcuts import redirect
from django.urls import path
from django.utils.translation import gettext_lazy as _
from django.utils.translation import ngettext

from . import services
from .choices import MEDIA_TYPES
from .files import license_file_name

if TYPE_CHECKING:
    # What the views use of the ModelAdmin they are mixed into (a real base would come before that
    # ModelAdmin in the composed admin's MRO).
    _ModelAdminBase = admin.ModelAdmin
else:
    _ModelAdminBase = object


class LicenseRequestViews(_ModelAdminBase):
    """The views and actions of LicenseRequestAdmin beyond the standard ones."""

    def get_urls(self):
        return [
            path(
                "<path:object_id>/file/",
                self.admin_site.admin_view(self.file_view),
                name="licenses_licenserequest_file",
            ),
            path(
                "<path:object_id>/refresh/",
                self.admin_site.admin_view(self.refresh_view),
                name="licenses_licenserequest_refresh",
            ),
            *super().get_urls(),
        ]

    def _viewable(self, request, object_id):
        # get_object is scoped to the properties the user manages: anything else is a 404.
        obj = self.get_object(request, unquote(object_id))
        if not self.has_view_permission(request, obj):
            raise Http404("No such license request among your properties.")
        return obj

    def file_view(self, request, object_id):
        """The request's file, as a download, for the property's managers only."""
        obj = self._viewable(request, object_id)
        if not obj.file:
            raise Http404("This request has no file.")
        try:
            handle = obj.file.open("rb")
        except FileNotFoundError:
            raise Http404("The file is missing from storage.") from None
        response = FileResponse(
            handle,
            as_attachment=True,
            filename=license_file_name(obj),
            content_type=MEDIA_TYPES.get(obj.file_format, "application/octet-stream"),
        )
        response["Cache-Control"] = "private, no-store"
        return response

    def refresh_view(self, request, object_id):
        """POST: queue a read of the hub's review of this request's property."""
        if request.method != "POST":
            return HttpResponseNotAllowed(["POST"])
        obj = self._viewable(request, object_id)
        try:
            services.license_requests_queue_refresh(property_ids=[obj.property_id])
        except ValidationError as error:
            self.message_user(request, " ".join(error.messages), messages.ERROR)
        else:
            self.message_user(request, _("Reading the review from the hub; reload this page in a moment."))
        return redirect("admin:licenses_licenserequest_change", obj.pk)

    # --- Actions ----------------------------------------------------------------------------------

    @admin.action(description=_("Refresh the review from the hub"), permissions=["view"])
    def refresh_from_hub(self, request, queryset):
        property_ids = queryset.filter(hub_id__isnull=False).values_list("property_id", flat=True)
        try:
            count = services.license_requests_queue_refresh(property_ids=list(property_ids))
        except ValidationError as error:
            self.message_user(request, " ".join(error.messages), messages.ERROR)
            return
        if count:
            self.message_user(request, _("Reading the review from the hub; reload this page in a moment."))
        else:
            self.message_user(request, _("None of these requests is at the hub yet."), messages.WARNING)

    @admin.action(description=_("Retry failed submissions"), permissions=["view"])
    def retry_failed(self, request, queryset):
        queued = services.license_requests_retry(license_requests=list(queryset))
        self.message_user(
            request,
            ngettext("%(count)d request queued for the hub.", "%(count)d requests queued for the hub.", queued)
            % {"count": queued},
            messages.SUCCESS if queued else messages.WARNING,
        )
