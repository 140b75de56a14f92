"""§ 303-15F: the permit page's "What still blocks approval" names the neighbours' petition and who clears it; the
counts read as words before anyone has declared; a petition whose blocks hold no parcel on the roll says so."""

import pytest
from django.urls import reverse

from permits import permit_page
from permits.street_use import services
from tests.permits.street_use.conftest import TODAY, declare_all, sign, valid_data

pytestmark = pytest.mark.django_db


def codes(permit):
    return [i.violation.code for i in permit_page.checklist(permit, today=TODAY)]


def test_303_15f_the_applicants_checklist_names_the_petition_and_links_the_petition_page(client, application, resident):
    petition = reverse("permits:street_use_petition", args=[application.public_token])
    [item] = [i for i in permit_page.checklist(application, today=TODAY) if i.violation.code == "undeclared_address"]
    assert item.fix_url == petition
    client.force_login(resident)
    page = client.get(application.get_absolute_url()).content.decode()
    assert "What still blocks approval" in page and "each household declares on the petition page" in page
    assert f'<a href="{petition}">Share the petition page' in page


def test_303_15f_the_count_short_of_75_percent_is_on_the_checklist_until_enough_consent(application, roster, clerk):
    sign(application, roster[:14], clerk)  # 14 of the 20 declared: 15 are needed
    assert "petition_short" in codes(application)
    sign(application, roster[14:15], clerk)
    assert "petition_short" not in codes(application)
    assert "petition_unverified" in codes(application)  # the Clerk-Treasurer verifies it next
    [item] = [i for i in permit_page.checklist(application, today=TODAY) if i.violation.code == "petition_unverified"]
    assert "The Clerk-Treasurer has not verified" in item.violation.message and item.fix_url is None


def test_303_15f_the_clerk_sees_the_same_petition_blockers(client, application, clerk):
    client.force_login(clerk)
    page = client.get(application.get_absolute_url()).content.decode()
    assert "What still blocks approval" in page and "No residents over 18 are declared" in page


def test_303_15f_no_zero_of_zero_before_anyone_declares(client, application, clerk):
    petition = reverse("permits:street_use_petition", args=[application.public_token])
    page = client.get(petition).content.decode()
    assert "0 of 0" not in page and "no household along the portion has declared" in page
    declare_all(application, clerk)
    page = client.get(petition).content.decode()
    assert "0 of 15</strong> needed verified consents" in page


def test_303_15f_blocks_chosen_with_no_parcel_on_the_roll_say_so(client, spring, street, segment, resident):
    permit = services.apply_for_street_use(applicant=resident, data=valid_data(street, segment))  # no parcels
    petition = reverse("permits:street_use_petition", args=[permit.public_token])
    page = client.get(petition).content.decode()
    assert "has not yet named the blocks" not in page and "parcel roll" in page
    client.force_login(resident)
    page = client.get(permit.get_absolute_url()).content.decode()
    assert "no parcel along the blocks chosen is on the Village&#x27;s parcel roll" in page or (
        "no parcel along the blocks chosen is on the Village's parcel roll" in page
    )
