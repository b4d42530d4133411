"""Admin screens of content: properties, room types, rate plan models and rate plans, with their
translations, photos and standing with the hub."""

from django.contrib import admin, messages
from django.core.exceptions import PermissionDenied, ValidationError
from django.forms.models import BaseInlineFormSet
from django.urls import reverse
from django.utils import timezone
from django.utils.html import format_html
from django.utils.text import capfirst
from django.utils.translation import gettext_lazy as _
from django.utils.translation import ngettext

from core.admin.audit import AuditedAdminMixin
from core.admin.mixins import PlainActionCheckboxMixin

from ..access.admin_mixins import PropertyScopedAdmin, PropertyScopedAdminMixin
from ..hub.payloads import HUB_KEEPS
from ..sync.admin import sync_badge, sync_state_badge
from ..sync.choices import SyncStatus
from ..sync.models import ResourceKind, SyncState
from ..sync.resources import KIND_OF_MODEL
from ..sync.selectors import with_sync_state
from ..sync.services.outbox import sync_request
from . import services
from .choices import Locale
from .forms import RatePlanModelForm, SalesChannelsField, catalog_formfield
from .models import (
    PropertyPhoto,
    PropertyTranslation,
    RatePlan,
    RatePlanModel,
    RatePlanModelTranslation,
    RoomType,
    RoomTypePhoto,
    RoomTypeTranslation,
)
from .names import NAME_PREFETCHES, display_name


class TranslationFormSet(BaseInlineFormSet):
    """Translations: one per locale, and a Korean one with a name is required."""

    def clean(self):
        super().clean()
        korean = [
            form
            for form in self.forms
            if form.cleaned_data
            and not form.cleaned_data.get("DELETE")
            and form.cleaned_data.get("locale") == Locale.KO_KR
            and form.cleaned_data.get("name")
        ]
        if not korean:
            raise ValidationError(_("Give at least the Korean (ko-KR) name; the hub requires it."))


class TranslationInline(PropertyScopedAdminMixin, admin.StackedInline):
    """Translations in all seven locales: a form for each locale not yet written, Korean first."""

    formset = TranslationFormSet
    property_path = "property"
    min_num = 0

    def initial(self, obj):
        """The extra forms' initial data: one missing locale each."""
        return [{"locale": locale} for locale in self._missing_locales(obj)]

    def get_extra(self, request, obj=None, **kwargs):
        return len(self._missing_locales(obj))

    def _missing_locales(self, obj):
        present = set(obj.translations.values_list("locale", flat=True)) if obj and obj.pk else set()
        return [locale for locale in Locale.values if locale not in present]


class PhotoInline(PropertyScopedAdminMixin, admin.TabularInline):
    """Photos in display order, each with a thumbnail."""

    fields = ["thumbnail", "url", "description", "order"]
    readonly_fields = ["thumbnail"]
    extra = 1

    @admin.display(description=_("preview"))
    def thumbnail(self, photo):
        if not photo.url:
            return "—"
        return format_html('<img src="{}" alt="" class="photo-thumbnail" loading="lazy">', photo.url)


class PropertyTranslationInline(TranslationInline):
    model = PropertyTranslation
    property_path = "property"
    fields = [
        "locale",
        "name",
        "description",
        ("address", "address_detail"),
        "notice",
        "reservation_description",
        "refunds_description",
    ]


class PropertyPhotoInline(PhotoInline):
    model = PropertyPhoto
    property_path = "property"


class RoomTypeTranslationInline(TranslationInline):
    model = RoomTypeTranslation
    property_path = "room_type__property"
    fields = ["locale", "name", "description"]


class RoomTypePhotoInline(PhotoInline):
    model = RoomTypePhoto
    property_path = "room_type__property"


class RatePlanModelTranslationInline(TranslationInline):
    model = RatePlanModelTranslation
    property_path = "model__property"
    fields = ["locale", "name", "description"]


class HubContentAdmin(PlainActionCheckboxMixin, AuditedAdminMixin, PropertyScopedAdmin):
    """A property-owned resource that is synced to the hub: shows its sync state, offers "send now"
    and "retry", and marks it for the hub whenever it is saved."""

    actions = ["send_now", "retry_failed"]

    def get_queryset(self, request):
        queryset = with_sync_state(super().get_queryset(request), KIND_OF_MODEL[self.model])
        return queryset.prefetch_related(*NAME_PREFETCHES.get(self.model, ()))

    def get_list_display(self, request):
        # Names in the active language, by the one rule of integration.content.names.
        return ["display_name_column" if name == "name" else name for name in super().get_list_display(request)]

    @admin.display(description=_("name"), ordering="name")
    def display_name_column(self, obj):
        return display_name(obj)

    def get_readonly_fields(self, request, obj=None):
        readonly = [*super().get_readonly_fields(request, obj), "hub_sync", "hub_keeps"]
        if obj is not None:
            # The hub knows the resource by its vendor id: chosen once, on creation.
            readonly.append("vendor_id")
        return readonly

    def formfield_for_dbfield(self, db_field, request, **kwargs):
        # Tag lists pick from the hub's code catalog; the refund policy has its own editor.
        field = catalog_formfield(db_field) or super().formfield_for_dbfield(db_field, request, **kwargs)
        if db_field.name == "vendor_id" and field is not None:
            # The length is checked on save, with a message that counts: a maxlength attribute would have
            # the browser cut a pasted longer id without a word (and send the hub another id than meant).
            field.widget.attrs.pop("maxlength", None)
        return field

    def get_formset_kwargs(self, request, obj, inline, prefix):
        kwargs = super().get_formset_kwargs(request, obj, inline, prefix)
        if isinstance(inline, TranslationInline):
            kwargs["initial"] = inline.initial(obj)
        return kwargs

    def save_related(self, request, form, formsets, change):
        super().save_related(request, form, formsets, change)
        services.content_saved(obj=form.instance, created=not change, user=request.user)

    @admin.display(description=_("hub"), ordering="sync_status")
    def sync_column(self, obj):
        badge = sync_badge(obj.sync_status)
        if obj.sync_status == SyncStatus.FAILED and obj.sync_error:
            return format_html('{} <span class="sync-error">{}</span>', badge, obj.sync_error)
        return badge

    @admin.display(description=_("hub sync"))
    def hub_sync(self, obj):
        state = SyncState.objects.filter(kind=KIND_OF_MODEL[self.model], object_id=obj.pk).first() if obj.pk else None
        if state is None:
            return format_html("{} {}", sync_badge(None), _("Sent to the hub when you save."))
        log_url = reverse("admin:integration_syncattempt_changelist") + f"?state__id__exact={state.pk}"
        synced = timezone.localtime(state.last_synced_at).strftime("%Y-%m-%d %H:%M:%S") if state.last_synced_at else "—"
        return format_html(
            '{} <span class="sync-meta">{}: {}</span>{}<br><a href="{}">{}</a>',
            sync_state_badge(state),
            _("last synced"),
            synced,
            format_html('<div class="sync-error">{}</div>', state.last_error) if state.last_error else "",
            log_url,
            _("Sync log"),
        )

    @admin.display(description=_("kept by the hub"))
    def hub_keeps(self, obj):
        """The fields the hub cannot clear (decision 0004), named on the screen."""
        kept = HUB_KEEPS.get(ResourceKind(KIND_OF_MODEL[self.model]), ())
        names = [str(self.model._meta.get_field(name).verbose_name) for name in kept]
        return _(
            "The hub cannot clear %(fields)s: emptied here after they were sent, they keep their last value at the hub."
        ) % {"fields": ", ".join(names)}

    @admin.action(description=_("Send to the hub now"))
    def send_now(self, request, queryset):
        self._request_sync(request, queryset, retry_failed=False)

    @admin.action(description=_("Retry failed sends"))
    def retry_failed(self, request, queryset):
        self._request_sync(request, queryset, retry_failed=True)

    def _request_sync(self, request, queryset, *, retry_failed):
        states = SyncState.objects.filter(kind=KIND_OF_MODEL[self.model], object_id__in=queryset.values("pk"))
        queued = sync_request(list(states), retry_failed=retry_failed)
        self.message_user(
            request,
            ngettext("%(count)d item queued for the hub.", "%(count)d items queued for the hub.", queued)
            % {"count": queued},
            messages.SUCCESS if queued else messages.WARNING,
        )


class PropertyAdmin(HubContentAdmin):
    """Properties; staff and managers see only their own. Registered by going live (golive.admin), which
    composes it with the screens the other areas hang below a property."""

    property_path = ""
    list_display = ["name", "vendor_id", "status", "sync_column", "updated_at"]
    list_filter = ["status"]
    search_fields = ["name", "vendor_id"]
    # A page of a thousand properties reads its rows in the name's index (property_name) and counts them
    # once: not a second time for the "show all" of a filtered list.
    show_full_result_count = False
    inlines = [PropertyTranslationInline, PropertyPhotoInline]
    fieldsets = [
        (None, {"fields": ["vendor_id", "name", "status", "hub_sync", "hub_keeps"]}),
        (_("Contact"), {"fields": ["email", "phone", "sms_phone", "website"]}),
        (_("Stay"), {"fields": [("checkin", "checkout"), "extra_adult_price", "refunds"]}),
        (
            _("Tags"),
            {"fields": ["classifications", "property_tags", "facility_tags", "service_tags", "attraction_tags"]},
        ),
    ]

    # --- Pages below a property (/admin/integration/property/<id>/...): shared by the areas' screens ---

    def page_property(self, request, object_id, *, edit=False):
        """The property of the URL among the user's (else 404), if they may view it (or edit it)."""
        prop = self.get_object(request, object_id)
        if not self.has_view_or_change_permission(request, prop):
            raise PermissionDenied
        if edit and not self.has_change_permission(request, prop):
            raise PermissionDenied
        return prop

    def page_context(self, request, prop, title, **context):
        """The template context of a page below the property: the admin's own, the property, the title."""
        return {
            **self.admin_site.each_context(request),
            "opts": self.opts,
            "original": prop,
            "property": prop,
            "title": title,
            **context,
        }


@admin.register(RoomType)
class RoomTypeAdmin(HubContentAdmin):
    """Room types of the user's properties."""

    list_display = ["name", "vendor_id", "property", "status", "sync_column"]
    list_filter = ["status", ("property", admin.RelatedOnlyFieldListFilter)]
    list_select_related = ["property"]
    search_fields = ["name", "vendor_id", "property__name"]
    inlines = [RoomTypeTranslationInline, RoomTypePhotoInline]
    fieldsets = [
        (None, {"fields": ["property", "vendor_id", "name", "status", "room_count", "hub_sync", "hub_keeps"]}),
        (
            _("Stay and occupancy"),
            {"fields": [("min_stay", "max_stay"), ("standard_capacity", "max_capacity"), "size"]},
        ),
        (_("Beds and rooms"), {"fields": [("single_beds", "double_beds", "bunk_beds"), "details"]}),
        (_("Tags"), {"fields": ["roomtype_tags", "amenity_tags", "view_tags"]}),
    ]


@admin.register(RatePlanModel)
class RatePlanModelAdmin(HubContentAdmin):
    """Rate plan models: one standalone per property, any number of packages; its channels are ticked among
    those open for the property."""

    def formfield_for_dbfield(self, db_field, request, **kwargs):
        if db_field.name == "channels":
            return SalesChannelsField(label=capfirst(db_field.verbose_name), help_text=db_field.help_text)
        return super().formfield_for_dbfield(db_field, request, **kwargs)

    list_display = ["name", "vendor_id", "property", "type", "refundable", "sync_column"]
    list_filter = ["type", "refundable", ("property", admin.RelatedOnlyFieldListFilter)]
    list_select_related = ["property"]
    search_fields = ["name", "vendor_id", "property__name"]
    inlines = [RatePlanModelTranslationInline]
    form = RatePlanModelForm
    fieldsets = [
        (None, {"fields": ["property", "vendor_id", "name", "type", "hub_sync"]}),
        (_("Sale"), {"fields": [("sale_from", "sale_to"), ("min_los", "max_los"), "refundable", "channels"]}),
        (_("Meals"), {"fields": [("breakfast", "lunch", "dinner")]}),
    ]


@admin.register(RatePlan)
class RatePlanAdmin(HubContentAdmin):
    """Rate plans: a room type sold under a rate plan model."""

    list_display = ["vendor_id", "room_type_name", "model_name", "plan_type", "status", "sync_column"]
    list_filter = ["status", "model__type", ("property", admin.RelatedOnlyFieldListFilter)]
    list_select_related = ["room_type", "model", "property"]
    search_fields = ["vendor_id", "room_type__name", "model__name"]
    fields = ["room_type", "model", "vendor_id", "status", "hub_sync"]

    def get_readonly_fields(self, request, obj=None):
        # The hub patches a rate plan's status only: its room type and model are fixed once created.
        readonly = super().get_readonly_fields(request, obj)
        return [*readonly, "room_type", "model"] if obj else readonly

    @admin.display(description=_("room type"), ordering="room_type__name")
    def room_type_name(self, rate_plan):
        return display_name(rate_plan.room_type)

    @admin.display(description=_("rate plan model"), ordering="model__name")
    def model_name(self, rate_plan):
        return display_name(rate_plan.model)

    @admin.display(description=_("type"), ordering="model__type")
    def plan_type(self, rate_plan):
        return rate_plan.model.get_type_display()
