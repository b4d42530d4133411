"""What the bookings app tells the apps built on it (which it must not import: the inbox)."""

from django.dispatch import Signal

#: Sent with booking inside the transaction in which the hub canceled it (the vendor API's cancel).
booking_canceled = Signal()

#: Sent with booking by the worker that tells its members of a new booking (bookings.notifications, once it
#: is confirmed: a hold that expires unseen is never news), outside the vendor API's transaction.
booking_received = Signal()
