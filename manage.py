#!/usr/bin/env python
"""Django's command-line utility for vendorhub."""

import os
import sys

#: Commands that read only the code (models, templates, translation files): they need none of
#: production's secrets, so without DJANGO_DEBUG they run on the development defaults, every app
#: installed (the sandbox's too). Every other command is in production mode unless told otherwise.
CODE_ONLY_COMMANDS = {"makemigrations", "makemessages", "compilemessages"}


def main():
    """Run an administrative task."""
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    if sys.argv[1:2] and sys.argv[1] in CODE_ONLY_COMMANDS and "DJANGO_DEBUG" not in os.environ:
        os.environ["DJANGO_DEBUG"] = "true"
        os.environ.setdefault("HUB_SANDBOX_ENABLED", "true")
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
