"""The two property roles as Django groups, and the permissions each role's group holds.

Groups are written by migrations (each migration that adds models re-runs sync_role_groups), never
by hand. Which objects a permission reaches is narrowed further by property membership: see
integration.selectors.properties_for_user.
"""

from .choices import MembershipRole

GROUP_NAMES = {
    MembershipRole.STAFF: "Property staff",
    MembershipRole.MANAGER: "Property manager",
}

_STAFF_PERMISSIONS = [
    "integration.view_property",
    "integration.change_property",
]
_MANAGER_ONLY_PERMISSIONS = []

ROLE_PERMISSIONS = {
    MembershipRole.STAFF: _STAFF_PERMISSIONS,
    MembershipRole.MANAGER: _STAFF_PERMISSIONS + _MANAGER_ONLY_PERMISSIONS,
}


def sync_role_groups(apps, schema_editor=None):
    """Create the role groups and give each exactly the permissions of ROLE_PERMISSIONS that exist.

    Runs inside migrations with the historical app registry. Permissions of models that a later
    migration adds are skipped here and granted when that migration runs this function again.
    """
    from django.contrib.auth.management import create_permissions

    # Permissions are normally created after all migrations; create them now so groups can hold them.
    for app_config in apps.get_app_configs():
        app_config.models_module = True
        create_permissions(app_config, apps=apps, verbosity=0)
        app_config.models_module = None

    Group = apps.get_model("auth", "Group")
    Permission = apps.get_model("auth", "Permission")
    for role, names in ROLE_PERMISSIONS.items():
        group, _ = Group.objects.get_or_create(name=GROUP_NAMES[role])
        wanted = []
        for name in names:
            app_label, codename = name.split(".")
            wanted.extend(Permission.objects.filter(content_type__app_label=app_label, codename=codename))
        group.permissions.set(wanted)
