"""`manage.py send_enrolment_link USERNAME`: email a staff member (the first superuser, say, who has no one to send
it from the back office) the one-time link that sets up their second factor (permits/accounts/enrolment.py)."""

from django.contrib.auth import get_user_model
from django.core.exceptions import ValidationError
from django.core.management.base import BaseCommand, CommandError
from django.db import transaction

from permits.accounts.enrolment import invite_to_enrol
from permits.errors import violations_of


class Command(BaseCommand):
    help = "Email a staff member the one-time link that sets up their second factor."

    def add_arguments(self, parser):
        parser.add_argument("username")

    def handle(self, *args, username, **options):
        user = get_user_model().objects.filter(username=username).first()
        if user is None:
            raise CommandError(f"username: no account {username!r}")
        try:
            with transaction.atomic():
                invite_to_enrol(user=user)
        except ValidationError as error:
            raise CommandError(" ".join(v.message for v in violations_of(error))) from None
        self.stdout.write(f"Enrolment link emailed to {user.email}.")
