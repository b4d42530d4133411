#!/usr/bin/env python
"""Django's command-line utility for vendorhub."""

import os
import sys


def main():
    """Run an administrative task."""
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    from django.core.exceptions import ImproperlyConfigured
    from django.core.management import execute_from_command_line

    try:
        # Load the settings here: Django's command runner would set a configuration error aside and fail
        # later with an unrelated "apps aren't loaded" traceback.
        from django.conf import settings

        settings.INSTALLED_APPS  # noqa: B018
        execute_from_command_line(sys.argv)
    except ImproperlyConfigured as exc:
        # A configuration mistake is the operator's to fix: say which, without a traceback.
        sys.exit(f"vendorhub cannot start: {exc}")


if __name__ == "__main__":
    main()
