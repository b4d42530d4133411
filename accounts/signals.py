"""What the accounts app tells the apps built on it (which it must not import: the inbox)."""

from django.dispatch import Signal

#: Sent with user and addresses (how many failed) when wrong passwords for user's name came from
#: LOGIN_NAME_ADDRESS_LIMIT different addresses; once per lockout window (accounts.services).
login_name_tried_widely = Signal()
