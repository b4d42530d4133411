"""What the licenses app tells the apps built on it (which it must not import: the inbox)."""

from django.dispatch import Signal

#: Sent with license_request inside the transaction that stores the hub's review of it, when the review
#: turned to confirmed or rejected (license_request.status holds which).
license_reviewed = Signal()
