from django.conf import settings
from django.core.management.base import BaseCommand

from permits.demo import ACCOUNTS, load_demo


class Command(BaseCommand):
    help = "Load the demo village: streets, parcels, one account per role (password from DEMO_PASSWORD). Idempotent."

    def handle(self, *args, **options):
        load_demo()
        for hook in getattr(settings, "DEMO_LOADERS", []):
            from django.utils.module_loading import import_string

            import_string(hook)()
        self.stdout.write("Demo data loaded. Accounts (password: DEMO_PASSWORD, default 'theresa-demo-2026'):")
        for username, first, last, role in ACCOUNTS:
            self.stdout.write(f"  {username:<11} {first} {last}: {role.value if role else 'public applicant'}")
        self.stdout.write(f"  password: {settings.DEMO_PASSWORD}")
