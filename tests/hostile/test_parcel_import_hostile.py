"""The assessment-roll import refuses hostile rows with a row error naming the column, and a parcel whose tax key
came in before that rule (one holding "/") still has working pages (OWASP ASVS V5.1.3, V5.1.4)."""

import pytest
from django.urls import reverse

from permits.models import Parcel
from permits.parcel_import import import_parcels
from tests.factories import ParcelFactory, StreetFactory
from tests.hostile.conftest import web
from tests.permits.ledger.conftest import make_charge

pytestmark = pytest.mark.django_db

HEADER = "tax_key,site_address,owner_name,owner_mailing_address,land_use,street,corner_lot\n"


def row(tax_key="266-1116-0001", address="101 Highland Avenue", owner="Klein, Joan"):
    return f'{tax_key},{address},"{owner}",Box 1,residential,Highland Avenue,no\n'


@pytest.fixture(autouse=True)
def highland():
    StreetFactory(name="Highland Avenue")


def test_a_cell_over_128_kb_is_a_row_error_not_a_500():
    result = import_parcels(HEADER + row() + row("266-2", owner="x" * 200_000), commit=True)
    assert not result.ok and not result.committed and not Parcel.objects.exists()
    [bad] = result.bad_rows
    assert bad.line == 3 and "not a CSV row" in bad.errors[0] and "field larger than field limit" in bad.errors[0]


def test_a_cell_just_under_the_csv_limit_is_checked_as_text():
    result = import_parcels(HEADER + row(owner="x" * 131_000), commit=False)
    assert result.bad_rows[0].errors == ["owner_name: at most 200 characters."]


@pytest.mark.parametrize("tax_key", ["266/1116/0001", "266 1116", "../etc", "266-1116-0001?x=1", "-266", "266%2F1"])
def test_a_tax_key_not_of_the_rolls_form_is_refused_naming_the_column(tax_key):
    result = import_parcels(HEADER + row(tax_key), commit=True)
    assert not result.committed and not Parcel.objects.exists()
    assert result.bad_rows[0].errors[0].startswith(f"tax_key: '{tax_key}' is not a tax key of the assessment roll")


@pytest.mark.parametrize("tax_key", ["266-1116-0001", "266.1116.0001", "0266A", "7"])
def test_tax_keys_of_the_rolls_form_are_imported(tax_key):
    result = import_parcels(HEADER + row(tax_key), commit=True)
    assert result.committed and Parcel.objects.get().tax_key == tax_key


def test_a_nul_in_a_cell_is_a_row_error_naming_the_column():
    result = import_parcels(HEADER + row(owner="Klein\x00Joan"), commit=True)
    assert not result.committed
    assert "owner_name: contains a NUL character" in result.bad_rows[0].errors[0]


def test_an_existing_tax_key_with_a_slash_keeps_its_pages(clerk):
    parcel = ParcelFactory(tax_key="266/1116/0001", street=StreetFactory(name="Henni Street"))
    make_charge(parcel, by=clerk)
    url = reverse("ledger:parcel_charges", args=[parcel.tax_key])
    assert url == "/charges/parcel/266/1116/0001/"
    client = web(clerk)
    listing = client.get("/charges/")
    assert listing.status_code == 200 and url.encode() in listing.content
    page = client.get(url)
    assert page.status_code == 200 and b"266/1116/0001" in page.content
