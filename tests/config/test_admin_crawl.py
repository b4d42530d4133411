"""A crawl of the whole back office on the demo data: every admin page a superuser, a manager and a staff
member can reach answers 200, a redirect or the admin's 403 page, never a 500 (and, in test_admin_fuzz, every
form the superuser's pages carry, posted back with hostile values, never a 500).

Nothing here lists the screens: the URL patterns come from the admin site (its own views and each
registered model admin's get_urls()), their parameters from the data's objects and from the links the
pages carry, and each changelist's filter choices from its filter specs. A new screen joins by itself; a
pattern the crawl cannot fill fails the test by name unless UNFILLABLE or MODELS_WITHOUT_ROWS says why."""

import datetime
import re
import time
from collections import Counter
from dataclasses import dataclass, field
from datetime import timedelta
from html.parser import HTMLParser
from io import StringIO
from urllib.parse import parse_qsl, urlencode, urljoin, urlsplit

import pytest
from axes.models import AccessAttempt
from django.contrib import admin
from django.contrib.admin.filters import AllValuesFieldListFilter, RelatedFieldListFilter
from django.contrib.admin.models import ADDITION, LogEntry
from django.core.management import call_command
from django.db import connection, transaction
from django.urls import URLPattern, URLResolver, resolve
from django.urls.exceptions import Resolver404
from django.utils import timezone
from django_otp.plugins.otp_static.models import StaticDevice

from bookings.models import Booking, NotificationPreference, RefusedCall
from bookings.settlement.choices import Category
from core.dates import korea_today
from inbox.choices import EventKind
from inbox.services import event_record
from integration.ari.csv_export import ari_csv_export
from integration.ari.services.avail_rules import avail_rule_save
from integration.ari.services.horizon import horizon_check_property
from integration.ari.services.imports import ari_import_check, ari_import_start
from integration.drift.choices import DriftCheckStatus
from integration.models import (
    AriChangeSet,
    AriImport,
    ChannelAvailRule,
    ChannelLeadDays,
    CodeMapping,
    DriftCheck,
    HubSwitch,
    Property,
    PropertyChannel,
    PropertyCutoff,
    RatePlanDay,
    RatePlanDefault,
    RoomTypeDefault,
    SalesChannel,
    SyncAttempt,
    SyncState,
)
from tests.bookings.factories import CHANNEL_ID, create_body, open_channel, sellable
from tests.bookings.settlement.test_screens import finished
from tests.bookings.signing import HubClient as BookingHubClient
from tests.factories import member
from tests.hubsandbox.hubclient import KO, ok
from tests.hubsandbox.hubclient import HubClient as SandboxClient
from tests.integration.ari.factories import day
from tests.integration.catalog.data import store_catalog
from tests.licenses.factories import LicenseRequestFactory
from tests.login import Client

pytestmark = pytest.mark.django_db

ADMIN = "/admin/"
#: Patterns the crawl does not open, each with its reason (keyed by the pattern's route under /admin/).
UNFILLABLE = {
    "(?P<url>.*)$": "the admin's catch-all: it answers the addresses no other pattern matches",
    "r/<path:content_type_id>/<path:object_id>/": "'view on site': no model has a page outside the admin",
}
#: Pages that answer 404 to the crawl's address by design, with the reason (the crawl opens what links
#: lead there too, and those must answer).
NOT_FOUND_BY_DESIGN = {
    "integration/property/<path:object_id>/calendar/history/": "a fragment the calendar's cell editor asks "
    "for with the cell in its query; the bare address names no cell",
    "integration/propertychannel/property/<int:property_id>/mapping/<int:channel_pk>/": "only a CMS channel "
    "has a mapping and the crawl's channel is the first (a hub channel); the property's channels page links "
    "the CMS channel's, which the crawl follows",
}
#: Registered models the crawl's data holds no row of, so that their objects' pages are not opened.
MODELS_WITHOUT_ROWS = {
    f"hubsandbox.{name}": "the sandbox hub's own state, made by calls to its API that sell, license and open "
    "channels; the crawl calls it for content only (tests/hubsandbox covers the rest)"
    for name in (
        "SandboxSale",
        "SandboxRateDay",
        "SandboxAvailDay",
        "SandboxLicense",
        "SandboxPropertyChannel",
        "SandboxOpenRequest",
    )
}
#: The parameters of the admin's own views that are no model admin's object, and the model each names.
PARAMETERS = {
    "property_id": Property,
    "channel_pk": SalesChannel,
    "import_id": AriImport,
    "change_id": AriChangeSet,
    "switch_id": HubSwitch,
}
#: The parameters that name the model admin's own object.
OBJECT_PARAMETERS = {"object_id", "pk", "id"}
#: Filters whose choices are the values the data holds (a related object, a column's distinct values).
DATA_VALUED_FILTERS = (RelatedFieldListFilter, AllValuesFieldListFilter)


@dataclass(frozen=True)
class Page:
    """An address the crawl opens, and the admin pattern it resolves to (its route under /admin/)."""

    url: str
    route: str

    @property
    def shape(self):
        """Addresses of one shape show the same screen: the pattern and the names of the query's keys."""
        return self.route, frozenset(key for key, _value in parse_qsl(urlsplit(self.url).query))


@dataclass(frozen=True)
class Answer:
    """What a page answered, and whether that is acceptable in itself: 200, a redirect, the admin's 403
    page, or a 405 from a view that takes only POST (the crawl only reads). A 404 is judged with the
    superuser's answer (_bad_answers)."""

    status: int
    ok: bool
    error: str

    @classmethod
    def of(cls, response):
        status = response.status_code
        templates = {template.name for template in getattr(response, "templates", [])}
        ok = (
            status == 200
            or 300 <= status < 400
            or (status == 403 and "403.html" in templates)
            or (status == 405 and "GET" not in response.get("Allow", ""))
        )
        error = ""
        if getattr(response, "exc_info", None):
            error = f"{response.exc_info[0].__name__}: {response.exc_info[1]}"[:300]
        return cls(status, ok, error)


class _Links(HTMLParser):
    """The targets of a page's links (<a href>): what a reader can open from it with a GET."""

    def __init__(self):
        super().__init__()
        self.hrefs = []

    def handle_starttag(self, tag, attrs):
        href = dict(attrs).get("href")
        if tag == "a" and href:
            self.hrefs.append(href)


class _Forms(HTMLParser):
    """A page's forms that post: each one's action and the names of its fields."""

    def __init__(self):
        super().__init__()
        self.forms = []

    def handle_starttag(self, tag, attrs):
        attributes = dict(attrs)
        if tag == "form":
            posts = (attributes.get("method") or "").lower() == "post"
            self.forms.append((attributes.get("action") or "", set()) if posts else None)
        elif tag in ("input", "select", "textarea", "button") and self.forms and self.forms[-1] is not None:
            name = attributes.get("name")
            if name and name != "csrfmiddlewaretoken":
                self.forms[-1][1].add(name)


def _admin_patterns():
    """Every URL pattern of the admin site, as (route under /admin/, pattern, model admin or None): the
    site's own views, then each registered model admin's."""

    def walk(patterns, prefix, owner):
        for pattern in patterns:
            if isinstance(pattern, URLResolver):
                yield from walk(pattern.url_patterns, prefix + str(pattern.pattern), owner)
            else:
                yield (prefix + str(pattern.pattern)).lstrip("^"), pattern, owner

    site_views = [pattern for pattern in admin.site.get_urls() if isinstance(pattern, URLPattern)]
    found = list(walk(site_views, "", None))
    for model, model_admin in admin.site._registry.items():
        prefix = f"{model._meta.app_label}/{model._meta.model_name}/"
        found.extend(walk(model_admin.get_urls(), prefix, model_admin))
    return found


def _route_of(url):
    """The route under /admin/ that url resolves to, or None when it is no admin page."""
    path = urlsplit(url).path
    if not path.startswith(ADMIN):
        return None
    try:
        match = resolve(path)
    except Resolver404:
        return None
    if match.namespace != "admin":
        return None
    return match.route.removeprefix(ADMIN.lstrip("/")).lstrip("^")


def _absolute(base, href):
    """href as an absolute path on this site, or "" when it leads elsewhere."""
    url = urljoin(base, href.split("#")[0])
    parts = urlsplit(url)
    if parts.scheme or parts.netloc or not href or href.startswith(("#", "javascript:", "mailto:")):
        return ""
    return url


def _drills_down(url, link, changelist):
    """Whether link is url's changelist with one more level of its date hierarchy selected, url having
    nothing else selected (the drill-down within each filter's choice runs the same code)."""
    if not changelist.date_hierarchy:
        return False
    before, after = (set(dict(parse_qsl(urlsplit(each).query))) for each in (url, link))
    dates = {key for key in after if key.startswith(f"{changelist.date_hierarchy}__")}
    return before < after and after <= dates


@dataclass
class Crawl:
    """One role's crawl: the pages queued and opened, their answers, and the shapes already queued."""

    role: str
    client: Client
    answers: dict = field(default_factory=dict)
    shapes: set = field(default_factory=set)
    queue: list = field(default_factory=list)
    #: The forms met on the way, by (their action's route, their fields' names): (action, fields).
    forms: dict = field(default_factory=dict)

    def add(self, url, *, each=False):
        """Queue url unless a page of its shape is queued already. each: queue it anyway, and leave its
        shape open to the links (a seed's parameters or a filter's choice are the crawl's picks, a link
        may well lead to other rows of the same screen)."""
        route = _route_of(url)
        if route is None or url in self.answers:
            return
        page = Page(url, route)
        if not each:
            if page.shape in self.shapes:
                return
            self.shapes.add(page.shape)
        self.answers[url] = None
        self.queue.append(page)

    def run(self):
        while self.queue:
            self.open(self.queue.pop(0))

    def open(self, page):
        # Each page in a savepoint: a database error in one view (PostgreSQL aborts the transaction) must
        # not fail the pages after it, and no page's writes change what the next one shows.
        savepoint = transaction.savepoint()
        response = self.client.get(page.url)
        transaction.savepoint_rollback(savepoint)
        self.answers[page.url] = Answer.of(response)
        if response.status_code != 200 or response.streaming:
            return
        changelist = (response.context or {}).get("cl")
        variant = changelist is not None and bool(urlsplit(page.url).query)
        if changelist is not None and not variant:
            self.add_filters_and_search(page, changelist)
        if "text/html" not in response.get("Content-Type", ""):
            return
        html = response.content.decode()
        self.add_forms(page, html)
        links = _Links()
        links.feed(html)
        for href in links.hrefs:
            url = _absolute(page.url, href)
            if "_changelist_filters=" in url:
                continue  # the same page as without: the list's filters only ride along for the way back
            # A filtered or searched list links to every combination of filters: its own variants come
            # from the plain list, but for the date drill-down's next level.
            if variant and _route_of(url) == page.route and not _drills_down(page.url, url, changelist):
                continue
            self.add(url)

    def add_forms(self, page, html):
        """Keep each form of the page that posts, one of each shape (action's route and fields' names)."""
        parser = _Forms()
        parser.feed(html)
        for form in filter(None, parser.forms):
            action = _absolute(page.url, form[0]) if form[0] else page.url
            route = _route_of(action)
            if route is not None:
                self.forms.setdefault((route, frozenset(form[1])), (action, sorted(form[1])))

    def add_filters_and_search(self, page, changelist):
        """Each choice of each of the changelist's filters, and a search for a word of its first row."""
        for spec in changelist.filter_specs:
            choices = list(spec.choices(changelist))
            if isinstance(spec, DATA_VALUED_FILTERS):
                # Every value runs the same code: "all", the first value and the last choice (the empty
                # one, where the filter offers it).
                choices = choices[:2] + choices[2:][-1:]
            for choice in choices:
                self.add(urljoin(page.url, choice["query_string"]), each=True)
        if changelist.search_fields:
            words = str(changelist.result_list[0]).split() if changelist.result_list else []
            self.add(f"{page.url}?{urlencode({'q': words[0] if words else 'a'})}", each=True)


def _seeds(patterns):
    """The pages to start from: every admin pattern, its parameters filled with objects of the data (the
    model admin's own for object_id, pk and id; PARAMETERS' for the others). Returns (urls, unfilled
    routes): a route is unfilled when a parameter is unknown or its model has no row."""
    urls, unfilled = [], []
    for route, pattern, owner in patterns:
        if route in UNFILLABLE:
            continue
        names = list(pattern.pattern.regex.groupindex)
        if names == ["app_label"]:
            urls.extend(f"{ADMIN}{label}/" for label in sorted(_app_labels()))
            continue
        values = {}
        for name in names:
            model = owner.model if name in OBJECT_PARAMETERS and owner else PARAMETERS.get(name)
            obj = model and model._default_manager.order_by("pk").first()
            if obj is not None:
                values[name] = obj.pk
        if len(values) < len(names):
            if not (owner and owner.model._meta.label in MODELS_WITHOUT_ROWS):
                unfilled.append(route)
            continue
        urls.append(ADMIN + _filled(route, values))
    return urls, unfilled


def _filled(route, values):
    """route with each <converter:name> replaced by values[name]."""
    return re.sub(r"<(?:\w+:)?(\w+)>", lambda match: str(values[match.group(1)]), route)


def _app_labels():
    return {model._meta.app_label for model in admin.site._registry}


def _bad_answers(crawls):
    """Every page answered unacceptably, as "role status url error". A 404 is fine where the superuser's
    answer to the same address is fine (the admin hides what is outside one's properties or permissions)
    and where NOT_FOUND_BY_DESIGN says why."""
    superuser = crawls["superuser"].answers
    bad = []
    for crawl in crawls.values():
        for url, answer in crawl.answers.items():
            hidden = answer.status == 404 and (
                _route_of(url) in NOT_FOUND_BY_DESIGN
                or (crawl.role != "superuser" and url in superuser and superuser[url].ok)
            )
            if not (answer.ok or hidden):
                bad.append(f"{crawl.role} {answer.status} {url} {answer.error}".rstrip())
    return bad


def _the_demo_at_work(demo, superuser):
    """What the demo gathers once it runs, on top of seed_demo's rows: its channels open, a booking of the
    demo and a canceled one of another property (with the hub's calls), the hub's answers to sends over
    two months, a CSV import, a license request, a drift check, a reconciliation, a hub switch, the
    inbox's events, the sandbox's content, a code mapping, a catalog, preferences, devices, sign-ins and
    an audit entry. Each is made the way the product makes it where that needs no running hub."""
    hub = BookingHubClient(Client())
    # The sandbox approves the demo's requests for channels 1, 2 and 3 (cms) after its review.
    for channel_id in (1, 2, 3, CHANNEL_ID):
        open_channel(demo, channel_id=channel_id)
    plan = demo.rate_plans.select_related("model", "room_type").get(vendor_id="ondol-room-only")
    rate = RatePlanDay.objects.get(rate_plan=plan, date=day(1)).rate
    created = hub.post("/bookings", create_body(plan, amount=rate, total_amount=rate, net_price=rate))
    assert created.status_code == 200, created.content
    booking = Booking.objects.get(vendor_booking_number=created.json()["vendor_booking_number"])
    _room_type, other_plan, _package = sellable()
    other_number = hub.post("/bookings", create_body(other_plan)).json()["vendor_booking_number"]
    hub.put(f"/bookings/{other_number}/cancel")

    state = SyncState.objects.filter(property=demo).order_by("pk").first()
    for outcome, status in ((SyncAttempt.Outcome.SUCCESS, 200), (SyncAttempt.Outcome.FAILED, 400)):
        SyncAttempt.objects.create(
            state=state, property=demo, method="POST", path="/properties", status_code=status, outcome=outcome,
            duration_ms=12, hub_message="" if status == 200 else "invalid",
        )  # fmt: skip
    # A log spans days and months: the date drill-down then has periods to list at each level.
    SyncAttempt.objects.filter(outcome=SyncAttempt.Outcome.FAILED).update(
        created_at=timezone.now() - timedelta(days=40)
    )
    text = "".join(ari_csv_export(demo, first=korea_today(), last=day(6)))
    ari_import_check(
        import_id=ari_import_start(property=demo, user=superuser, file_name="ari.csv", text=text, language="en").pk
    )
    license_request = LicenseRequestFactory(property=demo)
    check = DriftCheck.objects.create(property=demo, status=DriftCheckStatus.DONE, difference_count=2)
    finished(demo, [(Category.MATCHED, booking.vendor_booking_number, 1000)])
    HubSwitch.objects.create(from_environment="staging", to_environment="production", switched_by=superuser)
    _the_demo_s_availability_levers(demo, plan, superuser)
    channel = PropertyChannel.objects.filter(property=demo).order_by("pk").first()
    for kind, obj in (
        (EventKind.LICENSE_CONFIRMED, license_request),
        (EventKind.LICENSE_REJECTED, license_request),
        (EventKind.CHANNEL_OPENED, channel.channel),
        (EventKind.SEND_FAILED, state),
        (EventKind.DRIFT_FOUND, check),
        (EventKind.BOOKING_CANCELED, booking),
    ):
        event_record(property_id=demo.pk, kind=kind, object_id=obj.pk, subject=state.kind, detail="2")
    # A person's own event: their user name tried from many addresses.
    event_record(
        property_id=None,
        user_id=superuser.pk,
        kind=EventKind.LOGIN_TRIED,
        object_id=superuser.pk,
        subject=superuser.username,
        detail="5",
    )

    sandbox = SandboxClient(Client())
    ok(sandbox.post("/properties", {"id": "p1", "i18n": [KO]}))
    ok(sandbox.post("/properties/p1/roomtypes", {"id": "r1", "i18n": [KO]}))
    ok(sandbox.post("/properties/p1/rateplan-models", {"id": "std", "type": "standalone", "i18n": [KO]}))
    ok(sandbox.post("/properties/p1/roomtypes/r1/rateplans", {"id": "rp1", "vendor_rateplan_model_id": "std"}))
    CodeMapping.objects.create(group="view", vendor_code="SEA", hub_code="ocean", note="sea")
    store_catalog()
    NotificationPreference.objects.create(user=superuser, language="en")
    StaticDevice.objects.create(user=superuser, name="backup codes")
    LogEntry.objects.log_actions(superuser.pk, [demo], ADDITION)
    RefusedCall.objects.create(method="POST", path="/bookings", address="203.0.113.9", status=403, code="2000")


def _the_demo_s_availability_levers(demo, plan, superuser):
    """A channel rule (saved, so it has a history), a cut-off, lead days, defaults and a horizon check."""
    channel = SalesChannel.objects.get(channel_id=1)
    rule = ChannelAvailRule(property=demo, channel=channel, date_from=day(2), date_to=day(4), kind="hold_back", value=1)
    with transaction.atomic():
        avail_rule_save(rule=rule, user=superuser)
    PropertyCutoff.objects.create(property=demo, cutoff_time=datetime.time(18, 0)).channels.set([channel])
    ChannelLeadDays.objects.create(property=demo, channel=channel, days=2)
    RatePlanDefault.objects.create(rate_plan=plan, mode="weekday", monday=90000)
    RoomTypeDefault.objects.create(room_type=plan.room_type, stock=3)
    horizon_check_property(demo.pk)


def crawled(*roles):
    """The demo at work (_the_demo_at_work), crawled by a client of each role: {role: Crawl}, and the
    routes the seeds could not fill."""
    call_command("seed_demo", stdout=StringIO())
    demo = Property.objects.get()
    superuser = demo.memberships.get(user__username="admin").user
    users = {
        "superuser": lambda: superuser,
        "manager": lambda: member(demo, "manager"),
        "staff": lambda: member(demo, "staff"),
    }
    crawls = {}
    for role in roles:
        client = Client(raise_request_exception=False)
        client.force_login(users[role]())
        crawls[role] = Crawl(role, client)
    # After the logins: a successful one clears the user's failed attempts.
    AccessAttempt.objects.create(
        username=superuser.username, ip_address="127.0.0.1", user_agent="crawl", failures_since_start=1
    )
    _the_demo_at_work(demo, superuser)
    seeds, unfilled = _seeds(_admin_patterns())
    for crawl in crawls.values():
        for url in seeds:
            crawl.add(url, each=True)
        crawl.run()
    return crawls, unfilled


def test_every_admin_page_answers_without_a_server_error_for_each_role():
    started = time.monotonic()
    crawls, unfilled = crawled("superuser", "manager", "staff")
    elapsed = time.monotonic() - started
    failures = _bad_answers(crawls)
    statuses = Counter(answer.status for crawl in crawls.values() for answer in crawl.answers.values())
    counts = ", ".join(f"{role} {len(crawl.answers)}" for role, crawl in crawls.items())
    print(f"\nadmin crawl on {connection.vendor}: {counts} pages in {elapsed:.1f} s; answers {dict(statuses)}")
    report = [f"cannot fill (no row, or an unknown parameter): {route}" for route in unfilled] + failures
    assert not report, f"{len(report)} problems:\n" + "\n".join(report)
