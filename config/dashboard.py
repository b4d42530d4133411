"""The superuser's chart of the last 24 hours on the dashboard: the sends to the hub by hour (ok, retried,
failed), the age of the backlog against the health check's limit, and the vendor API's answers by code.

Bars are SVG rectangles whose sizes are attributes, coloured by classes of the admin's stylesheet: no
script and no inline style (which a content security policy may forbid)."""

from dataclasses import dataclass, field
from datetime import UTC, timedelta

from django.utils import timezone
from django.utils.formats import number_format
from django.utils.translation import gettext as _

from bookings.errors import ERROR_TABLE
from bookings.selectors import inbound_answers_by_code
from core.background.jobs import jobs_waiting
from core.dates import KOREA
from integration.sync.selectors import outbox_backlog, sync_attempts_by_hour

from .health import BACKLOG_MAX_AGE, duration_words

HOURS = 24
#: The hourly chart's geometry, in SVG units: one column per hour.
CHART_HEIGHT = 60
COLUMN_WIDTH = 8
COLUMN_GAP = 2
#: A horizontal bar's full length (SVG units), for the backlog and the answers by code.
BAR_LENGTH = 200
#: Outcomes of a send as the chart names them, bottom to top: (SyncAttempt.outcome, CSS class).
SEND_OUTCOMES = (("success", "sends-ok"), ("retry", "sends-retried"), ("failed", "sends-failed"))


@dataclass
class Bar:
    """One bar of a horizontal bar chart: its words, its length in SVG units, its class, the number shown
    after it, and whether a mark stands at the middle (the health check's limit)."""

    label: str
    length: float
    css: str
    number: str = ""
    mark: bool = False


@dataclass
class Activity:
    """What the dashboard draws for the last 24 hours."""

    columns: list = field(default_factory=list)
    sends: dict = field(default_factory=dict)
    backlog: list = field(default_factory=list)
    answers: list = field(default_factory=list)
    width: int = HOURS * (COLUMN_WIDTH + COLUMN_GAP)
    height: int = CHART_HEIGHT
    bar_length: int = BAR_LENGTH


def _length(count, peak):
    return round(BAR_LENGTH * count / peak, 1) if count else 0


def _columns(start):
    counts = sync_attempts_by_hour(start)
    hours = [start + timedelta(hours=offset) for offset in range(HOURS)]
    per_hour = [{outcome: counts.get((hour, outcome), 0) for outcome, _css in SEND_OUTCOMES} for hour in hours]
    peak = max((sum(values.values()) for values in per_hour), default=0) or 1
    columns = []
    for index, (hour, values) in enumerate(zip(hours, per_hour, strict=True)):
        top: float = CHART_HEIGHT
        parts = []
        for outcome, css in SEND_OUTCOMES:
            if values[outcome]:
                height = max(1.0, round(CHART_HEIGHT * values[outcome] / peak, 1))
                top -= height
                parts.append({"css": css, "y": round(top, 1), "height": height})
        local = hour.astimezone(KOREA)
        title = _("%(hour)s: %(ok)s ok, %(retried)s retried, %(failed)s failed") % {
            "hour": local.strftime("%H:00"),
            "ok": values["success"],
            "retried": values["retry"],
            "failed": values["failed"],
        }
        columns.append(
            {"x": index * (COLUMN_WIDTH + COLUMN_GAP), "width": COLUMN_WIDTH, "parts": parts, "title": title}
        )
    sends = {outcome: sum(values[outcome] for values in per_hour) for outcome, _css in SEND_OUTCOMES}
    return columns, sends


def _backlog(now):
    """The oldest change for the hub and the oldest due job, each against the health check's limit (the
    bar's middle): past it, the bar is drawn as a problem."""
    limit = BACKLOG_MAX_AGE.total_seconds()
    rows = []
    for label, since in (
        (_("Oldest change for the hub"), outbox_backlog()["oldest_pending_since"]),
        (_("Oldest job waiting"), jobs_waiting()["oldest_waiting_since"]),
    ):
        age = 0 if since is None else max(0, round((now - since).total_seconds()))
        words = duration_words(age) if age else _("none")
        length = round(BAR_LENGTH * min(age, 2 * limit) / (2 * limit), 1)
        rows.append(Bar(label, length, "backlog-late" if age > limit else "backlog-ok", number=words, mark=True))
    return rows


def _answers(now):
    counts = inbound_answers_by_code(now - timedelta(hours=HOURS))
    labels = {"": _("Answered")} | {error.code: f"{error.code} {error.label}" for error in ERROR_TABLE}
    peak = max(counts.values(), default=0) or 1
    ordered = sorted(counts, key=lambda code: (code != "", code))
    return [
        Bar(
            labels.get(code, code),
            _length(counts[code], peak),
            "answer-error" if code else "answer-ok",
            number=number_format(counts[code], force_grouping=True),
        )
        for code in ordered
    ]


def activity_last_day(now=None):
    """The chart's data: hourly columns of sends (the current hour last), their totals, the backlog and
    the vendor API's answers."""
    now = now or timezone.now()
    start = now.astimezone(UTC).replace(minute=0, second=0, microsecond=0) - timedelta(hours=HOURS - 1)
    columns, sends = _columns(start)
    totals = {outcome: number_format(count, force_grouping=True) for outcome, count in sends.items()}
    return Activity(columns=columns, sends=totals, backlog=_backlog(now), answers=_answers(now))
