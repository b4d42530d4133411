"""The go-live checklist of a property: every item computed from what is there (never ticked by hand),
each with why it passes or fails and links to the admin screens where it is fixed.

The spec's start-up order (catalog, code mapping, staging, production) and its rules (exactly one
standalone rate plan model, Korean texts) decide the items; what "rates and availability pushed" and
"license confirmed" mean exactly is OURS (decision 0019) (docs/staff/owner.md, "Go live"): ARI_HORIZON_DAYS and
LICENSE_TYPES_REQUIRED.
"""

import builtins
import datetime
from dataclasses import dataclass, field

from django.conf import settings
from django.db import models
from django.db.models import Count, Q
from django.urls import reverse
from django.utils import timezone
from django.utils.formats import date_format
from django.utils.http import urlencode
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext

from core.dates import korea_today
from integration.ari.models import AriDirtyRange, RatePlanDay, RoomTypeDay
from integration.ari.services.horizon import horizon_last, hub_days_ahead
from integration.catalog.selectors import TAG_FIELD_GROUPS, hub_codes_read
from integration.content.choices import ContentStatus, Locale, RatePlanType
from integration.content.models import (
    Property,
    PropertyTranslation,
    RatePlan,
    RatePlanModel,
    RatePlanModelTranslation,
    RoomType,
    RoomTypeTranslation,
)
from integration.content.names import NAME_PREFETCHES, display_name
from integration.hub.selectors import hub_environment_active
from integration.sync.choices import SyncStatus
from integration.sync.models import ResourceKind, SyncState
from licenses.choices import LicenseType, ReviewStatus
from licenses.models import LicenseRequest

#: OURS (decision 0019): a property goes live with a confirmed request of each of these license types.
LICENSE_TYPES_REQUIRED = (LicenseType.PERMIT, LicenseType.BUSINESS)
#: At most this many objects are named (and linked) in one item's reason; the others are counted.
NAMED_MAX = 5

_CONTENT_KINDS: tuple[tuple[type[models.Model], str], ...] = (
    (Property, ResourceKind.PROPERTY),
    (RoomType, ResourceKind.ROOM_TYPE),
    (RatePlanModel, ResourceKind.RATE_PLAN_MODEL),
    (RatePlan, ResourceKind.RATE_PLAN),
)


@dataclass(frozen=True)
class Link:
    """A link to the admin screen where an item is fixed."""

    label: str
    url: str


@dataclass(frozen=True)
class ChecklistItem:
    """One item of the checklist: passed or not, why, and where it is fixed."""

    key: str
    title: str
    passed: bool
    reason: str
    links: tuple = ()


@dataclass(frozen=True)
class Checklist:
    """A property's go-live checklist, items in the spec's start-up order."""

    property: Property
    items: tuple = field(default=())
    #: When the catalog the codes were checked against was fetched (None: never).
    catalog_fetched_at: datetime.datetime | None = None

    @builtins.property
    def passed(self):
        """Whether every item passes: the property may go live."""
        return all(item.passed for item in self.items)

    @builtins.property
    def passed_count(self):
        return sum(1 for item in self.items if item.passed)

    @builtins.property
    def failed(self):
        return [item for item in self.items if not item.passed]


def _admin_url(name, *args, query=None):
    url = reverse(f"admin:{name}", args=args)
    return f"{url}?{urlencode(query)}" if query else url


def _change_link(obj):
    opts = obj._meta
    return Link(display_name(obj), _admin_url(f"{opts.app_label}_{opts.model_name}_change", obj.pk))


def _named(objects, total=None):
    """Names of the first NAMED_MAX objects, "and N more" for the rest."""
    names = ", ".join(f"“{display_name(obj)}”" for obj in objects[:NAMED_MAX])
    more = (total if total is not None else len(objects)) - min(len(objects), NAMED_MAX)
    if more > 0:
        names += " " + ngettext("and %(count)d more", "and %(count)d more", more) % {"count": more}
    return names


def property_checklist(prop):
    """The go-live checklist of prop; a fixed number of queries whatever the size of its content."""
    hub_codes = hub_codes_read()
    return Checklist(
        property=prop,
        catalog_fetched_at=hub_codes.catalog.snapshot.fetched_at if hub_codes.catalog else None,
        items=(
            _catalog_item(hub_codes),
            _codes_item(prop, hub_codes),
            _standalone_item(prop),
            _korean_item(prop),
            _synced_item(prop),
            _ari_item(prop),
            _license_item(prop),
        ),
    )


TITLES = {
    "catalog": gettext_lazy("The hub's code catalog is fetched"),
    "codes": gettext_lazy("Every code is mapped and known to the catalog"),
    "standalone": gettext_lazy("Exactly one standalone rate plan model"),
    "korean": gettext_lazy("Korean texts are present"),
    "synced": gettext_lazy("Every resource is synced"),
    # The horizon is a setting (ARI_HORIZON_DAYS): filled in by _item.
    "ari": gettext_lazy("Rates and availability are pushed for the next %(days)d days"),
    "license": gettext_lazy("Licenses are confirmed"),
}


def _item(key, passed, reason, links=()):
    title = str(TITLES[key])
    if key == "ari":
        title %= {"days": settings.ARI_HORIZON_DAYS}
    return ChecklistItem(key=key, title=title, passed=passed, reason=reason, links=tuple(links))


def _catalog_item(hub_codes):
    links = [Link(_("Code catalogs"), _admin_url("integration_catalogsnapshot_changelist"))]
    catalog = hub_codes.catalog
    if catalog is None:
        return _item("catalog", False, _("The hub's code catalog has never been fetched: fetch it now."), links)
    fetched = date_format(timezone.localtime(catalog.snapshot.fetched_at), "DATETIME_FORMAT")
    return _item("catalog", True, _("Fetched on %(time)s") % {"time": fetched}, links)


def _codes_item(prop, hub_codes):
    links = [Link(_("Code mappings"), _admin_url("integration_codemapping_changelist"))]
    if hub_codes.catalog is None:
        return _item("codes", False, _("Fetch the hub's code catalog first: codes are checked against it."), links)
    room_fields = [name for name in TAG_FIELD_GROUPS if hasattr(RoomType, name)]
    room_types = list(prop.room_types.only("pk", "name", "property_id", *room_fields).prefetch_related("translations"))
    problems, codes = [], 0
    for obj in (prop, *room_types):
        codes += sum(len(getattr(obj, name, None) or ()) for name in TAG_FIELD_GROUPS)
        if hub_codes.check(obj):
            problems.append((obj, hub_codes.problem(type(obj))))
    if not problems:
        return _item(
            "codes",
            True,
            ngettext(
                "The %(count)d code in use is known to the catalog.",
                "All %(count)d codes in use are known to the catalog.",
                codes,
            )
            % {"count": codes},
            links,
        )
    details = " ".join(f"“{display_name(obj)}”: {problem}" for obj, problem in problems[:NAMED_MAX])
    return _item("codes", False, details, [*(_change_link(obj) for obj, _problem in problems[:NAMED_MAX]), *links])


def _standalone_item(prop):
    # At most one is the database's rule (ratemodel_one_standalone_per_property, and RatePlanModel.clean),
    # since a property is saved before its models; exactly one, as the spec requires, is checked here.
    standalone = (
        prop.rate_plan_models.filter(type=RatePlanType.STANDALONE)
        .only("pk", "name", "property_id")
        .prefetch_related("translations")
        .first()
    )
    models_url = _admin_url("integration_rateplanmodel_changelist", query={"property__id__exact": prop.pk})
    links = [Link(_("Rate plan models"), models_url)]
    if standalone is not None:
        return _item(
            "standalone", True, _("“%(name)s” is the standalone model.") % {"name": display_name(standalone)}, links
        )
    initial = {"property": prop.pk, "type": RatePlanType.STANDALONE}
    add_url = _admin_url("integration_rateplanmodel_add", query=initial)
    reason = _("The property has no standalone rate plan model; the hub requires exactly one.")
    return _item("standalone", False, reason, [Link(_("Add the standalone model"), add_url), *links])


def _with_korean_name(translations):
    return translations.filter(locale=Locale.KO_KR).exclude(name="")


def _korean_item(prop):
    missing = []
    if not _with_korean_name(PropertyTranslation.objects.filter(property=prop)).exists():
        missing.append(prop)
    for model, translations, path in (
        (RoomType, RoomTypeTranslation.objects.filter(room_type__property=prop), "room_type_id"),
        (RatePlanModel, RatePlanModelTranslation.objects.filter(model__property=prop), "model_id"),
    ):
        missing += (
            model.objects.filter(property=prop)
            .exclude(pk__in=_with_korean_name(translations).values(path))
            .prefetch_related("translations")
        )
    if not missing:
        reason = _("The property, its room types and rate plan models have Korean names.")
        return _item("korean", True, reason, [_change_link(prop)])
    reason = _("No Korean (ko-KR) name: %(names)s.") % {"names": _named(missing)}
    return _item("korean", False, reason, [_change_link(obj) for obj in missing[:NAMED_MAX]])


def _synced_item(prop):
    by_status = dict(
        SyncState.objects.filter(property=prop)
        .exclude(status=SyncStatus.SYNCED)
        .order_by()
        .values_list("status")
        .annotate(count=Count("pk"))
    )
    never = 0
    for model, kind in _CONTENT_KINDS:
        objects = model._default_manager.filter(**({"pk": prop.pk} if model is Property else {"property": prop}))
        never += objects.exclude(pk__in=SyncState.objects.filter(kind=kind).values("object_id")).count()
    failed, pending = by_status.get(SyncStatus.FAILED, 0), by_status.get(SyncStatus.PENDING, 0)
    states_url = "integration_syncstate_changelist"
    links = [
        Link(_("Failed"), _admin_url(states_url, query={"property__id__exact": prop.pk, "status__exact": "failed"})),
        Link(_("Pending"), _admin_url(states_url, query={"property__id__exact": prop.pk, "status__exact": "pending"})),
    ]
    if not (failed or pending or never):
        all_states = Link(_("Hub sync states"), _admin_url(states_url, query={"property__id__exact": prop.pk}))
        return _item("synced", True, _("The hub has every resource as we last changed it."), [all_states])
    reason = _("%(failed)d failed, %(pending)d pending, %(never)d never sent.") % {
        "failed": failed,
        "pending": pending,
        "never": never,
    }
    return _item("synced", False, reason, links)


def _ari_item(prop):
    """Rates and availability at the hub for ARI_HORIZON_DAYS (OURS, decision 0019) from today (Korea time) on."""
    horizon = settings.ARI_HORIZON_DAYS
    first = korea_today()
    last = horizon_last(first)
    calendar = Link(_("Rates and availability"), _admin_url("integration_property_calendar", prop.pk))
    room_types = list(
        prop.room_types.filter(status=ContentStatus.ENABLED)
        .only("pk", "name", "property_id")
        .prefetch_related("translations")
    )
    plans = list(
        RatePlan.objects.filter(property=prop, status=ContentStatus.ENABLED, room_type__status=ContentStatus.ENABLED)
        .select_related("room_type", "model")
        .only("pk", "vendor_id", "room_type__name", "model__name", "model__type")
        .prefetch_related(*NAME_PREFETCHES[RatePlan])
    )
    if not room_types or not plans:
        return _item("ari", False, _("There is no enabled room type with an enabled rate plan to sell."), [calendar])
    window = Q(date__gte=first, date__lte=last)
    avail_days = dict(
        RoomTypeDay.objects.filter(window, room_type__in=room_types)
        .order_by()
        .values_list("room_type")
        .annotate(count=Count("pk"))
    )
    has_value = Q(rate_plan__model__type=RatePlanType.STANDALONE, rate__isnull=False) | Q(
        rate_plan__model__type=RatePlanType.PACKAGE, rate_modify__isnull=False
    )
    rate_days = dict(
        RatePlanDay.objects.filter(window, has_value, rate_plan__in=plans)
        .order_by()
        .values_list("rate_plan")
        .annotate(count=Count("pk"))
    )
    states = SyncState.objects.filter(property=prop, kind__in=(ResourceKind.ARI_RATES, ResourceKind.ARI_AVAILS))
    pushed = {
        (kind, object_id)
        for kind, object_id in states.filter(status=SyncStatus.SYNCED, known_to_hub=True).values_list(
            "kind", "object_id"
        )
    }
    pushed -= set(
        AriDirtyRange.objects.filter(state__in=states, date_from__lte=last, date_to__gte=first).values_list(
            "state__kind", "state__object_id"
        )
    )
    short = []
    for room_type in room_types:
        days = avail_days.get(room_type.pk, 0)
        if days < horizon or (ResourceKind.ARI_AVAILS, room_type.pk) not in pushed:
            short.append((display_name(room_type), _("availability"), days))
    for plan in plans:
        days = rate_days.get(plan.pk, 0)
        if days < horizon or (ResourceKind.ARI_RATES, plan.pk) not in pushed:
            short.append((display_name(plan), _("rates"), days))
    until = date_format(last, "DATE_FORMAT")
    days_ahead = hub_days_ahead(prop, today=first)
    ahead = ngettext("The hub holds %(days)d day ahead.", "The hub holds %(days)d days ahead.", days_ahead) % {
        "days": days_ahead
    }
    if not short:
        reason = _("Every room type and rate plan is at the hub until %(date)s.") % {"date": until} + " " + ahead
        return _item("ari", True, reason, [calendar])
    details = "; ".join(
        _("“%(name)s”: %(what)s on %(days)d of %(total)d days")
        % {"name": name, "what": what, "days": days, "total": horizon}
        if days < horizon
        else _("“%(name)s”: %(what)s not yet at the hub") % {"name": name, "what": what}
        for name, what, days in short[:NAMED_MAX]
    )
    reason = _("Not at the hub until %(date)s: %(details)s.") % {"date": until, "details": details} + " " + ahead
    if len(short) > NAMED_MAX:
        reason += " " + ngettext("And %(count)d more.", "And %(count)d more.", len(short) - NAMED_MAX) % {
            "count": len(short) - NAMED_MAX
        }
    states_url = _admin_url("integration_syncstate_changelist", query={"property__id__exact": prop.pk})
    return _item("ari", False, reason, [calendar, Link(_("Hub sync states"), states_url)])


def _license_item(prop):
    # Each hub reviews what was submitted to it: after a switch, the new hub's confirmations count.
    requests = LicenseRequest.objects.filter(
        property=prop, type__in=LICENSE_TYPES_REQUIRED, hub_environment=hub_environment_active()
    ).order_by()
    confirmed = set(requests.filter(status=ReviewStatus.CONFIRM).values_list("type", flat=True).distinct())
    links = [
        Link(
            _("License requests"),
            _admin_url("licenses_licenserequest_changelist", query={"property__id__exact": prop.pk}),
        )
    ]
    missing = [kind for kind in LICENSE_TYPES_REQUIRED if kind not in confirmed]
    if not missing:
        names = ", ".join(str(LicenseType(kind).label) for kind in LICENSE_TYPES_REQUIRED)
        return _item("license", True, _("Confirmed by the hub: %(types)s.") % {"types": names}, links)
    names = ", ".join(str(LicenseType(kind).label) for kind in missing)
    reason = _("Not confirmed by the hub yet: %(types)s.") % {"types": names}
    return _item("license", False, reason, links)
