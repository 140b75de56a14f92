"""Every CSV file the Village writes (the tax roll for the county, the daily settlement, the reports, the registers,
the public BLDS feed) is opened in a spreadsheet sooner or later. A text cell beginning with = + - @, a tab or a
carriage return would be run there as a formula (OWASP, "CSV Injection"): a contractor named
'=HYPERLINK("http://...")' in the public feed. Such a cell is written with a leading apostrophe, so it is read as
text; numbers are written as they are. Write CSV through `writer` or `DictWriter` here, never csv's own.
"""

from __future__ import annotations

import csv

FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")


def safe_cell(value):
    """A text cell a spreadsheet would run as a formula, quoted with an apostrophe; anything else unchanged."""
    if isinstance(value, str) and value.startswith(FORMULA_STARTS):
        return "'" + value
    return value


class writer:  # noqa: N801 - named as csv.writer, whose place it takes
    """csv.writer whose every text cell goes through safe_cell."""

    def __init__(self, file, **kwargs):
        self._writer = csv.writer(file, **kwargs)

    def writerow(self, row):
        return self._writer.writerow([safe_cell(value) for value in row])

    def writerows(self, rows):
        for row in rows:
            self.writerow(row)


class DictWriter(csv.DictWriter):
    """csv.DictWriter whose every text cell goes through safe_cell."""

    def writerow(self, rowdict):
        return super().writerow({key: safe_cell(value) for key, value in rowdict.items()})

    def writerows(self, rowdicts):
        for rowdict in rowdicts:
            self.writerow(rowdict)
