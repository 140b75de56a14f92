from django.conf import settings
from django.db import migrations

# The people of the staff search in their listed order (permits.search._people: last name, first name, id), so that
# its first few are read from an index, not sorted from every match (a surname a tenth of the users bear
# would sort every bearer to show five). auth_user is Django's table: the index is made by SQL both databases accept.


class Migration(migrations.Migration):
    dependencies = [
        ("permits", "0034_in_effect_index"),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.RunSQL(
            "CREATE INDEX IF NOT EXISTS user_name_order_idx ON auth_user (last_name, first_name, id)",
            "DROP INDEX IF EXISTS user_name_order_idx",
        ),
    ]
