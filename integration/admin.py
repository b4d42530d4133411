"""The admin screens of integration, where Django's autodiscovery looks: each area registers its own.

Rates and availability extend the property's admin (content) with their screens, and going live with
the health page and the go-live checklist.
"""

from .access import admin as access_admin  # noqa: F401
from .ari import admin as ari_admin  # noqa: F401
from .catalog import admin as catalog_admin  # noqa: F401
from .channels import admin as channels_admin  # noqa: F401
from .content import admin as content_admin  # noqa: F401
from .drift import admin as drift_admin  # noqa: F401
from .golive import admin as golive_admin  # noqa: F401  (after ari: it extends the property admin ari left)
from .sync import admin as sync_admin  # noqa: F401
