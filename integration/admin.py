"""The admin screens of integration, where Django's autodiscovery looks: each area registers its own.

The property admin is composed and registered once by going live (golive.admin), above the areas.
"""

from .access import admin as access_admin  # noqa: F401
from .ari import admin as ari_admin  # noqa: F401
from .catalog import admin as catalog_admin  # noqa: F401
from .channels import admin as channels_admin  # noqa: F401
from .content import admin as content_admin  # noqa: F401
from .drift import admin as drift_admin  # noqa: F401
from .sync import admin as sync_admin  # noqa: F401
