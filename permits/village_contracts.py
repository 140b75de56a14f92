"""§ 303-3C: the Village's contracts for sidewalk work, a register the Clerk-Treasurer keeps, and the one question
the permits ask of it: does contract N cover this parcel on this day?"""

from __future__ import annotations

from datetime import date

from django.db import IntegrityError, transaction
from django.utils import timezone

from permits.access import require_role
from permits.errors import Violation, raise_if_broken
from permits.models import Parcel, VillageContract
from permits.roles import Role

CITE = "§ 303-3C"


def record_contract(
    *,
    number: str,
    contractor: str,
    work: str,
    parcels,
    starts_on: date,
    ends_on: date,
    by,
    organization=None,
    motion=None,
) -> VillageContract:
    """§ 303-3C: the Clerk-Treasurer enters a contract the Village let in its register: its number, the contractor,
    the work, the parcels it covers and its term (and the Board's motion that awarded it, where the Board did)."""
    require_role(by, Role.CLERK, action="keep the Village's contract register (the Clerk-Treasurer does, § 303-3C)")
    number, contractor, work, parcels = (
        (number or "").strip(),
        (contractor or "").strip(),
        (work or "").strip(),
        list(parcels or []),
    )
    errors = []
    if not number:
        errors.append(Violation("number", "number_required", CITE, f"Give the contract's number ({CITE})."))
    elif VillageContract.objects.filter(number__iexact=number).exists():
        message = f"Contract {number} is already in the register: each number once ({CITE})."
        errors.append(Violation("number", "number_taken", CITE, message))
    if not contractor:
        errors.append(Violation("contractor", "contractor_required", CITE, f"Name the contractor ({CITE})."))
    if not work:
        errors.append(Violation("work", "work_required", CITE, f"Describe the work contracted ({CITE})."))
    if not parcels:
        message = f"Choose the parcels whose walks the contract covers ({CITE})."
        errors.append(Violation("parcels", "parcels_required", CITE, message))
    if starts_on and ends_on and ends_on < starts_on:
        message = f"The term ends on {ends_on:%B %-d, %Y}, before it starts on {starts_on:%B %-d, %Y} ({CITE})."
        errors.append(Violation("ends_on", "ends_before_start", CITE, message))
    if motion is not None and not motion.carried:
        message = f"The motion failed ({motion.ayes}-{motion.nays}): it awarded nothing ({CITE})."
        errors.append(Violation("motion", "motion_failed", CITE, message))
    raise_if_broken(errors)
    try:
        with transaction.atomic():
            contract = VillageContract.objects.create(
                number=number,
                contractor=contractor,
                organization=organization,
                work=work,
                starts_on=starts_on,
                ends_on=ends_on,
                motion=motion,
                recorded_by=by,
                recorded_at=timezone.now(),
            )
            contract.parcels.set(parcels)
    except IntegrityError:  # the same number entered at the same moment by another clerk
        message = f"Contract {number} is already in the register: each number once ({CITE})."
        raise_if_broken([Violation("number", "number_taken", CITE, message)])
    return contract


def contract_errors(number: str, parcel: Parcel, on: date, *, organization=None, field: str = "reference"):
    """§ 303-3C: work "under contract with the Village" is work under a contract in the register that covers the
    parcel and is in force on `on` (its first and last days included); when the contract names the contractor's
    company, the filing must be that company's. [] when it holds."""
    number = (number or "").strip()
    contract = VillageContract.objects.filter(number__iexact=number).first() if number else None
    if contract is None:
        message = f"No contract numbered {number or '(none given)'} is in the Village's register ({CITE})."
        return [Violation(field, "no_such_contract", CITE, message)]
    errors = []
    if not contract.parcels.filter(pk=parcel.pk).exists():
        message = f"Contract {contract.number} does not cover {parcel.site_address} ({CITE})."
        errors.append(Violation(field, "contract_not_for_parcel", CITE, message))
    if not contract.starts_on <= on <= contract.ends_on:
        message = (
            f"Contract {contract.number} runs from {contract.starts_on:%B %-d, %Y} through "
            f"{contract.ends_on:%B %-d, %Y}, not on {on:%B %-d, %Y} ({CITE})."
        )
        errors.append(Violation(field, "contract_not_in_force", CITE, message))
    if contract.organization_id and (organization is None or contract.organization_id != organization.pk):
        message = f"Contract {contract.number} is {contract.contractor}'s, not this filer's ({CITE})."
        errors.append(Violation(field, "contract_of_another", CITE, message))
    return errors
