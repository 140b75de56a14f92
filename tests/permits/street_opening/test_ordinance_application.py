"""§ 303-4A and § 303-5E(3) at their boundaries (the other street-opening rules are in test_ordinance.py)."""

from datetime import date, datetime
from zoneinfo import ZoneInfo

from permits.street_opening import rules as ordinance

CHICAGO = ZoneInfo("America/Chicago")


def test_303_4a_private_excavation_needs_a_permit_and_village_work_does_not():
    assert ordinance.permit_required(village_work=False) is True
    assert ordinance.permit_required(village_work=True) is False


def test_303_4a_application_must_name_street_location_nature_and_method():
    complete = dict(
        street="Henni Street", location_description="100 block", work_description="Water lateral", method="Open cut"
    )
    assert ordinance.application_violations(**complete) == []
    for field in complete:
        errors = ordinance.application_violations(**{**complete, field: "  "})
        assert [e.field for e in errors] == [field]
        assert errors[0].citation == "§ 303-4B"


def test_303_5e_3_no_approval_without_a_locate_ticket_but_an_emergency_may_add_it_later():
    missing = dict(ticket_number="", requested_at=None, legal_start=None, start_date=date(2026, 6, 8))
    at_approval = ordinance.diggers_ticket_violations(**missing, emergency=False, at_approval=True)
    assert [v.code for v in at_approval] == ["ticket_missing"]
    assert ordinance.diggers_ticket_violations(**missing, emergency=True, at_approval=False) == []


def test_303_5e_3_work_may_not_start_before_the_utilities_are_located():
    # Requested Monday June 1, 2026: the legal start is Thursday June 4 (3 working days later).
    requested = datetime(2026, 6, 1, 9, 0, tzinfo=CHICAGO)

    def codes(start):
        return [
            v.code
            for v in ordinance.diggers_ticket_violations(
                ticket_number="20261234567",
                requested_at=requested,
                legal_start=None,
                start_date=start,
                emergency=False,
                at_approval=True,
            )
        ]

    assert codes(date(2026, 6, 3)) == ["before_legal_start"]
    assert codes(date(2026, 6, 4)) == []
    assert codes(date(2026, 6, 5)) == []
