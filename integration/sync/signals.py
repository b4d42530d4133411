"""What the sync engine tells the areas (which it must not import)."""

from django.dispatch import Signal

#: Sent with environment (the new active hub) inside the transaction of a hub switch, so that each area
#: forgets what only the old hub held.
hub_switched = Signal()

#: Sent with state inside the transaction that marks a resource failed for good (the hub refused it):
#: staff must act before it is sent again.
sync_failed = Signal()

#: Sent with state once the hub has acknowledged a resource for the first time (its create), after the
#: send: what an area reads from the hub about it may be read from then on.
hub_learned = Signal()
