"""The assessment roll import: preview with row-level errors; all or nothing; re-import updates."""

import pytest
from django.core.management import CommandError, call_command
from django.urls import reverse

from permits.models import Parcel
from permits.parcel_import import import_parcels
from tests.factories import StreetFactory

pytestmark = pytest.mark.django_db

HEADER = "tax_key,site_address,owner_name,owner_mailing_address,land_use,street,corner_lot,owner_email\n"
GOOD = HEADER + (
    '266-1,101 Highland Avenue,"Klein, Joan","101 Highland Avenue, Theresa WI",residential,Highland Avenue,no,'
    "joan@example.com\n"
    '266-2,5 Theresa Lane,Theresa Co-op,"PO Box 5, Theresa WI",Commercial,theresa lane,yes,\n'
)
BAD = HEADER + (
    "266-1,101 Highland Avenue,Klein,Box 1,residential,Highland Avenue,no,\n"
    "266-3,,Braun,Box 3,farm,Nowhere Road,maybe,\n"
    "266-1,9 Theresa Lane,Wolf,Box 9,residential,Theresa Lane,no,\n"
)


@pytest.fixture(autouse=True)
def streets():
    StreetFactory(name="Highland Avenue")
    StreetFactory(name="Theresa Lane")


def test_preview_creates_nothing():
    result = import_parcels(GOOD, commit=False)
    assert result.ok and [r.action for r in result.rows] == ["create", "create"]
    assert not Parcel.objects.exists()


def test_commit_without_errors_creates_the_parcels():
    result = import_parcels(GOOD, commit=True)
    assert result.committed and result.created == 2 and result.updated == 0
    co_op = Parcel.objects.get(tax_key="266-2")
    assert co_op.land_use == "commercial" and co_op.corner_lot is True and co_op.street.name == "Theresa Lane"
    assert Parcel.objects.get(tax_key="266-1").owner_email == "joan@example.com"


def test_reimport_updates_and_does_not_duplicate():
    import_parcels(GOOD, commit=True)
    changed = GOOD.replace('"Klein, Joan"', '"Klein-Weber, Joan"')
    result = import_parcels(changed, commit=True)
    assert result.created == 0 and result.updated == 2
    assert Parcel.objects.count() == 2
    assert Parcel.objects.get(tax_key="266-1").owner_name == "Klein-Weber, Joan"


def test_every_bad_row_is_reported_with_line_and_field_and_nothing_is_imported():
    result = import_parcels(BAD, commit=True)
    assert not result.ok and not result.committed
    assert not Parcel.objects.exists()
    errors = {row.line: " ".join(row.errors) for row in result.bad_rows}
    assert set(errors) == {3, 4}
    assert "site_address: required" in errors[3]
    assert "land_use: 'farm'" in errors[3]
    assert "street: 'Nowhere Road'" in errors[3]
    assert "corner_lot: 'maybe'" in errors[3]
    assert "tax_key: 266-1 appears twice" in errors[4]


def test_one_bad_row_among_good_ones_imports_nothing():
    text = GOOD + "266-9,1 Theresa Lane,X,Box,residential,Theresa Lane,perhaps,\n"
    result = import_parcels(text, commit=True)
    assert [r.line for r in result.bad_rows] == [4]
    assert not Parcel.objects.exists()


def test_missing_columns_are_named():
    result = import_parcels("tax_key,site_address\n1,2\n", commit=True)
    assert "missing: owner_name, owner_mailing_address, land_use, street, corner_lot" in result.errors[0]


def test_empty_file_is_an_error():
    assert import_parcels(HEADER, commit=True).errors == ["The file has no rows."]
    assert not import_parcels("", commit=True).ok


def test_too_long_values_are_row_errors_not_database_errors():
    text = HEADER + f"{'9' * 41},101 Highland Avenue,{'O' * 201},Box,residential,Highland Avenue,no,not-an-email\n"
    result = import_parcels(text, commit=True)
    errors = " ".join(result.bad_rows[0].errors)
    assert "tax_key" in errors and "owner_name" in errors and "owner_email" in errors
    assert not Parcel.objects.exists()


def test_management_command_preview_and_commit(tmp_path, capsys):
    path = tmp_path / "roll.csv"
    path.write_text(GOOD, encoding="utf-8")
    call_command("import_parcels", str(path))
    assert "2 rows are valid" in capsys.readouterr().out
    assert not Parcel.objects.exists()
    call_command("import_parcels", str(path), "--commit")
    assert "Imported 2 new and 0 updated" in capsys.readouterr().out
    assert Parcel.objects.count() == 2


def test_management_command_reports_bad_rows_and_fails(tmp_path, capsys):
    path = tmp_path / "roll.csv"
    path.write_text(BAD, encoding="utf-8")
    with pytest.raises(CommandError, match="Nothing was imported"):
        call_command("import_parcels", str(path), "--commit")
    err = capsys.readouterr().err
    assert "line 3:" in err and "line 4:" in err
    assert not Parcel.objects.exists()


def test_admin_import_preview_then_confirm(client, clerk):
    from django.core.files.uploadedfile import SimpleUploadedFile

    client.force_login(clerk)
    url = reverse("admin:permits_parcel_import")
    assert client.get(url).status_code == 200
    response = client.post(url, {"csv_file": SimpleUploadedFile("roll.csv", GOOD.encode())})
    assert response.status_code == 200
    assert "Import these 2 parcels" in response.content.decode()
    assert not Parcel.objects.exists()
    response = client.post(url, {"confirm": "1", "csv_text": GOOD})
    assert response.status_code == 302
    assert Parcel.objects.count() == 2


def test_admin_import_shows_row_errors_and_imports_nothing(client, clerk):
    from django.core.files.uploadedfile import SimpleUploadedFile

    client.force_login(clerk)
    url = reverse("admin:permits_parcel_import")
    response = client.post(url, {"csv_file": SimpleUploadedFile("roll.csv", BAD.encode())})
    html = response.content.decode()
    assert "2 with errors" in html and "Nothing was imported" in html
    assert "Import these" not in html
    response = client.post(url, {"confirm": "1", "csv_text": BAD})
    assert response.status_code == 200 and not Parcel.objects.exists()


def test_admin_import_refuses_a_non_utf8_file(client, clerk):
    from django.core.files.uploadedfile import SimpleUploadedFile

    client.force_login(clerk)
    response = client.post(
        reverse("admin:permits_parcel_import"),
        {"csv_file": SimpleUploadedFile("roll.csv", b"\xff\xfe\x00bad")},
        follow=True,
    )
    assert "not UTF-8" in response.content.decode()


@pytest.mark.parametrize("who", ["inspector", "police_chief", "board_member"])
def test_admin_import_is_forbidden_to_staff_who_may_not_add_parcels(who, persona, client):
    client.force_login(persona(who))
    assert client.get(reverse("admin:permits_parcel_import")).status_code == 403
