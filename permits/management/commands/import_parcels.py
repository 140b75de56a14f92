from django.core.management.base import BaseCommand, CommandError

from permits.parcel_import import import_parcels


class Command(BaseCommand):
    help = "Import the assessment roll from a CSV file (preview unless --commit). A bad row imports nothing."

    def add_arguments(self, parser):
        parser.add_argument("csv_file")
        parser.add_argument("--commit", action="store_true", help="Write the parcels (default: preview only)")

    def handle(self, *args, csv_file, commit, **options):
        with open(csv_file, encoding="utf-8-sig") as fh:
            result = import_parcels(fh.read(), commit=commit)
        for error in result.errors:
            self.stderr.write(error)
        for row in result.bad_rows:
            self.stderr.write(f"line {row.line}: {' '.join(row.errors)}")
        if not result.ok:
            raise CommandError("Nothing was imported: correct the rows above and run again.")
        if commit:
            self.stdout.write(f"Imported {result.created} new and {result.updated} updated parcels.")
        else:
            self.stdout.write(f"{len(result.rows)} rows are valid. Run again with --commit to import them.")
