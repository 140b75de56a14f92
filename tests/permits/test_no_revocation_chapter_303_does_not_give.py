"""Chapter 303 gives no revocation of a street opening permit (§ 303-4H(2) revokes the right to obtain permits) nor of a
sidewalk permit (§ 303-3D(10) stops the work): no role marks one revoked, on the workflow every path goes through."""

import pytest

from permits import workflow
from permits.models import Permit, Status


@pytest.mark.parametrize("kind", ["street_opening", "sidewalk"])
@pytest.mark.parametrize("persona", ["clerk", "dpw_director", "board_member", "president"])
def test_no_role_may_revoke(kind, persona, request, db):
    permit = Permit(kind=kind, status=Status.ISSUED, number="X-1")
    assert not workflow.may_transition(request.getfixturevalue(persona), permit, Status.REVOKED)
