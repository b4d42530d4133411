"""The journey: the product as it is deployed (production settings, Procfile's gunicorn, Celery worker and
beat, PostgreSQL, a Redis of its own, the sandbox serving as both hubs), walked through HTTP the way the
hub, a manager and a superuser walk it. pytest's own process imports every module; the web process does
not, and only a run like this shows what it cannot do.

Each step fails naming itself. A step the next ones build on stops the journey; the others are all
reported together at the end, with the tail of every process's log. The figures of the Redis outage are
printed (`-s` shows them). Alone: DATABASE_URL=postgres://... .venv/bin/pytest tests/journey -s
"""

import datetime
import os
import secrets
import shutil
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from urllib.parse import urlsplit, urlunsplit

import pytest
import requests

from integration.demo import DEMO_PROPERTY_TEXT
from tests.conftest import unavailable

from .harness import KOREA, Deployment, StepFailure, create_body, wait_until

pytestmark = [pytest.mark.journey, pytest.mark.postgres]

KOREAN_NAME = DEMO_PROPERTY_TEXT["ko-KR"]["name"]
#: What the hub sells in the journey: the demo's standalone ondol plan, on the hub channel "Hub OTA".
RATEPLAN, CHANNEL = "ondol-room-only", 1
#: Nights with our rates ahead (the demo has 90 days): one booking per night in the outage.
NIGHTS_AHEAD = 88
MANAGER_EMAIL = "manager@journey.example"
PASSWORD = secrets.token_urlsafe(16)
#: Bounds of the waits (never timed assertions: what a step waits for arrives long before).
START_SECONDS, SYNC_SECONDS, MAIL_SECONDS, RUN_SECONDS = 90, 180, 30, 60
#: The outage: Redis down this long, creates sent this often throughout, and the bound of the recovery.
OUTAGE_SECONDS, PACE_SECONDS, AFTER_SECONDS, RECOVERY_SECONDS = 30, 0.5, 5, 120


@pytest.fixture
def deployment(tmp_path):
    url = os.environ.get("DATABASE_URL", "")
    if not shutil.which("redis-server"):
        unavailable("needs Redis's redis-server binary (apt-get install redis-server)", required_by="REQUIRE_SERVICES")
    parts = urlsplit(url)
    server = urlunsplit(parts._replace(path="", query=""))
    database = f"{parts.path.strip('/')}_journey"
    with Deployment(tmp_path, postgres_server=server, database=database) as running:
        yield running


@dataclass
class Answer:
    """One vendor API call of the outage's traffic: when it was sent, what, and what came back."""

    sent_at: float
    operation: str
    status: int | None
    code: str | None  # the error code of decision 0012 ("1000", ...), None for a booking

    @property
    def crashed(self):
        return self.code == "1000"

    @property
    def broken(self):
        return self.status is None or self.status >= 500

    @property
    def follows_contract(self):
        """A booking (200), or one of the refusals of decision 0012; never a crash (1000), a 5xx or no answer."""
        return not (self.crashed or self.broken)


def _code(answer):
    return None if answer.get("code") is None else str(answer["code"])


class Traffic(threading.Thread):
    """The hub during the outage: a signed create every PACE_SECONDS, each on a night of its own, and the
    confirm of each accepted one; every answer kept."""

    def __init__(self, walk, nights):
        super().__init__(daemon=True)
        self.api, self.sale, self.nights = walk.api, walk.sale, nights
        self.stopping = threading.Event()
        self.answers = []
        self.booked = []  # (night, create sent at) of each accepted create
        self.confirmed = []  # (vendor booking number, confirm sent at)

    def run(self):
        for index, night in enumerate(self.nights):
            if self.stopping.is_set():
                return
            sent_at = time.time()
            status, answer = self.api.call(
                "POST", "/bookings", create_body(self.sale, checkin=night, number=f"O{index}")
            )
            self.answers.append(Answer(sent_at, "create", status, _code(answer)))
            if status == 200:
                self.booked.append((night, sent_at))
                number, sent_at = answer["vendor_booking_number"], time.time()
                status, answer = self.api.call("PUT", f"/bookings/{number}/confirm")
                self.answers.append(Answer(sent_at, "confirm", status, _code(answer)))
                if status == 200 and answer.get("status") == "confirmed":
                    self.confirmed.append((number, sent_at))
            self.stopping.wait(PACE_SECONDS)


class Walk:
    """The steps, in order, and what each leaves for the next."""

    def __init__(self, deployment):
        self.deployment = deployment
        self.api = deployment.vendor_api()
        self.today = datetime.datetime.now(tz=KOREA).date()

    def _mail_arrived(self, numbers, timeout):
        """Wait until the manager has a booking e-mail naming each of numbers (written by the worker)."""

        def missing():
            subjects = [mail["subject"] for mail in self.deployment.mails() if MANAGER_EMAIL in mail["to"]]
            return [number for number in numbers if not any(number in subject for subject in subjects)]

        wait_until(
            lambda: (
                f"no booking e-mail to {MANAGER_EMAIL} in {self.deployment.mail_folder} within {timeout:.0f} s "
                f"for {len(missing())} of {len(numbers)} confirmed bookings: {missing()[:5]}"
            ),
            lambda: not missing(),
            timeout,
        )

    # --- 1 ------------------------------------------------------------------------------------------------

    def healthz_and_setup(self):
        def healthy():
            self.deployment.require_alive()
            try:
                return requests.get(self.deployment.url("/healthz"), timeout=5).status_code == 200
            except requests.RequestException:
                return False

        wait_until("/healthz answering 200", healthy, START_SECONDS)
        self.sale = self.deployment.probe(
            "seed", password=PASSWORD, manager_email=MANAGER_EMAIL, rateplan=RATEPLAN, days=NIGHTS_AHEAD
        )
        self.sale |= self.deployment.probe(
            "channel_open",
            property_id=self.sale["property_id"],
            rateplan_id=RATEPLAN,
            channel_id=CHANNEL,
            timeout=SYNC_SECONDS,
        )
        self.deployment.probe("synced", environment="staging", timeout=SYNC_SECONDS)
        self._hub_holds("staging")

    def _hub_holds(self, hub):
        self.deployment.probe(
            "hub_holds",
            hub=hub,
            property_id=self.sale["property_id"],
            roomtype_id=self.sale["roomtype_id"],
            rateplan_ids=[RATEPLAN],
            korean_name=KOREAN_NAME,
        )

    # --- 2 ------------------------------------------------------------------------------------------------

    def booking(self):
        tomorrow = self.today + datetime.timedelta(days=1)
        status, created = self.api.call("POST", "/bookings", create_body(self.sale, checkin=tomorrow, number="S2"))
        if status != 200:
            raise StepFailure(f"the create answered {status}: {created}")
        self.number = created["vendor_booking_number"]
        status, confirmed = self.api.call("PUT", f"/bookings/{self.number}/confirm")
        if status != 200 or confirmed.get("status") != "confirmed":
            raise StepFailure(f"the confirm of {self.number} answered {status}: {confirmed}")

    def booking_email(self):
        self._mail_arrived([self.number], MAIL_SECONDS)

    # --- 3 ------------------------------------------------------------------------------------------------

    def reconciliation(self):
        browser = self.deployment.browser()
        browser.log_in(self.sale["manager"], PASSWORD)
        report = browser.submit(
            "/admin/settlement/reconciliation/add/",
            {
                "property": str(self.sale["property_pk"]),
                "basis": "checkin",
                "date_from": self.today.isoformat(),
                "date_to": (self.today + datetime.timedelta(days=30)).isoformat(),
            },
        )
        if not report.endswith("/change/"):
            raise StepFailure(f"asking for a reconciliation led to {report}, not its report")
        progress = report.removesuffix("change/") + "progress/"
        seen = {}

        def finished():
            seen.update(browser.get(progress).json())
            return seen["status"] in ("done", "failed")

        wait_until(
            lambda: f"the reconciliation at {report} is still {seen} after {RUN_SECONDS} s", finished, RUN_SECONDS
        )
        if seen["status"] != "done":
            raise StepFailure(f"the reconciliation at {report} failed: {seen}")
        if self.number not in browser.get(report).text:
            raise StepFailure(f"the report at {report} does not list booking {self.number}")

    # --- 4 ------------------------------------------------------------------------------------------------

    def switch_to_production(self):
        self.superuser = self.deployment.browser()
        self.superuser.log_in(self.sale["superuser"], PASSWORD)
        landed = self.superuser.submit("/admin/integration/hubswitch/switch/", {"confirm": "on"})
        if not landed.endswith("/progress/"):
            raise StepFailure(f"the switch led to {landed}, not its progress")

    def production_synced(self):
        self.deployment.probe("synced", environment="production", timeout=SYNC_SECONDS)
        self._hub_holds("production")

    def production_channel(self):
        """The production hub knows no request of ours: the manager asks it for the channel again."""
        self.deployment.probe(
            "channel_open",
            property_id=self.sale["property_id"],
            rateplan_id=RATEPLAN,
            channel_id=CHANNEL,
            timeout=SYNC_SECONDS,
            hub="production",
            ask=True,
        )

    # --- 5 ------------------------------------------------------------------------------------------------

    def content_edit(self):
        page = f"/admin/integration/property/{self.sale['property_pk']}/change/"
        _action, fields = self.superuser.form(page)
        korean = next((name for name, value in fields if name.endswith("-locale") and value == "ko-KR"), None)
        if korean is None:
            raise StepFailure(f"{page} has no ko-KR translation to edit")
        text = f"여정 시험에서 고친 소개 {secrets.token_hex(4)}"
        self.superuser.submit(page, {korean.removesuffix("locale") + "description": text})
        self.deployment.probe(
            "hub_property_text",
            hub="production",
            property_id=self.sale["property_id"],
            locale="ko-KR",
            field="description",
            expected=text,
            timeout=SYNC_SECONDS,
        )

    # --- 6 ------------------------------------------------------------------------------------------------

    def redis_outage(self):
        nights = [self.today + datetime.timedelta(days=n) for n in range(2, NIGHTS_AHEAD + 1)]
        self.traffic = Traffic(self, nights)
        self.traffic.start()
        try:
            wait_until("the hub's first calls answered", lambda: len(self.traffic.answers) >= 2, 30)
            self.killed_at = time.time()
            self.deployment.redis.kill()
            print(f"journey: Redis killed; starting it again, empty, in {OUTAGE_SECONDS} s")
            # The outage lasts what the issue says, whatever happens meanwhile: its length is the test.
            time.sleep(OUTAGE_SECONDS)
            self.deployment.redis.start()
            self.back_at = time.time()
            # Followed from now on (in a thread of its own: the hub goes on calling meanwhile).
            recovery = ThreadPoolExecutor(max_workers=1)
            self.recovery = recovery.submit(
                self.deployment.probe,
                "availability_at_hub",
                hub="production",
                property_id=self.sale["property_id"],
                roomtype_id=self.sale["roomtype_id"],
                days=NIGHTS_AHEAD,
                timeout=RECOVERY_SECONDS,
            )
            recovery.shutdown(wait=False)
            time.sleep(AFTER_SECONDS)  # the hub goes on calling a while after Redis is back
        finally:
            self.traffic.stopping.set()
            self.traffic.join()
        if not self.traffic.answers:
            raise StepFailure("the hub's calls got no answer at all")

    def outage_answers(self):
        answers = self.traffic.answers
        during = [answer for answer in answers if self.killed_at <= answer.sent_at < self.back_at]
        kept = [answer for answer in during if answer.follows_contract]
        crashes = [answer for answer in answers if answer.crashed]
        broken = [answer for answer in answers if answer.broken]
        share = 100 * len(kept) / len(during) if during else 0
        print(
            f"journey: vendor API answers during the outage that follow the contract: {len(kept)} of {len(during)} "
            f"({share:.0f} %, goal 100 %); over the whole step {len(answers)} answers, {len(crashes)} x 1000, "
            f"{len(broken)} x 5xx or none"
        )
        bad = [answer for answer in answers if not answer.follows_contract]
        if bad:
            kinds = sorted({(answer.operation, answer.status, answer.code) for answer in bad}, key=str)
            raise StepFailure(
                f"{len(bad)} of {len(answers)} answers broke the contract ({len(crashes)} x 1000, {len(broken)} x 5xx "
                f"or none; {len(during) - len(kept)} of the {len(during)} sent during the outage): "
                f"(operation, HTTP status, code) {kinds}"
            )

    def processes_alive(self):
        self.deployment.require_alive()

    def _during_outage(self, events):
        return [event for event, sent_at in events if self.killed_at <= sent_at < self.back_at]

    def outage_changes_at_hub(self):
        seen = self.recovery.result()
        print(
            f"journey: from Redis coming back to the last pending change at the hub: "
            f"{seen['seen_at'] - self.back_at:.1f} s (goal <= 30 s; polled from about 2 s after)"
        )
        if not self._during_outage(self.traffic.booked):
            raise StepFailure("no create was accepted during the outage: it made no change to follow")

    def outage_emails(self):
        if not self._during_outage(self.traffic.confirmed):
            raise StepFailure("no booking was confirmed during the outage: its e-mails cannot be followed")
        numbers = [number for number, _sent_at in self.traffic.confirmed]
        self._mail_arrived(numbers, max(self.back_at + RECOVERY_SECONDS - time.time(), 1))


def test_a_deployed_product_serves_the_hub_managers_and_superusers_through_a_redis_outage(deployment):
    walk = Walk(deployment)
    steps = [
        # (name, step, whether the later steps need it)
        ("1. /healthz, the demo property set up and synced to the staging hub", walk.healthz_and_setup, True),
        ("2. a signed create and confirm through the vendor API", walk.booking, True),
        ("2. the booking e-mail, written by the worker", walk.booking_email, False),
        ("3. a manager's reconciliation from the settlement screen reaching done", walk.reconciliation, False),
        ("4. a superuser's switch to the production hub from the admin", walk.switch_to_production, True),
        ("4. every resource synced at the production hub", walk.production_synced, False),
        ("4. the channel asked for again at the production hub, and selling there", walk.production_channel, True),
        ("5. a content edit through the admin form, at the production hub", walk.content_edit, False),
        ("6. Redis killed and started again empty while the hub sends creates and confirms", walk.redis_outage, True),
        ("6. every vendor API answer of the outage follows the contract (no 1000, no 5xx)", walk.outage_answers, False),
        ("6. every process of the Procfile still running after the outage", walk.processes_alive, False),
        ("6. every change made during the outage at the hub", walk.outage_changes_at_hub, False),
        ("6. every e-mail of a booking confirmed during the outage written", walk.outage_emails, False),
    ]
    failures = []
    for index, (name, step, needed_later) in enumerate(steps):
        started = time.monotonic()
        try:
            step()
        except (StepFailure, AssertionError, requests.RequestException, KeyError, ValueError) as error:
            failures.append(f"step {name}: FAILED: {error}")
            print(f"journey: step {name}: FAILED after {time.monotonic() - started:.1f} s: {error}")
            if needed_later:
                failures += [f"step {later}: not run (it needs the step above)" for later, *_ in steps[index + 1 :]]
                break
        else:
            print(f"journey: step {name}: passed in {time.monotonic() - started:.1f} s")
    if failures:
        logs = f"(the whole logs: {deployment.folder})"
        pytest.fail("\n".join([*failures, deployment.tails(), logs]), pytrace=False)
