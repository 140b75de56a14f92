"""Notices at every step: which topic each email template belongs to, who may turn a topic's email off,
the context every notice is rendered with (the Village's name and the absolute address of the site), and the notices
of the workflow's own steps (approved, denied, withdrawn, information needed).

A notice the recipient turned off is still kept on the record: the permit's timeline says it was not emailed and
why, and the page shows it. Notices the law requires in writing are always given (emailed, or mailed where no email
is on file), whatever the preference: a person cannot choose not to be served.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from django.conf import settings
from django.db import transaction


@dataclass(frozen=True)
class Topic:
    code: str
    label: str
    templates: tuple[str, ...]
    required: str = ""  # why the notice is always given (its section), or "" when the person may turn it off


TOPICS: tuple[Topic, ...] = (
    Topic("submitted", "Application received", ("application_received",)),
    Topic("needs_information", "The Village needs more information", ("permit_needs_information",)),
    Topic(
        "approved",
        "Approved, denied or withdrawn",
        (
            "permit_approved",
            "permit_denied",
            "permit_withdrawn",
            "street_opening_approval_held",
            "street_opening_dates_set",
        ),
    ),
    Topic(
        "issued",
        "Permit issued",
        ("street_opening_issued", "sidewalk_permit_issued", "street_privilege_issued", "street_use_issued"),
    ),
    Topic("inspection", "Inspection results", ("field_inspection_failed", "sidewalk_inspection_result")),
    Topic(
        "renewal",
        "Renewals",
        ("street_opening_renewal_granted", "street_opening_renewal_refused", "street_opening_renewed"),
    ),
    Topic(
        "expiry",
        "Expiry warnings",
        (
            "street_opening_expiry_reminder",
            "street_opening_opening_lapsed",
            "street_opening_ticket_stale",
            "street_privilege_terminating",
            "street_privilege_ended",
        ),
    ),
    Topic(
        "completion",
        "Completion",
        ("street_opening_completion_confirmed", "street_opening_completion_refused", "field_pavement_overdue"),
    ),
    Topic(
        "charge_billed",
        "Special charge billed",
        ("special_charge_bill", "field_village_repair_bill"),
        required="A special charge is billed to the owner in writing (Wis. Stat. § 66.0627(2)).",
    ),
    Topic(
        "delinquent",
        "Special charge delinquent",
        ("special_charge_delinquent",),
        required="A delinquent charge is noticed before it goes on the tax roll (Wis. Stat. § 66.0627(4)).",
    ),
    Topic(
        "orders",
        "Orders and written notices to correct",
        (
            "field_defect_notice",
            "sidewalk_order_served",
            "snow_case_notice",
            "rubbish_notice",
            "street_opening_repaving_notice",
            "street_privilege_obstruction_notice",
            "enforcement_notice",
        ),
        required="The Code requires these in writing (§ 303-4H(4), § 303-3, § 303-8B, § 303-2, § 303-5I, § 303-7F, "
        "§ 303-6D, § 303-6E, § 303-9, § 303-14C).",
    ),
    Topic("parcel_link", "Links to my property", ("parcel_link_decided",)),
    Topic(
        "office",
        "Office work (for Village staff)",
        (
            "street_opening_completion_requested",
            "street_opening_renewal_request",
            "street_opening_late_emergency",
            "street_opening_emergency_reported",
            "street_opening_emergency_unfiled",
            "field_defect_past_deadline",
            "field_notice_reminder",
            "online_payment_held",
            "street_privilege_recommendation_requested",
        ),
    ),
)

TOPIC_OF_TEMPLATE: dict[str, Topic] = {t: topic for topic in TOPICS for t in topic.templates}


def notice_context(context: dict) -> dict:
    """What every notice is rendered with: the Village's name and the site's absolute address, so that each link in
    an email opens on the configured site (SITE_URL), never a relative path nobody can click."""
    return {"SITE_URL": settings.SITE_URL, "VILLAGE_NAME": settings.VILLAGE_NAME, **context}


def absolute_url(path: str) -> str:
    return settings.SITE_URL + path


def topic_for(template: str) -> Topic | None:
    return TOPIC_OF_TEMPLATE.get(template)


def email_turned_off(emails: Iterable[str], template: str) -> set[str]:
    """The addresses (lower-cased) among `emails` whose person turned `template`'s topic off: one query. A topic the
    law requires, or a template of no topic, is never off."""
    from permits.models import NoticePreference

    topic = topic_for(template)
    wanted = {e.strip().lower() for e in emails if e}
    if topic is None or topic.required or not wanted:
        return set()
    from django.db.models.functions import Lower

    rows = (
        NoticePreference.objects.filter(topic=topic.code, by_email=False)
        .annotate(email=Lower("user__email"))
        .filter(email__in=wanted)
    )
    return set(rows.values_list("email", flat=True))


def preferences_for(user) -> list[tuple[Topic, bool]]:
    """Each topic with whether `user` gets it by email (required topics: always True)."""
    from permits.models import NoticePreference

    off = set(NoticePreference.objects.filter(user=user, by_email=False).values_list("topic", flat=True))
    return [(topic, bool(topic.required) or topic.code not in off) for topic in TOPICS]


@transaction.atomic
def set_preferences(*, user, by_email: Iterable[str]) -> list[str]:
    """Record which optional topics `user` gets by email (the codes in `by_email`; the others are turned off).
    Required topics cannot be turned off. Returns the codes turned off."""
    from permits.models import NoticePreference

    chosen = set(by_email)
    off = []
    for topic in TOPICS:
        if topic.required:
            continue
        on = topic.code in chosen
        NoticePreference.objects.update_or_create(user=user, topic=topic.code, defaults={"by_email": on})
        if not on:
            off.append(topic.code)
    return off


# --- The workflow's own steps -------------------------------------------------------------------------------------

STEP_TEMPLATES = {
    "approved": "permit_approved",
    "denied": "permit_denied",
    "withdrawn": "permit_withdrawn",
}


def notify_step(permit, *, to: str, by, reason: str = "") -> None:
    """Tell the applicant of a step transition() took that no verb tells them of itself. Sent once the step is
    committed, and only if the permit is still in that status then: approved and issued in one go, the applicant gets
    the "issued" notice alone (its verb sends it), not two."""
    template = STEP_TEMPLATES.get(str(to))
    if template is None or permit.applicant_id is None:
        return
    if str(to) == "withdrawn" and by is not None and by.pk == permit.applicant_id:
        return  # they withdrew it themselves: the page told them

    def send():
        from permits.models import Permit
        from permits.services import send_notice

        current = Permit.objects.select_related("applicant").filter(pk=permit.pk, status=to).first()
        if current is None:
            return
        with transaction.atomic():
            send_notice(
                current,
                to=current.applicant.email,
                template=template,
                context={"permit": current, "reason": reason},
            )

    transaction.on_commit(send)
