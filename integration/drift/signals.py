"""What the drift check tells the apps built on integration (which it must not import: the inbox)."""

from django.dispatch import Signal

#: Sent with check inside the transaction that stores a finished check that found differences.
drift_found = Signal()
