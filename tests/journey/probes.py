"""What the journey does and reads inside the product, in a `manage.py shell` of its own (production
settings, the journey's database): the set-up, and the waits on what only the database and the sandbox
hub can tell. Each probe prints one JSON line (its answer) or exits non-zero saying what it waited for.

Run by the harness as `manage.py shell -c "from tests.journey.probes import main; main('name', '{json}')"`.
"""

import datetime
import json
import time

from django.contrib.auth import get_user_model
from django.utils import translation

POLL_SECONDS = 0.5


def main(name, arguments):
    """Run the probe `name` with its JSON arguments and print its answer as the last line."""
    with translation.override("en"):  # what it says goes into the journey's English report
        answer = PROBES[name](**json.loads(arguments))
    print(json.dumps(answer, ensure_ascii=False, default=str))


def _until(what, check, timeout):
    """check()'s first truthy answer, polled; SystemExit naming what and check's last reason on timeout.

    check returns (done, answer_or_reason)."""
    deadline = time.monotonic() + timeout
    while True:
        done, answer = check()
        if done:
            return answer
        if time.monotonic() > deadline:
            raise SystemExit(f"{what} within {timeout:.0f} s: {answer}")
        time.sleep(POLL_SECONDS)


def seed(*, password, manager_email, rateplan, days):
    """The demo property (Korean names, room types, rate plan models, rate plans, 90 days of rates and
    availability, channel requests) with its superuser `admin`, and a manager with an e-mail address; both
    get `password`. Answers the ids the journey sells and our rate of `rateplan` on each of the next days."""
    from integration.access.choices import MembershipRole
    from integration.access.services import membership_grant
    from integration.demo import DEMO_ADMIN_USERNAME, demo_seed

    result = demo_seed()
    users = get_user_model()
    admin = users.objects.get(username=DEMO_ADMIN_USERNAME)
    admin.set_password(password)
    admin.save(update_fields=["password"])
    manager = users.objects.create_user("journey-manager", email=manager_email, password=password)
    membership_grant(user=manager, property=result.property, role=MembershipRole.MANAGER)
    plan = result.property.rate_plans.select_related("room_type", "model", "property").get(vendor_id=rateplan)
    return {
        "property_pk": result.property.pk,
        "property_id": result.property.vendor_id,
        "roomtype_id": plan.room_type.vendor_id,
        "rateplan_id": plan.vendor_id,
        "superuser": admin.username,
        "manager": manager.username,
        "rates": _rates(plan, days),
    }


def _rates(plan, days):
    from bookings.selectors import nightly_rates
    from core.dates import korea_today

    nights = [korea_today() + datetime.timedelta(days=n) for n in range(1, days + 1)]
    return {night.isoformat(): int(rate) for night, rate in nightly_rates(plan, nights).items()}


def channel_open(*, property_id, rateplan_id, channel_id, timeout, hub="staging", ask=False):
    """Wait until the hub has our open request on channel_id and sells the rate plan there, and we have read
    its review (as beat's refresh does every minute: here at once) and sell it too. With ask, the
    property's manager asks for the channel first (as after a switch: the new hub knows no request)."""
    from hubsandbox import channels as hub_channels
    from hubsandbox.hubs import serving
    from integration.channels.models import ChannelOpenRequest, PropertyChannel
    from integration.channels.services import property_channels_refresh
    from integration.content.models import Property, RatePlan

    prop = Property.objects.get(vendor_id=property_id)
    plan = RatePlan.objects.select_related("room_type", "model").get(property=prop, vendor_id=rateplan_id)
    if ask:
        from integration.channels.models import SalesChannel
        from integration.channels.services import channel_open_request

        channel_open_request(property=prop, channel=SalesChannel.objects.get(channel_id=channel_id))

    def check():
        newest = ChannelOpenRequest.objects.filter(property=prop, channel__channel_id=channel_id).order_by("pk").last()
        if newest is None or newest.hub_id is None:
            return False, "the open request has not reached the hub"
        property_channels_refresh(property=prop)
        link = PropertyChannel.objects.select_related("channel").filter(property=prop, channel__channel_id=channel_id)
        link = link.first()
        if link is None or not link.sells(plan):
            return False, f"we do not sell {rateplan_id} on channel {channel_id}: {link and link.status}"
        with serving(hub):
            sold = hub_channels.selling_channel(
                property_id=property_id, roomtype_id=plan.room_type.vendor_id, rateplan_id=rateplan_id
            )
        if sold is None or sold.channel_id != channel_id:
            return False, f"the hub sells {rateplan_id} on {sold and sold.channel_id}, not {channel_id}"
        return True, {"channel_id": channel_id, "channel_name": link.channel.name}

    return _until(f"channel {channel_id} open and selling {rateplan_id}", check, timeout)


def synced(*, environment, timeout):
    """Wait until every sync state of the hub environment is synced with no changed days left to send;
    answers the counts and the time (epoch seconds) it was seen. Exits at once naming any failed one."""
    from integration.ari.models import AriDirtyRange
    from integration.sync.choices import SyncStatus
    from integration.sync.models import SyncState
    from integration.sync.selectors import sync_status_counts

    def check():
        failed = SyncState.objects.filter(environment=environment, status=SyncStatus.FAILED)
        if failed.exists():
            raise SystemExit("failed at the hub: " + "; ".join(f"{state}: {state.last_error}" for state in failed[:10]))
        counts = sync_status_counts(environment)
        dirty = AriDirtyRange.objects.filter(state__environment=environment).count()
        if counts and set(counts) == {SyncStatus.SYNCED} and not dirty:
            return True, {"counts": counts, "seen_at": time.time()}
        return False, f"sync states {counts}, {dirty} changed date ranges left to send"

    return _until(f"every resource synced at the {environment} hub", check, timeout)


def hub_holds(*, hub, property_id, roomtype_id, rateplan_ids, korean_name):
    """What the sandbox hub `hub` holds of the property: its ko-KR name and i18n, and which rate plans
    it knows; SystemExit when it lacks any."""
    from hubsandbox import state

    held = state.get_resource("property", property_id, hub=hub)
    if held is None:
        raise SystemExit(f"the {hub} hub does not know property {property_id}")
    names = {entry["locale"]: entry.get("name") for entry in held.get("i18n", [])}
    if names.get("ko-KR") != korean_name:
        raise SystemExit(f"the {hub} hub's ko-KR name is {names.get('ko-KR')!r}, not {korean_name!r}")
    missing = [
        rid for rid in rateplan_ids if state.get_resource("rateplan", property_id, roomtype_id, rid, hub=hub) is None
    ]
    if missing:
        raise SystemExit(f"the {hub} hub does not know rate plans {missing}")
    return {"i18n": held["i18n"]}


def hub_property_text(*, hub, property_id, locale, field, expected, timeout):
    """Wait until the hub's i18n entry of locale holds `expected` in field; answers the time it was seen."""
    from hubsandbox import state

    def check():
        held = state.get_resource("property", property_id, hub=hub) or {}
        entry = next((entry for entry in held.get("i18n", []) if entry["locale"] == locale), {})
        if entry.get(field) == expected:
            return True, {"seen_at": time.time()}
        return False, f"its {locale} {field} is {entry.get(field)!r}"

    return _until(f"the {hub} hub holding the edit", check, timeout)


def availability_at_hub(*, hub, property_id, roomtype_id, days, timeout):
    """Wait until the hub's availability of the room type equals ours on each of the next days and no
    availability is left to send: every change made before then is at the hub. Answers when it was seen."""
    from core.dates import korea_today
    from hubsandbox import state
    from integration.ari.models import AriDirtyRange, RoomTypeDay
    from integration.sync.choices import SyncStatus
    from integration.sync.models import ResourceKind, SyncState

    today = korea_today()
    ours = RoomTypeDay.objects.filter(
        room_type__property__vendor_id=property_id,
        room_type__vendor_id=roomtype_id,
        date__range=(today, today + datetime.timedelta(days=days)),
    )
    states = SyncState.objects.filter(environment=hub, kind=ResourceKind.ARI_AVAILS)

    def check():
        held = state.avails_of(property_id, roomtype_id, hub=hub)
        differing = {day.isoformat(): (count, held.get(day)) for day, count in ours.values_list("date", "available")}
        differing = {day: counts for day, counts in differing.items() if counts[0] != counts[1]}
        pending = states.exclude(status=SyncStatus.SYNCED).count()
        dirty = AriDirtyRange.objects.filter(state__in=states).count()
        if not differing and not pending and not dirty:
            return True, {"seen_at": time.time()}
        return False, (
            f"{len(differing)} nights differ (ours, the hub's): {dict(list(differing.items())[:5])}; "
            f"{pending} availability sync states not synced, {dirty} changed date ranges left to send"
        )

    return _until(f"the {hub} hub holding our availability of {roomtype_id}", check, timeout)


PROBES = {
    probe.__name__: probe
    for probe in (
        seed,
        channel_open,
        synced,
        hub_holds,
        hub_property_text,
        availability_at_hub,
    )
}
