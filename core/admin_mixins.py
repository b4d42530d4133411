"""Admin behaviour every app shares."""


class ReadOnlyAdminMixin:
    """A log, a copy of what the hub holds or a screen of its own: shown, never added, changed or deleted in
    the admin."""

    def has_add_permission(self, request, obj=None):
        return False

    def has_change_permission(self, request, obj=None):
        return False

    def has_delete_permission(self, request, obj=None):
        return False
