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
        execute_from_command_line(sys.argv)
    except ImproperlyConfigured as exc:
        # A configuration mistake is the operator's to fix: say which, without a traceback.
        sys.exit(f"vendorhub cannot start: {exc}")


if __name__ == "__main__":
    main()
