"""Korea's time zone and today's date there: the hub and the spec judge dates by the date in Korea,
whatever the server's time zone."""

import datetime
from zoneinfo import ZoneInfo

from django.utils import timezone

KOREA = ZoneInfo("Asia/Seoul")


def korea_today() -> datetime.date:
    """Today's date in Korea."""
    return timezone.localdate(timezone=KOREA)
