"""Settings for vendorhub, read from the environment (and a development checkout's .env).

Every service has an embedded default for development (SQLite, a filesystem Celery broker, a
local-memory cache, the built-in hub sandbox). Production (DJANGO_DEBUG false) has no defaults for
secrets and refuses to start without them. docs/operator/configuration.md lists every variable.
"""

from datetime import timedelta
from pathlib import Path

import environ
from celery.schedules import crontab
from csp.constants import NONE, SELF
from django.core.exceptions import ImproperlyConfigured
from django.utils.translation import gettext_lazy as _
from kombu import Queue

BASE_DIR = Path(__file__).resolve().parent.parent
VAR_DIR = BASE_DIR / "var"

env = environ.Env()
# A development checkout keeps its settings in .env (`make setup` writes it), so that manage.py run by hand
# finds what `make run` gave its processes; production has no such file. A variable of the environment
# wins over the file; DJANGO_ENV_FILE names another file, or none when empty (the tests read none).
_ENV_FILE = env.str("DJANGO_ENV_FILE", default=str(BASE_DIR / ".env"))
if _ENV_FILE:
    environ.Env.read_env(_ENV_FILE)

DEBUG = env.bool("DJANGO_DEBUG", default=False)


def _required_in_production(name, development_default):
    """Return the variable, or its development default; in production a missing value stops start-up."""
    value = env.str(name, default="")
    if value:
        return value
    if DEBUG:
        return development_default
    raise ImproperlyConfigured(f"{name} must be set when DJANGO_DEBUG is false (production mode).")


# --- Core -------------------------------------------------------------------------------------

SECRET_KEY = _required_in_production("DJANGO_SECRET_KEY", "django-insecure-vendorhub-development-only")
ALLOWED_HOSTS = env.list("DJANGO_ALLOWED_HOSTS", default=["127.0.0.1", "localhost"] if DEBUG else [])
if not DEBUG and not ALLOWED_HOSTS:
    raise ImproperlyConfigured("DJANGO_ALLOWED_HOSTS must be set when DJANGO_DEBUG is false (production mode).")
CSRF_TRUSTED_ORIGINS = env.list("DJANGO_CSRF_TRUSTED_ORIGINS", default=[])

INSTALLED_APPS = [
    "config.apps.VendorhubAdminConfig",
    "config.apps.VendorhubConfig",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "django.contrib.staticfiles",
    "rest_framework",
    "drf_spectacular",
    "drf_spectacular_sidecar",
    "csp",
    "django_otp",
    # django-otp's and django-axes' apps, named in the user's language (accounts.apps).
    "accounts.apps.AuthenticatorAppsConfig",
    "accounts.apps.RecoveryCodesConfig",
    "accounts.apps.LoginAttemptsConfig",
    "core",
    "integration",
    "licenses",
    "bookings",
    "bookings.settlement",
    "bookings.reports",
    # Above the apps it reads (integration, licenses, bookings): composes and registers the property admin.
    "golive",
    # Above the apps that send it their events (integration, licenses, bookings).
    "inbox",
    # After axes: it re-registers axes' screen of failed logins with an unlock action.
    "accounts",
]

HUB_SANDBOX_ENABLED = env.bool("HUB_SANDBOX_ENABLED", default=False)
#: This server in development (`make run` serves on PORT): the default of the sandbox's URLs and SITE_URL.
#: `make run` sets it once for web, worker and beat, since honcho gives each process its own PORT.
LOCAL_ORIGIN = env.str("LOCAL_ORIGIN", default=f"http://127.0.0.1:{env.int('PORT', default=8000)}").rstrip("/")
#: Where the sandbox, selling as the hub would (manage.py sandbox_sell), calls our vendor API.
HUB_SANDBOX_VENDOR_URL = env.str("HUB_SANDBOX_VENDOR_URL", default=LOCAL_ORIGIN).rstrip("/")
#: How often the sandbox sells a room as the hub would, so that the demo shows bookings arriving
#: (seconds; 0: never).
HUB_SANDBOX_SELL_SECONDS = env.float("HUB_SANDBOX_SELL_SECONDS", default=120.0)
#: Seconds after which the sandbox reviews a channel open request by itself, as the channel's automatic
#: review says (negative: only the sandbox admin reviews).
HUB_SANDBOX_CHANNEL_REVIEW_SECONDS = env.float("HUB_SANDBOX_CHANNEL_REVIEW_SECONDS", default=30.0)
if HUB_SANDBOX_ENABLED:
    INSTALLED_APPS.append("hubsandbox")

MIDDLEWARE = [
    # First: every answer and log line of the request carries its id, redirects and refusals included.
    "core.request_id.RequestIdMiddleware",
    "django.middleware.security.SecurityMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.locale.LocaleMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    # Whether the session passed a second factor; no admin page before it for those who need one.
    "django_otp.middleware.OTPMiddleware",
    "accounts.middleware.SecondFactorMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    # The Content-Security-Policy header on every answer (CONTENT_SECURITY_POLICY below).
    "csp.middleware.CSPMiddleware",
    # Last, as django-axes requires: it answers a locked-out login.
    "axes.middleware.AxesMiddleware",
]

if not DEBUG:
    # gunicorn serves the collected static files itself; runserver does it in development.
    MIDDLEWARE.insert(2, "whitenoise.middleware.WhiteNoiseMiddleware")

ROOT_URLCONF = "config.urls"
WSGI_APPLICATION = "config.wsgi.application"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.template.context_processors.i18n",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
                "config.help.admin_help",
                "config.version.version",
            ],
        },
    },
]

# --- Data and services ------------------------------------------------------------------------

DATABASES = {"default": env.db("DATABASE_URL", default=f"sqlite:///{VAR_DIR / 'vendorhub.sqlite3'}")}
if DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3":
    VAR_DIR.mkdir(exist_ok=True)
    # The web server, the worker and beat share one file: wait for locks instead of failing, and let
    # readers run beside a writer.
    DATABASES["default"]["OPTIONS"] = {
        "timeout": 20,
        "transaction_mode": "IMMEDIATE",
        "init_command": "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL;",
    }
else:
    DATABASES["default"]["CONN_MAX_AGE"] = env.int("DATABASE_CONN_MAX_AGE", default=60)
    DATABASES["default"]["CONN_HEALTH_CHECKS"] = True
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

# The drift check's pacing lock (one runner at a time) lives in the cache, and /healthz checks it:
# production needs one shared by every process (Redis), not the per-process local memory of development.
# The vendor API does not use it (its replay check is in the database).
CACHES = {"default": env.cache_url_config(_required_in_production("CACHE_URL", "locmemcache://vendorhub"))}

# Celery: Redis when CELERY_BROKER_URL is given, otherwise kombu's filesystem transport, which needs
# no server and still runs the worker as a real, separate process.
CELERY_BROKER_URL = env.str("CELERY_BROKER_URL", default="filesystem://localhost/")
CELERY_BROKER_FOLDER = VAR_DIR / "broker"
if CELERY_BROKER_URL.startswith("filesystem://"):
    for _folder in ("queue", "control"):
        (CELERY_BROKER_FOLDER / _folder).mkdir(parents=True, exist_ok=True)
    # kombu's transport, each message written whole before a worker can take it (core.background.filebroker).
    CELERY_BROKER_TRANSPORT = "core.background.filebroker:Transport"
    CELERY_BROKER_TRANSPORT_OPTIONS = {
        "data_folder_in": str(CELERY_BROKER_FOLDER / "queue"),
        "data_folder_out": str(CELERY_BROKER_FOLDER / "queue"),
        "control_folder": str(CELERY_BROKER_FOLDER / "control"),
        "store_processed": False,
        # The folder is polled; a short interval keeps the admin's "pending" short in development.
        "polling_interval": 0.2,
    }
else:
    # No ack emulation: a message leaves Redis when a worker takes it. What must happen does not depend on
    # Redis giving a message back (a Redis restarted empty has none to give): hub sends and durable jobs are
    # rows that the sweepers queue again (docs/operator/processes.md). With the emulation,
    # kombu 5.7 kills the worker when Redis goes away while it holds a message (restoring it on a closed
    # connection), and a delayed message outliving the visibility timeout is delivered twice.
    CELERY_BROKER_TRANSPORT_OPTIONS = {"ack_emulation": False}
CELERY_BROKER_CONNECTION_RETRY_ON_STARTUP = True
# A worker outlives a broker restart: it reconnects for as long as the broker is away (Celery gives up
# after 100 tries by default, and the process exits), and the supervisor restarts it if it dies anyway
# (docs/operator/install.md).
CELERY_BROKER_CONNECTION_MAX_RETRIES = None
# A message is acknowledged only after its task has run, and given back to the queue when one of the
# worker's processes dies in the middle of it (when the whole worker dies, the rows bring its work back).
CELERY_TASK_ACKS_LATE = True
CELERY_TASK_REJECT_ON_WORKER_LOST = True
CELERY_WORKER_PREFETCH_MULTIPLIER = 1
CELERY_TASK_IGNORE_RESULT = True
# Celery's Django fixup closes the database connection around every task unless told to reuse it: a new
# PostgreSQL connection (and server process) per hub send, 7 % of a worker's CPU (bench.estate). Reused, it
# is closed every so many tasks, and each task starts as a web request does (config.celery): a connection
# that failed, outlived CONN_MAX_AGE or no longer answers (CONN_HEALTH_CHECKS) is replaced.
CELERY_DB_REUSE_MAX = 1000
# Four queues, so that neither bulk work nor a backlog of e-mails holds the worker slots that hub sends
# wait for, and hub sends do not hold the e-mails' (docs/operator/processes.md): Procfile's `worker`
# takes hub and bookings (the hold expiry and the hub sweeper: short periodic work that must wait behind
# neither a backlog of sends, e-mails nor bulk work), `jobs` the e-mails and the job sweeper, `bulk` the
# rest. Routed by task name (core.background.queue's send_task honours the routes); a task named nowhere
# goes to bulk.
TASK_QUEUES_BY_NAME = {
    "hub": [
        "integration.sync.tasks.sync_resource_task",
        "integration.sync.tasks.sync_switch_publish_task",
        "integration.sync.tasks.sync_resume_publish_task",
    ],
    # The sweeper behind a resync's backlog on `hub` would run a minute late, and take the sends still waiting
    # in the worker for lost.
    "bookings": ["bookings.tasks.bookings_release_expired_task", "integration.sync.tasks.sync_sweeper_task"],
    "jobs": [
        "bookings.tasks.booking_notify_task",
        "bookings.tasks.booking_email_send_task",
        "inbox.tasks.event_notify_task",
        "inbox.tasks.event_email_send_task",
        "core.tasks.job_sweeper_task",
    ],
    "bulk": [
        "bookings.settlement.tasks.reconciliation_run_task",
        "bookings.settlement.tasks.reconciliations_nightly_task",
        "integration.drift.tasks.drift_checks_run_task",
        "integration.drift.tasks.drift_checks_weekly_task",
        "integration.catalog.tasks.catalog_refresh_task",
        "integration.channels.tasks.sales_channels_refresh_task",
        "integration.channels.tasks.property_channels_refresh_task",
        "integration.channels.tasks.property_channels_refresh_requested_task",
        "licenses.tasks.license_requests_refresh_task",
        "licenses.tasks.license_requests_refresh_open_task",
        "integration.sync.tasks.sync_attempts_purge_task",
        "integration.ari.tasks.ari_history_purge_task",
        "integration.ari.tasks.ari_import_check_task",
        "integration.ari.tasks.ari_import_apply_task",
        "integration.ari.tasks.ari_cutoffs_push_task",
        "integration.ari.tasks.ari_lead_days_nightly_task",
        "integration.ari.tasks.ari_horizon_nightly_task",
        "integration.ari.tasks.ari_horizon_check_nightly_task",
        "bookings.tasks.inbound_calls_purge_task",
        "bookings.tasks.seen_webhooks_purge_task",
        "inbox.tasks.events_purge_task",
        "core.tasks.sent_mails_purge_task",
        "hubsandbox.tasks.sandbox_sell_task",
        "golive.tasks.backup_nightly_task",
    ],
}
CELERY_TASK_ROUTES = {name: {"queue": queue} for queue, names in TASK_QUEUES_BY_NAME.items() for name in names}
# A worker started without -Q takes every queue (a small install runs one such worker).
CELERY_TASK_QUEUES = [Queue(name) for name in TASK_QUEUES_BY_NAME]
CELERY_TASK_DEFAULT_QUEUE = "bulk"
# Every task has a time limit: the soft one raises in the task (which may still record what it did), the
# hard one kills its process. These are the defaults; the hub send, the reconciliation and the drift
# runner set their own, and every lease outlives its task's hard limit (tests/core/test_time_limits.py).
CELERY_TASK_SOFT_TIME_LIMIT = 4 * 60
CELERY_TASK_TIME_LIMIT = 5 * 60
# A worker and its processes run at this niceness (config.celery): where they share the cores with the
# web process, the vendor API's requests take the CPU first while a big drain of hub sends runs
# (docs/operator/processes.md). On a machine of its own a worker loses nothing by it.
WORKER_NICENESS = env.int("WORKER_NICENESS", default=10)
CELERY_TASK_ALWAYS_EAGER = env.bool("CELERY_TASK_ALWAYS_EAGER", default=False)
#: Seconds between two runs of each sweeper (the hub sync's and the durable jobs').
SWEEP_SECONDS = 5.0
CELERY_BEAT_SCHEDULE = {
    # Queues again the sends a dead worker left: with a lease of one hub call (HUB_CONNECT_TIMEOUT +
    # HUB_READ_TIMEOUT + 10 s) and this interval, another worker takes them over within about a minute.
    # Every 5 s, so that a Redis back empty is noticed, and a healed hub probed, well within 30 s: a sweep
    # with nothing to do is two Redis calls and a few indexed reads (docs/operator/processes.md).
    "hub-sync-sweeper": {"task": "integration.sync.tasks.sync_sweeper_task", "schedule": SWEEP_SECONDS},
    # The same for durable jobs (booking e-mails, reconciliations, read-backs a screen asked for): queued
    # again when the broker was down, lost their message or their worker died (core.background.jobs).
    "job-sweeper": {"task": "core.tasks.job_sweeper_task", "schedule": SWEEP_SECONDS},
    "hub-sync-log-purge": {"task": "integration.sync.tasks.sync_attempts_purge_task", "schedule": 24 * 60 * 60.0},
    "ari-history-purge": {"task": "integration.ari.tasks.ari_history_purge_task", "schedule": 24 * 60 * 60.0},
    # The same-day cut-offs: checked every minute, each property's today closed at the hub once a day.
    "ari-cutoffs-push": {"task": "integration.ari.tasks.ari_cutoffs_push_task", "schedule": 60.0},
    # Just after midnight (Korea time): the day each channel's lead days reach closes on it, and the day that
    # comes within ARI_HORIZON_DAYS opens and is pushed; the check of what the hub holds runs once they are sent.
    "ari-lead-days-nightly": {
        "task": "integration.ari.tasks.ari_lead_days_nightly_task",
        "schedule": crontab(hour=0, minute=1),
    },
    "ari-horizon-nightly": {
        "task": "integration.ari.tasks.ari_horizon_nightly_task",
        "schedule": crontab(hour=0, minute=5),
    },
    "ari-horizon-check-nightly": {
        "task": "integration.ari.tasks.ari_horizon_check_nightly_task",
        "schedule": crontab(hour=2, minute=15),
    },
    # The hub's code catalog changes rarely; a daily fetch keeps the tag pickers and checks current.
    "hub-catalog-refresh": {"task": "integration.catalog.tasks.catalog_refresh_task", "schedule": 24 * 60 * 60.0},
    # The hub's sales channels change rarely: read the list daily (and by the admin's button). A property
    # with a request to open a channel under review has its statuses read every minute (two small GETs),
    # so that an approved channel opens, with what was prepared for it, soon after the review.
    "hub-channels-refresh": {
        "task": "integration.channels.tasks.sales_channels_refresh_task",
        "schedule": 24 * 60 * 60.0,
    },
    "hub-channel-requests-refresh": {
        "task": "integration.channels.tasks.property_channels_refresh_requested_task",
        "schedule": 60.0,
    },
    # People review licenses at the hub: reading back the requests under review every 10 minutes is enough.
    # Reads every property's content back from the hub, paced (HUB_DRIFT_RATE), and reports what drifted.
    "hub-drift-check": {"task": "integration.drift.tasks.drift_checks_weekly_task", "schedule": 7 * 24 * 60 * 60.0},
    "hub-license-refresh": {"task": "licenses.tasks.license_requests_refresh_open_task", "schedule": 10 * 60.0},
    # Pending holds older than BOOKING_HOLD_MINUTES are released within a minute of expiring.
    "bookings-release-expired": {"task": "bookings.tasks.bookings_release_expired_task", "schedule": 60.0},
    "bookings-call-log-purge": {"task": "bookings.tasks.inbound_calls_purge_task", "schedule": 24 * 60 * 60.0},
    # The vendor API's replay check needs each webhook-id 10 minutes (bookings.services.WEBHOOK_IDS_KEPT);
    # an hourly purge keeps its table to about an hour of calls.
    "bookings-seen-webhooks-purge": {"task": "bookings.tasks.seen_webhooks_purge_task", "schedule": 60 * 60.0},
    # Read inbox events a month after they last happened, every event after a year (inbox.services).
    "inbox-purge": {"task": "inbox.tasks.events_purge_task", "schedule": 24 * 60 * 60.0},
    # The records of the e-mails sent (one e-mail per event and person, core.mail) after a month.
    "sent-mails-purge": {"task": "core.tasks.sent_mails_purge_task", "schedule": 24 * 60 * 60.0},
    # The previous month's settlement, reconciled every night (Korea time) once the hub has settled the day.
    "settlement-reconcile-nightly": {
        "task": "bookings.settlement.tasks.reconciliations_nightly_task",
        "schedule": crontab(hour=4, minute=30),
    },
}
if HUB_SANDBOX_ENABLED and HUB_SANDBOX_SELL_SECONDS > 0:
    CELERY_BEAT_SCHEDULE["sandbox-sell"] = {
        "task": "hubsandbox.tasks.sandbox_sell_task",
        "schedule": HUB_SANDBOX_SELL_SECONDS,
    }
# The nightly backup (golive.backup; docs/operator/backup.md) into BACKUP_DIR, on the machine of
# the bulk worker, keeping the newest BACKUP_KEEP archives; none without BACKUP_DIR. Korea time, before the
# settlement's reconciliation.
BACKUP_DIR = env.str("BACKUP_DIR", default="")
BACKUP_KEEP = env.int("BACKUP_KEEP", default=7)
if BACKUP_DIR:
    CELERY_BEAT_SCHEDULE["backup-nightly"] = {
        "task": "golive.tasks.backup_nightly_task",
        "schedule": crontab(hour=3, minute=0),
    }
# Publishing must not hang a request when the broker is down: the outbox row stays pending and the
# sweeper queues it once the broker is back.
CELERY_TASK_PUBLISH_RETRY_POLICY = {"max_retries": 2, "interval_start": 0, "interval_step": 0.2, "interval_max": 0.5}
CELERY_BROKER_CONNECTION_TIMEOUT = 2
CELERY_TIMEZONE = "Asia/Seoul"
# Beat writes a heartbeat at every tick, for the deep health check (core.background.heartbeat).
CELERY_BEAT_SCHEDULER = "core.background.heartbeat:HeartbeatScheduler"

# --- The hub and the vendor API ---------------------------------------------------------------

_SANDBOX_HUB_URL = f"{LOCAL_ORIGIN}/sandbox"
HUB_BASE_URL = _required_in_production("HUB_BASE_URL", _SANDBOX_HUB_URL).rstrip("/")
HUB_API_TOKEN = _required_in_production("HUB_API_TOKEN", "sandbox-hub-token")
# The production hub (docs/operator/configuration.md): HUB_BASE_URL and HUB_API_TOKEN above are the staging hub a
# vendor connects to first; the switch to production (manage.py hub_environment) needs these two. In
# development the sandbox stands in for it under another prefix, with its own token and its own state.
HUB_PRODUCTION_BASE_URL = env.str(
    "HUB_PRODUCTION_BASE_URL", default=f"{_SANDBOX_HUB_URL}/production" if DEBUG else ""
).rstrip("/")
HUB_PRODUCTION_API_TOKEN = env.str("HUB_PRODUCTION_API_TOKEN", default="sandbox-production-hub-token" if DEBUG else "")
HUB_AUTH_SCHEME = env.str("HUB_AUTH_SCHEME", default="")
HUB_CONNECT_TIMEOUT = env.float("HUB_CONNECT_TIMEOUT", default=5.0)
HUB_READ_TIMEOUT = env.float("HUB_READ_TIMEOUT", default=30.0)

# The sync to the hub: edits within the coalescing window go out as one request; retries back off
# exponentially from the base to the cap, for as long as the hub fails (only its refusal, a 4xx, fails a
# resource); the sweeper probes a hub that fails, and the first success queues every waiting retry.
HUB_SYNC_COALESCE_SECONDS = env.float("HUB_SYNC_COALESCE_SECONDS", default=2.0)
HUB_SYNC_BACKOFF_BASE = env.float("HUB_SYNC_BACKOFF_BASE", default=2.0)
HUB_SYNC_BACKOFF_CAP = env.float("HUB_SYNC_BACKOFF_CAP", default=15 * 60.0)
# The request budget per property and minute at the hub (decision 0022), per kind: rate requests, availability
# requests, and every other call about one property (content, reads included). 0 turns a budget off; in
# production set the hub's published limit (Channex: 10 rates and 10 availability). Shared by every process
# (Redis when CELERY_BROKER_URL names it, else the database); a send waits for its slot instead of earning a 429.
HUB_BUDGET_RATES_PER_MINUTE = env.int("HUB_BUDGET_RATES_PER_MINUTE", default=0)
HUB_BUDGET_AVAILABILITY_PER_MINUTE = env.int("HUB_BUDGET_AVAILABILITY_PER_MINUTE", default=0)
HUB_BUDGET_CONTENT_PER_MINUTE = env.int("HUB_BUDGET_CONTENT_PER_MINUTE", default=0)
# The sync log's attempts are kept this many days (0: for ever), then deleted by a daily task.
HUB_SYNC_LOG_DAYS = env.int("HUB_SYNC_LOG_DAYS", default=90)
# The drift check reads the hub at most this many requests per second, across all checks; a 429 or an
# outage is tried this many times (waiting Retry-After), and a wait longer than HUB_DRIFT_MAX_WAIT
# seconds stops the check instead of holding a worker.
HUB_DRIFT_RATE = env.float("HUB_DRIFT_RATE", default=2.0)
HUB_DRIFT_MAX_TRIES = env.int("HUB_DRIFT_MAX_TRIES", default=5)
HUB_DRIFT_MAX_WAIT = env.float("HUB_DRIFT_MAX_WAIT", default=300.0)

VENDOR_API_TOKEN = _required_in_production("VENDOR_API_TOKEN", "sandbox-vendor-token")
# Several secrets, comma-separated, are accepted at once while one is being rotated.
VENDOR_API_SECRETS = [
    secret.strip()
    for secret in _required_in_production("VENDOR_API_SECRET", "whsec_c2FuZGJveC12ZW5kb3Itc2lnbmluZy1zZWNyZXQ=").split(
        ","
    )
    if secret.strip()
]
VENDOR_API_ALLOWED_IPS = env.list("VENDOR_API_ALLOWED_IPS", default=[])
BOOKING_HOLD_MINUTES = env.int("BOOKING_HOLD_MINUTES", default=30)
# The vendor API's call log is kept this many days (0: for ever), then deleted by a daily task.
VENDOR_API_CALL_LOG_DAYS = env.int("VENDOR_API_CALL_LOG_DAYS", default=180)
# The call log grows by a few megabytes a day with a hub's calls; more than this in 24 hours (a flood of
# refused calls from many addresses) names it "growing" in the deep health check.
VENDOR_API_CALL_LOG_MAX_MB_PER_DAY = env.int("VENDOR_API_CALL_LOG_MAX_MB_PER_DAY", default=200)
# The history of rates and availability (each change and its cells) is kept this many days (0: for ever).
ARI_HISTORY_DAYS = env.int("ARI_HISTORY_DAYS", default=400)
# Rates and availability are kept at the hub this many days ahead, today included: each night the day that
# comes within it opens from the defaults and is pushed (integration.ari.services.horizon).
ARI_HORIZON_DAYS = env.int("ARI_HORIZON_DAYS", default=365)
if not 1 <= ARI_HORIZON_DAYS <= 731:
    raise ImproperlyConfigured("ARI_HORIZON_DAYS must be between 1 and 731 (the hub's window).")

# --- E-mail (booking notifications) -------------------------------------------------------------

# EMAIL_URL (django-environ: smtp://user:password@host:25, smtp+tls://...:587, smtp+ssl://...:465,
# consolemail://) wins; without it the EMAIL_* variables configure Django's SMTP backend. Development
# prints mails on the console unless told otherwise.
EMAIL_URL = env.str("EMAIL_URL", default="")
if EMAIL_URL:
    vars().update(env.email_url_config(EMAIL_URL))
else:
    EMAIL_BACKEND = env.str(
        "EMAIL_BACKEND",
        default="django.core.mail.backends.console.EmailBackend"
        if DEBUG
        else "django.core.mail.backends.smtp.EmailBackend",
    )
    EMAIL_HOST = env.str("EMAIL_HOST", default="localhost")
    EMAIL_PORT = env.int("EMAIL_PORT", default=25)
    EMAIL_HOST_USER = env.str("EMAIL_HOST_USER", default="")
    EMAIL_HOST_PASSWORD = env.str("EMAIL_HOST_PASSWORD", default="")
    EMAIL_USE_TLS = env.bool("EMAIL_USE_TLS", default=False)
    EMAIL_USE_SSL = env.bool("EMAIL_USE_SSL", default=False)
    # Django's file backend (django.core.mail.backends.filebased.EmailBackend) writes the mails here.
    EMAIL_FILE_PATH = env.str("EMAIL_FILE_PATH", default=str(VAR_DIR / "mail"))
# A stalled SMTP server fails the send (which the task retries) instead of holding a worker.
EMAIL_TIMEOUT = env.int("EMAIL_TIMEOUT", default=10)
DEFAULT_FROM_EMAIL = env.str("DEFAULT_FROM_EMAIL", default="vendorhub <noreply@localhost>")
#: The back office's address, for the links in e-mails: in production https:// and the first allowed host.
SITE_URL = env.str(
    "SITE_URL", default=LOCAL_ORIGIN if DEBUG or not ALLOWED_HOSTS else f"https://{ALLOWED_HOSTS[0]}"
).rstrip("/")

# --- Authentication, internationalisation, static files ----------------------------------------

# The login's lockout (accounts.lockout, on django-axes' records of failed logins in the database, shared by
# every web process), all over one window of LOGIN_LOCKOUT_MINUTES (docs/operator/security.md):
#: Wrong passwords for one user name from one address that lock that pair (never the name elsewhere, never
#: the address's other people) for the window.
LOGIN_FAILURE_LIMIT = env.int("LOGIN_FAILURE_LIMIT", default=5)
#: The window: how long a lock lasts after the last failure, and how far back failures count.
LOGIN_LOCKOUT_MINUTES = env.int("LOGIN_LOCKOUT_MINUTES", default=15)
#: Different user names failing from one address that refuse the address until the window has passed.
LOGIN_ADDRESS_NAME_LIMIT = env.int("LOGIN_ADDRESS_NAME_LIMIT", default=10)
#: Different addresses failing for one user name that slow the name down (never lock it) and tell its owner.
LOGIN_NAME_ADDRESS_LIMIT = env.int("LOGIN_NAME_ADDRESS_LIMIT", default=5)
#: The wait between two tries of a slowed-down user name, in seconds.
LOGIN_NAME_WAIT_SECONDS = env.int("LOGIN_NAME_WAIT_SECONDS", default=10)
#: How long a browser that passed a person's second factor is exempt from the address's and the name's rules.
LOGIN_DEVICE_DAYS = env.int("LOGIN_DEVICE_DAYS", default=30)
AUTHENTICATION_BACKENDS = ["axes.backends.AxesStandaloneBackend", "django.contrib.auth.backends.ModelBackend"]
AXES_HANDLER = "accounts.lockout.LoginAttemptHandler"
AXES_FAILURE_LIMIT = LOGIN_FAILURE_LIMIT
AXES_COOLOFF_TIME = timedelta(minutes=LOGIN_LOCKOUT_MINUTES)
AXES_LOCKOUT_PARAMETERS = [["username", "ip_address"]]
AXES_RESET_ON_SUCCESS = True
# A try refused by a lock is not counted: hammering a lock does not prolong it, and a person refused while
# their name is slowed down does not lock themselves out.
AXES_RESET_COOL_OFF_ON_FAILURE_DURING_LOCKOUT = False
AXES_LOCKOUT_CALLABLE = "accounts.lockout.lockout_response"
AXES_CLIENT_IP_CALLABLE = "core.client_address.client_address"
# Quiet: no "AXES: BEGIN ..." banner at every manage.py, worker or web start, and the failure and lockout
# lines name only what is counted (user name, address), not the browser's user agent too.
AXES_VERBOSE = False
#: Proxies in front of the web server that append the client's address to X-Forwarded-For (the load
#: balancer in production; 0 without a proxy): the lockout, the vendor API's allow-list and its call log
#: count the address the nearest one saw (core.client_address; `check --deploy` warns on an unlikely value).
PROXY_COUNT = env.int("DJANGO_PROXY_COUNT", default=0 if DEBUG else 1)
# The second factor (django-otp): the name authenticator apps show beside the account.
OTP_TOTP_ISSUER = "vendorhub"
# django-otp's admin screens never show an app's key, its QR code or the recovery codes (only their owner
# sees them, once, when setting up).
OTP_ADMIN_HIDE_SENSITIVE_DATA = True
# After the login, and for a rejected next=: the dashboard (Django's default is /accounts/profile/, a 404).
LOGIN_URL = "admin:login"
LOGIN_REDIRECT_URL = "admin:index"

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]

LANGUAGE_CODE = "ko"
LANGUAGES = [("ko", _("Korean")), ("en", _("English"))]
LOCALE_PATHS = [BASE_DIR / "locale"]
TIME_ZONE = "Asia/Seoul"
USE_I18N = True
USE_TZ = True

STATIC_URL = "static/"
STATIC_ROOT = VAR_DIR / "static"
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {
        "BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"
        if DEBUG
        else "whitenoise.storage.CompressedManifestStaticFilesStorage"
    },
}
MEDIA_ROOT = VAR_DIR / "media"
# The documentation site `make docs` builds (mkdocs.yml's site_dir), served at /docs/ where it exists.
DOCS_SITE_DIR = VAR_DIR / "docs-site"
# License files (permits, business registrations): private, outside MEDIA_ROOT and any URL; only the
# admin's download view for the property's managers reads them.
LICENSE_FILES_ROOT = Path(env.str("LICENSE_FILES_ROOT", default=str(VAR_DIR / "private" / "licenses")))
# A license submission carries its file (at most 10 MiB) as base64 in a JSON body: 13,981,016 characters
# for 10 MiB, plus 256 KiB for the other fields (a 16,000-character comment even when \u-escaped, names,
# addresses). The sandbox hub must accept that body; Django's default (2.5 MB) would refuse it.
DATA_UPLOAD_MAX_MEMORY_SIZE = 4 * ((10 * 1024 * 1024 + 2) // 3) + 256 * 1024

REST_FRAMEWORK: dict[str, object] = {
    "DEFAULT_AUTHENTICATION_CLASSES": [],
    "DEFAULT_PERMISSION_CLASSES": [],
    "UNAUTHENTICATED_USER": None,
    "DEFAULT_SCHEMA_CLASS": "drf_spectacular.openapi.AutoSchema",
    # The vendor API's rate limits per client address (bookings.api.throttling), counted in the shared cache.
    # A hub sends a few calls a second at its busiest; 1200 a minute leaves it ten times that. A caller the
    # authentication refuses 30 times a minute is turned away unread for the rest of that minute.
    "DEFAULT_THROTTLE_RATES": {"vendor_api": "1200/min", "vendor_api_refused": "30/min"},
}
# The vendor API's OpenAPI schema (/api/schema/) and its documentation page (/api/docs/), served with
# their own assets (no CDN).
SPECTACULAR_SETTINGS = {
    "TITLE": "vendorhub vendor API",
    "DESCRIPTION": "The calls the hub makes to us: create, confirm, modify, cancel and check bookings, "
    "and the refund policy. Every call carries a bearer token and a Standard Webhooks signature.",
    "VERSION": "1.0.0",
    "SERVE_INCLUDE_SCHEMA": False,
    "COMPONENT_SPLIT_REQUEST": True,
    "SWAGGER_UI_DIST": "SIDECAR",
    "SWAGGER_UI_FAVICON_HREF": "SIDECAR",
    "REDOC_DIST": "SIDECAR",
    # System fonts: the docs load nothing from outside (templates/drf_spectacular/redoc.html drops the web fonts).
    "REDOC_UI_SETTINGS": {
        "theme": {
            "typography": {
                "fontFamily": "system-ui, -apple-system, 'Segoe UI', 'Noto Sans KR', sans-serif",
                "headings": {"fontFamily": "system-ui, -apple-system, 'Segoe UI', 'Noto Sans KR', sans-serif"},
                "code": {"fontFamily": "ui-monospace, SFMono-Regular, Menlo, Consolas, monospace"},
            }
        }
    },
}

# --- Security ---------------------------------------------------------------------------------------

# No inline script runs, and nothing loads from elsewhere but the photos' images (their URLs are the
# property's own, over https). Styles may be inline (the admin's widgets set style attributes); Redoc on
# /api/docs/ runs a web worker from a blob: and shows data: images.
CONTENT_SECURITY_POLICY = {
    "DIRECTIVES": {
        "default-src": [SELF],
        "script-src": [SELF],
        "worker-src": [SELF, "blob:"],
        "style-src": [SELF, "'unsafe-inline'"],
        "img-src": [SELF, "data:", "https:"],
        "font-src": [SELF, "data:"],
        "connect-src": [SELF],
        "object-src": [NONE],
        "base-uri": [SELF],
        "form-action": [SELF],
        "frame-ancestors": [NONE],
    }
}

# Production: HTTPS behind the load balancer.
if not DEBUG:
    SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
    SECURE_SSL_REDIRECT = env.bool("DJANGO_SECURE_SSL_REDIRECT", default=True)
    # The load balancer probes the health check, and a scraper inside the network reads the metrics, over
    # plain HTTP.
    SECURE_REDIRECT_EXEMPT = [r"^healthz$", r"^metrics$"]
    SECURE_HSTS_SECONDS = env.int("DJANGO_SECURE_HSTS_SECONDS", default=60 * 60 * 24 * 365)
    SECURE_HSTS_INCLUDE_SUBDOMAINS = True
    SECURE_HSTS_PRELOAD = True
    SESSION_COOKIE_SECURE = True
    CSRF_COOKIE_SECURE = True

# --- Metrics and error tracking ---------------------------------------------------------------------

# Prometheus metrics at /metrics (config.metrics), for a scraper sending METRICS_TOKEN as a bearer token.
# Each web and worker process writes its values under METRICS_DIR (a folder on the host's local disk,
# shared by the processes of one host: core.metrics).
METRICS_ENABLED = env.bool("METRICS_ENABLED", default=False)
METRICS_TOKEN = env.str("METRICS_TOKEN", default="")
METRICS_DIR = Path(env.str("METRICS_DIR", default=str(VAR_DIR / "metrics")))
if METRICS_ENABLED and len(METRICS_TOKEN) < 16:
    raise ImproperlyConfigured("METRICS_TOKEN (at least 16 characters) must be set when METRICS_ENABLED is true.")

# Exceptions of requests and tasks go to Sentry when SENTRY_DSN is set, redacted as the logs are
# (config.sentry); off otherwise.
SENTRY_DSN = env.str("SENTRY_DSN", default="")
if SENTRY_DSN:
    from .sentry import sentry_init

    sentry_init(
        SENTRY_DSN,
        environment=env.str("SENTRY_ENVIRONMENT", default="development" if DEBUG else "production"),
        release=env.str("SENTRY_RELEASE", default=""),
    )

# --- Logging ------------------------------------------------------------------------------------

LOG_LEVEL = env.str("LOG_LEVEL", default="INFO")
LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "filters": {
        "request_id": {"()": "core.request_id.RequestIdLogFilter"},
        "redact": {"()": "config.log_filters.RedactSecretsFilter"},
        "client_errors": {"()": "config.log_filters.ClientErrorsWithoutTraceback"},
    },
    "formatters": {
        "json": {
            "()": "pythonjsonlogger.json.JsonFormatter",
            "fmt": "%(asctime)s %(levelname)s %(name)s %(request_id)s %(message)s",
            "rename_fields": {"asctime": "time", "levelname": "level", "name": "logger"},
        },
        "plain": {"format": "%(asctime)s %(levelname)-7s %(name)s [%(request_id)s]: %(message)s"},
    },
    "handlers": {
        "console": {
            "class": "logging.StreamHandler",
            "formatter": env.str("LOG_FORMAT", default="plain" if DEBUG else "json"),
            "filters": ["request_id", "redact"],
        },
    },
    "root": {"handlers": ["console"], "level": LOG_LEVEL},
    "loggers": {
        "django.db.backends": {"level": "INFO"},
        # Django's own console handler (in DEBUG) goes: its records reach the root's handler once, not twice.
        "django": {"handlers": []},
        # A refused request (403, 404, 405) is one line: its traceback says nothing the line does not.
        "django.request": {"filters": ["client_errors"]},
    },
}
