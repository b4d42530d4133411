"""python -m bench.ari_history: what recording the history (one row per changed cell) costs a bulk edit.

The bulk edit of bench.ari (50 rate plans x 365 days, common and on 3 channels, and the availability of
10 room types: 76,650 cells) is applied on two fresh properties, alternately with the history recorded
and, as the baseline of the same run, with its recording switched off; prints both times and the ratio.
"""

import datetime
import time

from bench.harness import fresh_database, sandbox_hub, setup_django

ROUNDS = 2


def apply_year(ari_cases, vendor_id):
    """Seconds to apply bench.ari's year of edits to a new property, in one transaction."""
    from django.db import transaction

    from core.dates import korea_today
    from integration.ari.dates import DateRange
    from integration.ari.services.bulk import ari_edit_apply
    from integration.ari.services.edits import AriEdit, Operation
    from integration.content.choices import RatePlanType
    from integration.models import RatePlan, SalesChannel

    prop, rooms = ari_cases.create_property(vendor_id, ari_cases.ROOM_TYPES, ari_cases.MODELS)
    plans = list(RatePlan.objects.filter(property=prop).select_related("model", "room_type", "property"))
    standalone = tuple(plan for plan in plans if plan.model.type == RatePlanType.STANDALONE)
    packages = tuple(plan for plan in plans if plan.model.type == RatePlanType.PACKAGE)
    channels = [
        SalesChannel.objects.get_or_create(channel_id=cid, defaults={"name": f"Channel {cid}"})[0]
        for cid in ari_cases.CHANNELS
    ]
    year = (DateRange(korea_today(), korea_today() + datetime.timedelta(days=ari_cases.DAYS - 1)),)
    edits = [
        AriEdit(ranges=year, operation=Operation.SET, value=100000, rate_plans=standalone),
        AriEdit(ranges=year, operation=Operation.SET, value=125000, rate_plans=packages),
        *(
            AriEdit(ranges=year, operation=Operation.SET, value=110000, rate_plans=tuple(plans), channel=channel)
            for channel in channels
        ),
        AriEdit(ranges=year, operation=Operation.SET_AVAILABILITY, value=5, room_types=tuple(rooms)),
    ]
    started = time.perf_counter()
    with transaction.atomic():
        for edit in edits:
            ari_edit_apply(edit)
    return time.perf_counter() - started


def main():
    setup_django()
    from bench import ari_cases
    from integration.ari.services import bulk
    from integration.models import AriCellChange

    record = bulk._record
    times = {"with history": [], "without (baseline)": []}
    with fresh_database(), sandbox_hub():
        for n in range(ROUNDS):
            times["with history"].append(apply_year(ari_cases, f"history-{n}"))
            bulk._record = lambda change_set, channel, changes: None
            try:
                times["without (baseline)"].append(apply_year(ari_cases, f"baseline-{n}"))
            finally:
                bulk._record = record
        rows = AriCellChange.objects.count()
    best = {label: min(values) for label, values in times.items()}
    print(f"History of a bulk edit: {rows:,} cell rows recorded over {ROUNDS} rounds (best of {ROUNDS})")
    for label, seconds in best.items():
        print(f"  apply {label:<22} {seconds:>8.2f} s")
    print(f"  ratio                        {best['with history'] / best['without (baseline)']:>8.2f}x")


if __name__ == "__main__":
    main()
