"""The sworn police officers' group (§ 303-15H: "a law enforcement officer"), created as the other staff groups are
(its permissions are synced after migrate by permits.role_permissions)."""

from django.db import migrations

NAME = "Police Officer"


def create_group(apps, schema_editor):
    apps.get_model("auth", "Group").objects.get_or_create(name=NAME)


def remove_group(apps, schema_editor):
    apps.get_model("auth", "Group").objects.filter(name=NAME).delete()


class Migration(migrations.Migration):
    dependencies = [
        ("auth", "0012_alter_user_first_name_max_length"),
        ("permits", "0012_privilege_building_permit_determination"),
    ]

    operations = [migrations.RunPython(create_group, remove_group)]
