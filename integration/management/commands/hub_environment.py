"""manage.py hub_environment: show the hub environments and the active one, or switch to another one
(confirmed with --yes), then send everything to the new hub now and summarise how it went."""

from django.core.management import call_command
from django.core.management.base import BaseCommand, CommandError

from integration.hub.environments import HubEnvironment, hub_address
from integration.hub.selectors import hub_environment_active
from integration.sync.choices import SyncStatus
from integration.sync.selectors import hub_switch_latest, hub_switch_progress, sync_status_counts
from integration.sync.services.switch import SwitchRefused, hub_environment_switch


class Command(BaseCommand):
    help = (
        "Show the hub environments (staging, production) and which is active; with --switch-to and --yes, "
        "switch to another one: our content is kept and sent to the new hub as never synced."
    )

    def add_arguments(self, parser):
        parser.add_argument("--switch-to", choices=HubEnvironment.values, help="The environment to switch to.")
        parser.add_argument("--yes", action="store_true", help="Confirm the switch (without it nothing changes).")
        parser.add_argument(
            "--no-send",
            action="store_true",
            help="Only switch and queue the sends for the worker, instead of also sending now in this process.",
        )

    def handle(self, *args, switch_to, yes, no_send, **options):
        if switch_to is None:
            self._show()
            return
        active = hub_environment_active()
        if not yes:
            counts = sync_status_counts(active)
            raise CommandError(
                f"This switches every hub call from {active.label} to {HubEnvironment(switch_to).label} "
                f"({hub_address(switch_to).base_url or 'no base URL set'}) and sends our whole content there as new "
                f"({sum(counts.values())} resources known now). Run again with --yes to confirm."
            )
        try:
            switch = hub_environment_switch(to=switch_to)
        except SwitchRefused as refused:
            raise CommandError(str(refused)) from refused
        self.stdout.write(
            f"Switched {switch.get_from_environment_display()} -> {switch.get_to_environment_display()}: "
            f"{switch.resources} resources to send to {hub_address(switch.to_environment).base_url}."
        )
        if not no_send:
            try:
                call_command("hub_catalog", stdout=self.stdout, stderr=self.stderr, verbosity=options["verbosity"])
                call_command("hub_sync", stdout=self.stdout, stderr=self.stderr, verbosity=options["verbosity"])
            finally:
                self._summary(switch)

    def _show(self):
        active = hub_environment_active()
        for environment in HubEnvironment:
            address = hub_address(environment)
            marker = "*" if environment == active else " "
            where = address.base_url or "(no base URL)"
            token = "token set" if address.token else "no token"
            self.stdout.write(f"{marker} {environment.value:<10} {where} ({token})")
        switch = hub_switch_latest()
        if switch is not None:
            self._summary(switch)

    def _summary(self, switch):
        progress = hub_switch_progress(switch)
        state = "done" if progress.done else "in progress"
        self.stdout.write(
            f"First sync against {switch.get_to_environment_display()} (switched {switch.switched_at:%Y-%m-%d %H:%M}), "
            f"{state}: {SyncStatus.SYNCED} {progress.synced}, {SyncStatus.PENDING} {progress.pending}, "
            f"{SyncStatus.FAILED} {progress.failed} of {progress.total}"
        )
