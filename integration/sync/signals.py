"""What the sync engine tells the areas (which it must not import)."""

from django.dispatch import Signal

#: Sent with environment (the new active hub) inside the transaction of a hub switch, so that each area
#: forgets what only the old hub held.
hub_switched = Signal()
