"""The two property roles as Django groups, and the permissions each role's group holds.

Groups are written by migrations (each migration that adds models re-runs sync_role_groups), never
by hand; after a flush, which empties every table and re-emits only post_migrate, the app's
post_migrate receiver writes them again. Which objects a permission reaches is narrowed further by
property membership: see integration.selectors.properties_for_user.
"""

from .choices import MembershipRole

GROUP_NAMES = {
    MembershipRole.STAFF: "Property staff",
    MembershipRole.MANAGER: "Property manager",
}


def _perms(model, *actions):
    return [f"integration.{action}_{model}" for action in actions]


# Content is never deleted at the hub (it has no DELETE); staff disable it instead.
_STAFF_PERMISSIONS = [
    *_perms("property", "view", "change"),
    *_perms("propertytranslation", "view", "add", "change", "delete"),
    *_perms("propertyphoto", "view", "add", "change", "delete"),
    *_perms("roomtype", "view", "add", "change"),
    *_perms("roomtypetranslation", "view", "add", "change", "delete"),
    *_perms("roomtypephoto", "view", "add", "change", "delete"),
    *_perms("rateplanmodel", "view", "add", "change"),
    *_perms("rateplanmodeltranslation", "view", "add", "change", "delete"),
    *_perms("rateplan", "view", "add", "change"),
    *_perms("syncstate", "view"),
    # The availability levers (channel rules, cut-off, lead days) and the horizon's defaults are rates and
    # availability, which both roles edit.
    *_perms("channelavailrule", "view", "add", "change", "delete"),
    *_perms("channelavailrulechange", "view"),
    *_perms("propertycutoff", "view", "add", "change", "delete"),
    *_perms("channelleaddays", "view", "add", "change", "delete"),
    *_perms("rateplandefault", "view", "add", "change", "delete"),
    *_perms("roomtypedefault", "view", "add", "change", "delete"),
    *_perms("syncattempt", "view"),
    # Anyone who edits content may check it against the hub's copy and re-send it (ours wins).
    *_perms("driftcheck", "view", "add"),
    *_perms("driftdifference", "view"),
    *_perms("catalogsnapshot", "view"),
    *_perms("codemapping", "view"),
    # Sales channels: staff read which channels sell the property, its settings, mapping and requests.
    *_perms("saleschannel", "view"),
    *_perms("propertychannel", "view"),
    *_perms("channelopenrequest", "view"),
    # Bookings come from the hub only; staff and managers read them and the hub's calls.
    "bookings.view_booking",
    "bookings.view_inboundcall",
]
_MANAGER_ONLY_PERMISSIONS = [
    *_perms("property", "add"),
    *_perms("codemapping", "add", "change", "delete"),
    # Managers open channels, set what each sells and map cms channels (the hub's list is read, not edited).
    *_perms("propertychannel", "change"),
    *_perms("channelopenrequest", "add"),
    # Licenses are uploaded and followed, never edited or deleted (the hub has neither).
    "licenses.view_licenserequest",
    "licenses.add_licenserequest",
    # Settlement: managers run reconciliations of their properties and read them; nobody edits one.
    "settlement.view_reconciliation",
    "settlement.add_reconciliation",
    # Reports: managers read occupancy, revenue, pickup, pace and channel mix of their properties.
    "reports.view_dailyfigure",
]

ROLE_PERMISSIONS = {
    MembershipRole.STAFF: _STAFF_PERMISSIONS,
    MembershipRole.MANAGER: _STAFF_PERMISSIONS + _MANAGER_ONLY_PERMISSIONS,
}


def sync_role_groups(apps, schema_editor=None):
    """Create the role groups and give each exactly the permissions of ROLE_PERMISSIONS that exist.

    apps is a migration's historical registry or post_migrate's. Permissions of models that a later
    migration adds are skipped here and granted when that migration runs this function again.
    """
    from django.contrib.auth.management import create_permissions

    # Permissions are normally created after all migrations; create them now so groups can hold them.
    # Historical app configs have no models module, which create_permissions requires.
    for app_config in apps.get_app_configs():
        models_module = getattr(app_config, "models_module", None)
        app_config.models_module = models_module or True
        try:
            create_permissions(app_config, apps=apps, verbosity=0)
        finally:
            app_config.models_module = models_module

    Group = apps.get_model("auth", "Group")
    Permission = apps.get_model("auth", "Permission")
    for role, names in ROLE_PERMISSIONS.items():
        group, _ = Group.objects.get_or_create(name=GROUP_NAMES[role])
        wanted = []
        for name in names:
            app_label, codename = name.split(".")
            wanted.extend(Permission.objects.filter(content_type__app_label=app_label, codename=codename))
        group.permissions.set(wanted)
