"""§ 303-15F: the petition counts only verified consent. The Village keeps no register of adult residents: the
addresses along the portion come from the parcel roll (a unit each where the clerk adds units), each address declares
its residents over 18, and each consent is verified (a code to the household's email, or a sworn paper page the clerk
accepts). An address with no declaration blocks the count."""

from __future__ import annotations

import re
from datetime import timedelta

import pytest
from django.core.exceptions import PermissionDenied
from django.urls import reverse

from permits.admin.edits import edit_violations
from permits.errors import RulesBroken
from permits.models import Notice, Status, Street
from permits.street_use import services
from permits.street_use.models import ConsentCode, PetitionSignature
from tests.factories import StreetFactory
from tests.permits.street_use.conftest import (
    TODAY,
    address_of,
    declare_all,
    grant_and_issue,
    paper_page,
    sign,
)

pytestmark = pytest.mark.django_db


def _codes(error):
    return [v.code for v in error.value.violations]


def _count(permit):
    return services.petition_count(permit.street_use)


def _emailed_code(email: str) -> str:
    return re.search(r"Your code: (\d{6})", Notice.objects.filter(to=email).latest("pk").body).group(1)


@pytest.fixture
def household(application, parcels, clerk):
    """106 Henni Street declared two adults; jo@example.com is bound to it."""
    address = address_of(application, parcels[1])
    services.declare_adults(permit=application, address=address, adults=2, by=clerk, source="the paper form")
    services.bind_household_email(permit=application, address=address, email="Jo@Example.com", by=clerk)
    return address


def _ask(permit, address, email="jo@example.com", name="Jo Neighbour1", adults=2):
    return services.request_consent_code(permit=permit, address=address, name=name, email=email, adults=adults)


# --- The addresses and the declarations ----------------------------------------------------------------------------


def test_303_15f_the_addresses_come_from_the_parcel_roll_along_the_portion(application, parcels, next_block_parcel):
    listed = {a.parcel_id for a in services.addresses_of(application.street_use)}
    assert listed == {p.pk for p in parcels} and next_block_parcel.pk not in listed


def test_303_15f_an_address_with_no_declaration_blocks_the_count(application, roster, parcels, clerk):
    for address in services.addresses_of(application.street_use)[1:]:
        services.declare_adults(permit=application, address=address, adults=2, by=clerk, source="the paper form")
    page = paper_page(application, clerk)
    for parcel, name in roster[2:]:
        services.enter_paper_signature(
            page=page, by=clerk, signer_name=name, address=address_of(application, parcel), signed_on=TODAY
        )
    services.accept_petition_page(page=page, by=clerk)
    count = _count(application)
    assert (count.counted, count.roster_size, count.undeclared) == (18, 18, ("102 Henni Street",))
    with pytest.raises(RulesBroken) as error:
        services.verify_petition(permit=application, by=clerk)
    assert _codes(error) == ["undeclared_address"] and "102 Henni Street" in str(error.value)


def test_303_15f_fourteen_of_twenty_declared_cannot_be_verified(application, roster, clerk):
    sign(application, roster[:14], clerk)
    with pytest.raises(RulesBroken) as error:
        services.verify_petition(permit=application, by=clerk)
    assert _codes(error) == ["petition_short"]
    application.refresh_from_db()
    assert application.status == Status.SUBMITTED


def test_303_15f_fifteen_of_twenty_declared_is_verified_and_goes_to_the_board(application, roster, clerk):
    sign(application, roster[:15], clerk)
    services.verify_petition(permit=application, by=clerk)
    application.refresh_from_db()
    assert application.status == Status.UNDER_REVIEW
    assert (application.street_use.petition_counted, application.street_use.petition_roster_size) == (15, 20)


def test_303_15f_a_portion_declaring_no_adult_is_refused(application, clerk):
    declare_all(application, clerk, adults=0)
    with pytest.raises(RulesBroken) as error:
        services.verify_petition(permit=application, by=clerk)
    assert _codes(error) == ["empty_roster"]


def test_303_15f_more_consents_than_adults_declared_blocks_the_count(application, roster, parcels, clerk):
    page = sign(application, [], clerk)
    for name in ("Alex Neighbour0", "Jo Neighbour0", "Third Person"):
        services.enter_paper_signature(
            page=page, by=clerk, signer_name=name, address=address_of(application, parcels[0]), signed_on=TODAY
        )
    services.accept_petition_page(page=page, by=clerk)
    count = _count(application)
    assert count.counted == 2 and count.over == ("102 Henni Street",)
    assert "more_consents_than_declared" in [v.code for v in count.violations]


def test_303_15f_each_unit_of_a_parcel_is_an_address(application, parcels, clerk):
    services.add_unit(permit=application, parcel=parcels[0], unit="Upper", by=clerk)
    services.add_unit(permit=application, parcel=parcels[0], unit="Lower", by=clerk)
    on_parcel = [str(a) for a in application.street_use.addresses.filter(parcel=parcels[0])]
    assert sorted(on_parcel) == ["102 Henni Street, Lower", "102 Henni Street, Upper"]
    declare_all(application, clerk)
    assert _count(application).roster_size == 22  # 9 single dwellings and 2 units, 2 adults each


def test_303_15f_a_person_consents_once_at_an_address(application, roster, clerk):
    page = sign(application, [], clerk)
    parcel, name = roster[0]
    services.enter_paper_signature(
        page=page, by=clerk, signer_name=name, address=address_of(application, parcel), signed_on=TODAY
    )
    with pytest.raises(RulesBroken) as error:
        services.enter_paper_signature(
            page=page,
            by=clerk,
            signer_name=f"  {name.upper()} ",
            address=address_of(application, parcel),
            signed_on=TODAY,
        )
    assert _codes(error) == ["already_signed"]


# --- Paper pages ---------------------------------------------------------------------------------------------------


def test_303_15f_paper_consents_count_only_once_the_page_is_accepted(application, roster, clerk):
    declare_all(application, clerk)
    page = paper_page(application, clerk, circulator="Rita Anderson")
    for parcel, name in roster[:3]:
        services.enter_paper_signature(
            page=page, by=clerk, signer_name=name, address=address_of(application, parcel), signed_on=TODAY
        )
    assert (_count(application).counted, _count(application).signatures) == (0, 3)
    services.accept_petition_page(page=page, by=clerk)
    assert _count(application).counted == 3
    assert "sworn by circulator Rita Anderson" in application.events.last().reason
    with pytest.raises(RulesBroken) as error:
        services.enter_paper_signature(
            page=page, by=clerk, signer_name="Late Line", address=address_of(application, roster[5][0]), signed_on=TODAY
        )
    assert _codes(error) == ["page_accepted"]


def test_303_15f_an_empty_page_is_not_accepted(application, clerk):
    page = paper_page(application, clerk)
    with pytest.raises(RulesBroken) as error:
        services.accept_petition_page(page=page, by=clerk)
    assert _codes(error) == ["page_empty"]


@pytest.mark.parametrize(
    "persona", ["resident", "outsider", "police_chief", "police_officer", "president", "board_member"]
)
def test_303_15f_only_the_clerk_declares_binds_uploads_and_accepts(application, parcels, persona, request):
    user = request.getfixturevalue(persona)
    address = address_of(application, parcels[0])
    with pytest.raises(PermissionDenied):
        services.declare_adults(permit=application, address=address, adults=2, by=user, source="x")
    with pytest.raises(PermissionDenied):
        services.bind_household_email(permit=application, address=address, email="a@example.com", by=user)
    with pytest.raises(PermissionDenied):
        paper_page(application, user)
    with pytest.raises(PermissionDenied):
        services.add_unit(permit=application, parcel=parcels[0], unit="Upper", by=user)
    with pytest.raises(PermissionDenied):
        services.verify_petition(permit=application, by=user)


# --- Online consent by a code to the household's email ------------------------------------------------------------


def test_303_15f_online_consent_by_a_code_to_the_households_email(application, household):
    row = _ask(application, household)
    notice = Notice.objects.get(to="jo@example.com")
    assert application.number in notice.subject and notice.permit is None  # not on the applicant's timeline
    code = _emailed_code("jo@example.com")
    assert code not in row.code_hash and len(row.code_hash) == 64  # only a keyed hash is kept
    signature = services.confirm_consent(code_row=row, code=code)
    assert signature.method == PetitionSignature.Method.ONLINE and signature.address == household
    assert _count(application).counted == 1
    with pytest.raises(RulesBroken) as error:
        services.confirm_consent(code_row=row, code=code)  # one-time
    assert _codes(error) == ["code_expired"]


def test_303_15f_an_email_not_bound_to_the_household_gets_no_code_and_cannot_consent(application, household, parcels):
    other = address_of(application, parcels[2])
    row = _ask(application, other, email="jo@example.com")  # bound to 106, not to 110
    assert not Notice.objects.filter(to="jo@example.com").exists()  # nothing sent (the page answers the same)
    with pytest.raises(RulesBroken) as error:
        services.confirm_consent(code_row=row, code="000000")
    assert _codes(error) == ["code_wrong"]
    assert _count(application).signatures == 0


def test_303_15f_the_first_verified_online_declaration_of_an_address_stands(application, parcels, clerk):
    address = address_of(application, parcels[3])
    services.bind_household_email(permit=application, address=address, email="kim@example.com", by=clerk)
    row = _ask(application, address, email="kim@example.com", name="Kim Neighbour", adults=3)
    assert application.street_use.addresses.get(pk=address.pk).adults_declared is None  # not before the code
    services.confirm_consent(code_row=row, code=_emailed_code("kim@example.com"))
    address.refresh_from_db()
    assert address.adults_declared == 3 and "Kim Neighbour, online" in address.declared_by_label


def test_303_15f_a_code_takes_five_wrong_tries_at_most(application, household):
    row = _ask(application, household)
    code = _emailed_code("jo@example.com")
    wrong = "111111" if code != "111111" else "222222"
    for _ in range(services.CODE_TRIES):
        with pytest.raises(RulesBroken) as error:
            services.confirm_consent(code_row=row, code=wrong)
        assert _codes(error) == ["code_wrong"]
    with pytest.raises(RulesBroken) as error:
        services.confirm_consent(code_row=row, code=code)
    assert _codes(error) == ["code_expired"]


def test_303_15f_a_code_is_good_to_its_last_minute(application, household, spring):
    row = _ask(application, household)
    code = _emailed_code("jo@example.com")
    with pytest.raises(RulesBroken) as error:
        services.confirm_consent(code_row=row, code=code, now=row.expires_at + timedelta(seconds=1))
    assert _codes(error) == ["code_expired"]
    services.confirm_consent(code_row=row, code=code, now=row.expires_at)
    assert _count(application).counted == 1


def test_303_15f_three_codes_an_hour_for_one_email(application, household, spring):
    for _ in range(services.CODES_PER_EMAIL_HOUR):
        _ask(application, household)
    with pytest.raises(RulesBroken) as error:
        _ask(application, household)
    assert _codes(error) == ["too_many_codes"]
    spring.shift(timedelta(hours=1))
    _ask(application, household)
    assert ConsentCode.objects.count() == services.CODES_PER_EMAIL_HOUR + 1


def test_303_15f_a_code_for_an_address_off_the_petition_is_refused(application, spring, street, segment, resident):
    from tests.permits.street_use.conftest import valid_data

    other = services.apply_for_street_use(applicant=resident, data=valid_data(street, segment))
    with pytest.raises(RulesBroken) as error:
        _ask(application, services.addresses_of(other.street_use)[0])
    assert _codes(error) == ["not_on_portion"]


# --- The area, the street, the portion and the dates stay what was consented to -----------------------------------


def test_303_15f_the_area_changes_only_before_anyone_consents(application, roster, segment, clerk):
    services.set_petition_area(permit=application, segments=[segment], by=clerk)  # nobody has consented yet
    sign(application, roster[:1], clerk)
    with pytest.raises(RulesBroken) as error:
        services.set_petition_area(permit=application, segments=[], by=clerk)
    assert _codes(error) == ["new_petition_needed"]


def _edit(permit, **changes):
    values = {
        "street": permit.street,
        "location_description": permit.location_description,
        "work_description": permit.work_description,
        "start_date": permit.start_date,
        "end_date": permit.end_date,
        "parcel": permit.parcel,
    }
    return [v.code for v in edit_violations(permit, values | changes, today=TODAY)]


def test_303_15f_before_any_consent_the_back_office_may_correct_the_street(application):
    assert _edit(application, street=StreetFactory(name="Mill Street")) == []


def test_303_15c_after_the_grant_street_portion_and_dates_are_the_boards(application, roster, clerk):
    permit = grant_and_issue(application, roster, clerk, issue=False)
    assert permit.status == Status.APPROVED
    assert _edit(permit, street=StreetFactory(name="Mill Street")) == ["closed_in_status"]
    assert _edit(permit, location_description="The whole street") == ["closed_in_status"]
    assert _edit(permit, start_date=permit.start_date - timedelta(days=1)) == ["closed_in_status"]
    assert _edit(permit, end_date=permit.end_date + timedelta(days=1)) == ["closed_in_status"]
    assert _edit(permit, work_description="A quieter party") == []


def test_303_15f_once_a_neighbour_consents_the_street_needs_a_new_petition(application, roster, segment, clerk):
    services.set_petition_area(permit=application, segments=[segment], by=clerk)
    sign(application, roster[:1], clerk)
    assert _edit(application, street=StreetFactory(name="Mill Street")) == ["new_petition_needed"]
    assert _edit(application, work_description="A quieter party") == []


def test_303_15f_the_admin_refuses_moving_a_granted_permit_to_another_street(client, application, roster, clerk):
    permit = grant_and_issue(application, roster, clerk, issue=False)
    mill = StreetFactory(name="Mill Street")
    client.force_login(clerk)
    url = reverse("admin:permits_permit_change", args=[permit.pk])
    response = client.post(
        url,
        {
            "street": mill.pk,
            "location_description": permit.location_description,
            "work_description": permit.work_description,
            "start_date": permit.start_date.isoformat(),
            "end_date": permit.end_date.isoformat(),
            **_empty_inlines(client.get(url)),
        },
    )
    assert response.status_code == 200 and "new petition" in response.content.decode()
    permit.refresh_from_db()
    assert permit.street != mill and Street.objects.filter(pk=permit.street_id).exists()


def _empty_inlines(response) -> dict:
    """The management forms of the admin page's inlines, each with its rows unchanged (none sent)."""
    data = {}
    for formset in response.context["inline_admin_formsets"]:
        management = formset.formset.management_form
        for name, field in management.fields.items():
            data[f"{management.prefix}-{name}"] = management.initial.get(name, field.initial)
        data[f"{management.prefix}-TOTAL_FORMS"] = 0
        data[f"{management.prefix}-INITIAL_FORMS"] = 0
    return data


def test_303_15f_a_street_corrected_before_consent_needs_the_area_named_again(application, roster, clerk, segment):
    from permits import workflow

    mill = StreetFactory(name="Mill Street")
    type(application).objects.filter(pk=application.pk).update(street=mill)  # the back office's correction
    application.refresh_from_db()
    sign(application, roster[:15], clerk)
    with pytest.raises(RulesBroken) as error:
        services.verify_petition(permit=application, by=clerk)
    assert _codes(error) == ["segment_off_street"]
    with pytest.raises(RulesBroken) as error:
        workflow.transition(application, Status.UNDER_REVIEW, by=clerk)
    assert "segment_off_street" in _codes(error)
