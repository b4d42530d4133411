"""Named seasons of a property: date ranges saved under a name, which a bulk edit targets instead of dates
typed each time."""

from collections.abc import Iterable

from django.db import transaction

from ..dates import DateRange, merge_ranges
from ..models import AriSeason, AriSeasonRange


@transaction.atomic
def ari_season_save(season: AriSeason, ranges: Iterable[DateRange]) -> AriSeason:
    """Save season (new or renamed) with these days, ranges that overlap or touch merged into one."""
    season.save()
    season.ranges.all().delete()
    AriSeasonRange.objects.bulk_create(
        AriSeasonRange(season=season, date_from=r.start, date_to=r.end) for r in merge_ranges(ranges)
    )
    return season
