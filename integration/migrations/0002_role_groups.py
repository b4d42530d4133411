"""Create the staff and manager groups with their permissions (integration.access.roles)."""

from django.db import migrations

from integration.access.roles import sync_role_groups


class Migration(migrations.Migration):
    dependencies = [
        ("integration", "0001_initial"),
        ("auth", "0012_alter_user_first_name_max_length"),
        ("contenttypes", "0002_remove_content_type_name"),
    ]

    operations = [migrations.RunPython(sync_role_groups, migrations.RunPython.noop)]
