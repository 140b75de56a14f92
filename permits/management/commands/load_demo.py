from django.conf import settings
from django.core.management.base import BaseCommand

from obstructions import demo as obstructions_demo
from permits import kinds
from permits.demo import ACCOUNTS, load_demo
from permits.online_payments.demo import load_demo as load_online_payments_demo
from permits.streetmap import demo as streetmap_demo


class Command(BaseCommand):
    help = "Load the demo village: streets, parcels, one account per role (password from DEMO_PASSWORD). Idempotent."

    def handle(self, *args, **options):
        load_demo()
        for loader in kinds.demo_loaders():  # each permit type's demo data, from the registry
            loader()
        load_online_payments_demo()  # a held card payment for the clerk, today's settlement
        streetmap_demo.load()  # street segments and this week on Highland Avenue (after the permit types)
        obstructions_demo.load()  # enforcement cases and street numbers (§§ 303-6 to 303-14)
        self.stdout.write("Demo data loaded. Accounts (password: DEMO_PASSWORD, default 'theresa-demo-2026'):")
        for username, first, last, role in ACCOUNTS:
            self.stdout.write(f"  {username:<11} {first} {last}: {role.value if role else 'public applicant'}")
        self.stdout.write(f"  password: {settings.DEMO_PASSWORD}")
