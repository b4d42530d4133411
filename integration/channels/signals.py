"""What the channels area tells the areas built on it (which it must not import: rates and availability)."""

from django.dispatch import Signal

#: Sent with property and channel inside the transaction that records the channel as open for the
#: property (the hub's status read after an approved request).
channel_opened = Signal()
