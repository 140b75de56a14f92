"""Import the assessment roll (CSV) into Parcel records: preview with row-level errors, then all or nothing."""

from __future__ import annotations

import csv
import io
import re
from dataclasses import dataclass, field

from django.core.exceptions import ValidationError
from django.core.validators import validate_email
from django.db import transaction

from permits.models import Parcel, Street

COLUMNS = ["tax_key", "site_address", "owner_name", "owner_mailing_address", "land_use", "street", "corner_lot"]
OPTIONAL = ["owner_email", "crosswalk_adjacent"]
TRUE = {"yes", "y", "true", "1", "x"}
FALSE = {"no", "n", "false", "0", ""}
MAX_ROWS = 20_000
MAX_LENGTHS = {"tax_key": 40, "site_address": 200, "owner_name": 200, "owner_mailing_address": 2000, "owner_email": 254}
# The assessment roll's tax keys are letters, digits, dashes and dots (266-1116-0001, 266.1116.0001): a "/" or a
# space would break the parcel's page address (/charges/parcel/<tax key>/), so the import refuses it
# (OWASP ASVS V5.1.3, an allow-list).
TAX_KEY = re.compile(r"[A-Za-z0-9][A-Za-z0-9.-]*")


@dataclass
class RowResult:
    line: int
    values: dict
    errors: list[str] = field(default_factory=list)
    action: str = ""


@dataclass
class ImportResult:
    rows: list[RowResult] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)
    created: int = 0
    updated: int = 0
    committed: bool = False

    @property
    def ok(self) -> bool:
        return not self.errors and all(not r.errors for r in self.rows)

    @property
    def bad_rows(self) -> list[RowResult]:
        return [r for r in self.rows if r.errors]


def _flag(value: str, name: str, errors: list[str]) -> bool:
    lowered = (value or "").strip().lower()
    if lowered in TRUE:
        return True
    if lowered not in FALSE:
        errors.append(f"{name}: '{value}' is not yes or no.")
    return False


def import_parcels(text: str, *, commit: bool) -> ImportResult:
    """Check every row; with commit=True and no errors, create or update the parcels in one transaction."""
    result = ImportResult()
    reader = csv.DictReader(io.StringIO(text))
    header = [h.strip() for h in (reader.fieldnames or [])]
    missing = [c for c in COLUMNS if c not in header]
    if missing:
        result.errors.append(f"The CSV's first line must name the columns; missing: {', '.join(missing)}.")
        return result
    streets = {s.name.lower(): s for s in Street.objects.all()}
    existing = set(Parcel.objects.values_list("tax_key", flat=True))
    seen: set[str] = set()
    land_uses = {v for v in Parcel.LandUse.values}
    line = 1
    while True:
        line += 1
        try:
            raw = next(reader)
        except StopIteration:
            break
        except csv.Error as exc:  # a cell over csv.field_size_limit() (128 KB), an unclosed quote ...
            result.rows.append(RowResult(line=line, values={}, errors=[f"line {line}: not a CSV row ({exc})."]))
            break  # the reader cannot resume inside a broken field
        if line - 1 > MAX_ROWS:
            result.errors.append(f"The file has more than {MAX_ROWS} rows.")
            break
        values = {k.strip(): (v or "").strip() for k, v in raw.items() if isinstance(k, str) and k}
        row = RowResult(line=line, values=values)
        for column, value in values.items():
            if "\x00" in value:
                row.errors.append(f"{column}: contains a NUL character, which is not text (OWASP ASVS V5.1.4).")
        tax_key = values.get("tax_key", "")
        if tax_key and not TAX_KEY.fullmatch(tax_key):
            row.errors.append(
                f"tax_key: '{tax_key[:40]}' is not a tax key of the assessment roll (letters, digits, dashes and "
                "dots only, e.g. 266-1116-0001)."
            )
        for column in ("tax_key", "site_address", "owner_name", "owner_mailing_address"):
            if not values.get(column):
                row.errors.append(f"{column}: required.")
        if tax_key in seen:
            row.errors.append(f"tax_key: {tax_key} appears twice in the file.")
        seen.add(tax_key)
        if values.get("land_use", "").lower() not in land_uses:
            row.errors.append(
                f"land_use: '{values.get('land_use', '')}' must be residential, commercial or industrial."
            )
        if values.get("street", "").lower() not in streets:
            row.errors.append(f"street: '{values.get('street', '')}' is not a Village street; add it first.")
        _flag(values.get("corner_lot", ""), "corner_lot", row.errors)
        _flag(values.get("crosswalk_adjacent", ""), "crosswalk_adjacent", row.errors)
        for column, limit in MAX_LENGTHS.items():
            if len(values.get(column, "")) > limit:
                row.errors.append(f"{column}: at most {limit} characters.")
        if values.get("owner_email"):
            try:
                validate_email(values["owner_email"])
            except ValidationError:
                row.errors.append(f"owner_email: '{values['owner_email']}' is not an email address.")
        row.action = "update" if tax_key in existing else "create"
        result.rows.append(row)
    if not result.rows and not result.errors:
        result.errors.append("The file has no rows.")
    if not commit or not result.ok:
        return result
    with transaction.atomic():
        for row in result.rows:
            v = row.values
            _, created = Parcel.objects.update_or_create(
                tax_key=v["tax_key"],
                defaults={
                    "site_address": v["site_address"],
                    "owner_name": v["owner_name"],
                    "owner_mailing_address": v["owner_mailing_address"],
                    "owner_email": v.get("owner_email", ""),
                    "land_use": v["land_use"].lower(),
                    "street": streets[v["street"].lower()],
                    "corner_lot": _flag(v.get("corner_lot", ""), "corner_lot", []),
                    "crosswalk_adjacent": _flag(v.get("crosswalk_adjacent", ""), "crosswalk_adjacent", []),
                },
            )
            if created:
                result.created += 1
            else:
                result.updated += 1
    result.committed = True
    return result
