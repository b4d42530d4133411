"""The words django-axes' screens (failed logins, logins) translate but whose package has no Korean:
listed here so that makemessages keeps their Korean in our catalog."""

from django.utils.translation import gettext_noop

AXES_WORDS = [
    gettext_noop("User Agent"),
    gettext_noop("IP Address"),
    gettext_noop("Username"),
    gettext_noop("HTTP Accept"),
    gettext_noop("Path"),
    gettext_noop("Attempt Time"),
    gettext_noop("Failed Logins"),
    gettext_noop("GET Data"),
    gettext_noop("POST Data"),
    gettext_noop("Logout Time"),
    gettext_noop("Access lock out"),
    gettext_noop("Locked Out"),
    gettext_noop("Form Data"),
    gettext_noop("Meta Data"),
    gettext_noop("Expires At"),
    gettext_noop("Not set"),
    gettext_noop("Attempt Remaining"),
    gettext_noop("Clean up expired attempts"),
    gettext_noop("Session key hash (sha256)"),
    gettext_noop("Access Attempt"),
    gettext_noop("The time when access attempt expires and is no longer valid."),
]
