"""The site's name and domain in account emails: "Theresa Permits", not Django's default "example.com"."""

from urllib.parse import urlparse

from django.conf import settings
from django.db import migrations


def name_the_site(apps, schema_editor):
    Site = apps.get_model("sites", "Site")
    domain = urlparse(settings.SITE_URL).netloc or "127.0.0.1:8000"
    Site.objects.update_or_create(pk=settings.SITE_ID, defaults={"domain": domain, "name": "Theresa Permits"})


class Migration(migrations.Migration):
    dependencies = [
        ("permits", "0006_permittee_notice_one_pending"),
        ("sites", "0002_alter_domain_unique"),
    ]

    operations = [migrations.RunPython(name_the_site, migrations.RunPython.noop)]
