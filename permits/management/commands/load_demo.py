from django.conf import settings
from django.core.management.base import BaseCommand

from permits import kinds
from permits.demo import ACCOUNTS, load_demo


class Command(BaseCommand):
    help = "Load the demo village: streets, parcels, one account per role (password from DEMO_PASSWORD). Idempotent."

    def handle(self, *args, **options):
        load_demo()
        for loader in kinds.demo_loaders():  # each part's demo data, the permit types first, from the registry
            loader()
        self.stdout.write("Demo data loaded. Accounts (password: DEMO_PASSWORD, default 'theresa-demo-2026'):")
        for username, first, last, role in ACCOUNTS:
            self.stdout.write(f"  {username:<11} {first} {last}: {role.value if role else 'public applicant'}")
        self.stdout.write(f"  password: {settings.DEMO_PASSWORD}")
