"""manage.py hub_sync: send what the hub lacks now, in this process, and summarise how it went."""

import sys
import time

from django.core.management.base import BaseCommand, CommandError
from tqdm import tqdm
from tqdm.contrib.logging import logging_redirect_tqdm

from integration.content.models import Property
from integration.sync.services.batch import sync_pending
from integration.sync.services.sender import Outcome

#: The summary's columns, in the order an operator reads them.
SUMMARY_ORDER = (
    Outcome.SENT,
    Outcome.UNCHANGED,
    Outcome.WAITING,
    Outcome.RETRY,
    Outcome.FAILED,
    Outcome.BUSY,
    Outcome.GONE,
    Outcome.MOVED,
)


class Command(BaseCommand):
    help = (
        "Send every pending change to the hub now, parents before children, and print a summary. "
        "Exits non-zero when the hub refused anything."
    )

    def add_arguments(self, parser):
        parser.add_argument(
            "--all",
            action="store_true",
            dest="full",
            help="Full resync: send every property, room type, rate plan model and rate plan whole, pending or not.",
        )
        parser.add_argument("--property", metavar="ID", help="Only this property (vendor id or pk) and its content.")

    def handle(self, *args, full, property, verbosity, **options):
        prop = _property_named(property) if property is not None else None

        def progress(state_ids):
            # disable=None: the bar only on a terminal, so logs and pipes get no control characters.
            return tqdm(state_ids, desc="hub sync", unit="res", file=sys.stderr, disable=None if verbosity else True)

        started = time.monotonic()
        # Log lines (every hub call logs one) are printed above the bar instead of through it.
        with logging_redirect_tqdm():
            summary = sync_pending(full=full, property=prop, progress=progress)
        elapsed = time.monotonic() - started

        if not summary.total:
            self.stdout.write("Nothing to send to the hub.")
            return
        scope = ("full resync" if full else "pending") + (f", property {prop.vendor_id}" if prop else "")
        self.stdout.write(f"Hub sync ({scope}): {_resources(summary.total)} in {elapsed:.1f} s")
        self.stdout.write("  " + ", ".join(f"{outcome} {summary.counts[outcome]}" for outcome in SUMMARY_ORDER))
        still_pending = sum(summary.counts[outcome] for outcome in (Outcome.WAITING, Outcome.RETRY, Outcome.BUSY))
        if still_pending:
            self.stdout.write(
                f"  {_resources(still_pending)} still pending (waiting for a parent, to retry, or busy elsewhere):"
                " they stay in the outbox for the worker."
            )
        if summary.failures:
            self.stdout.write(self.style.ERROR("Failed (the hub's answer):"))
            for failure in summary.failures:
                status = f"HTTP {failure.status}" if failure.status else "no answer"
                self.stdout.write(f"  {failure.resource}: {status}: {failure.message}")
            raise CommandError(f"the hub refused {_resources(len(summary.failures))}; fix them and sync again.")


def _property_named(reference):
    """The property a --property value names: by vendor id, else by pk."""
    prop = Property.objects.filter(vendor_id=reference).first()
    if prop is None and reference.isdigit():
        prop = Property.objects.filter(pk=reference).first()
    if prop is None:
        raise CommandError(f"No property has the vendor id or pk {reference!r}.")
    return prop


def _resources(count):
    """The count with "resource" or "resources"."""
    return f"{count} resource" if count == 1 else f"{count} resources"
