"""What the bookings app tells the apps built on it (which it must not import: the inbox)."""

from django.dispatch import Signal

#: Sent with booking inside the transaction in which the hub canceled it (the vendor API's cancel).
booking_canceled = Signal()
