"""`manage.py build_tax_roll --year YYYY`: build (or rebuild, unchanged) the year's special-charges roll."""

from django.core.management.base import BaseCommand, CommandError
from django.utils import timezone

from permits.ledger.tax_roll import FrozenRoll, build_tax_roll, write_roll_pdf


class Command(BaseCommand):
    help = "Build (or rebuild, unchanged) the special-charges tax roll of a year and print where the CSV and PDF are."

    def add_arguments(self, parser):
        parser.add_argument("--year", type=int, default=None, help="Tax year (default: this year)")

    def handle(self, *args, year=None, **options):
        year = year or timezone.localdate().year
        try:
            batch = build_tax_roll(year=year)
        except FrozenRoll as exc:
            from permits.ledger.models import TaxRollBatch

            batch = TaxRollBatch.objects.get(year=year)
            self.stdout.write(str(exc))
        except ValueError as exc:
            raise CommandError(str(exc)) from exc
        batch.refresh_from_db()
        if not batch.pdf_file:  # not rendered by a worker yet: this command renders it (it is not a web request)
            write_roll_pdf(batch)
        self.stdout.write(f"{batch}: {batch.lines.count()} charges")
        self.stdout.write(f"CSV: {batch.csv_file.path}")
        self.stdout.write(f"PDF: {batch.pdf_file.path}")
