"""Notices at every step: which topic each email template belongs to, who may turn a topic's email off,
the context every notice is rendered with (the Village's name and the absolute address of the site), and the notices
of the workflow's own steps (approved, denied, withdrawn, information needed).

A notice the recipient turned off is still kept on the record: the permit's timeline says it was not emailed and
why, and the page shows it. Notices the law requires in writing are always given (emailed, or mailed where no email
is on file), whatever the preference: a person cannot choose not to be served.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass
from datetime import date, datetime
from datetime import time as clock_time
from functools import cache

from django.conf import settings
from django.db import transaction
from django.utils import timezone

from permits.readings import Reading


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
        "information_answered", "An applicant answered your request for information", ("permit_information_answered",)
    ),
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
        (
            "special_charge_bill",
            "field_village_repair_bill",
            "sidewalk_minor_repair_notice",
            "field_village_expenses_bill",
        ),
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
            "field_covering_hold",
            "sidewalk_order_served",
            "special_assessment_notice",
            "snow_case_notice",
            "rubbish_notice",
            "street_opening_repaving_notice",
            "street_privilege_obstruction_notice",
            "enforcement_notice",
        ),
        required="The Code requires these in writing (§ 303-4H(2), § 303-4H(4), § 303-3, § 303-8B, § 303-2, "
        "§ 303-5I, § 303-7F, § 303-6D, § 303-6E, § 303-9, § 303-14C; Wis. Stat. § 66.0703(7)); the DPW's request to "
        "check before covering (§ 303-1C(4)) is always given.",
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


# --- When a notice is given: the moment every "after notice" clock reads ------------------------------------------

# A letter is presumed received this many days after it is mailed (counted as Wis. Stat. § 990.001(4) counts days):
# the usual presumption for first-class mail, the one Wisconsin's courts apply to service by mail (§ 801.15(5)(a)).
MAIL_RECEIPT_DAYS = 3


@dataclass(frozen=True)
class Given:
    """When a notice was given: `on`, the day it counts as given (the first day a period of days excludes), and
    `at`, the moment a period of hours starts."""

    on: date
    at: datetime
    by_mail: bool = False


@dataclass(frozen=True)
class NoticeClock:
    """A deadline that runs from a written notice: the notice is the one rendered from `template` about a record, and
    `start(record_id, given)` starts the record's clock (it stamps the record, and does nothing once started).
    `receipt_days` is the presumed receipt the rule needs for a mailed letter: 0 where the rule runs from the notice
    itself, MAIL_RECEIPT_DAYS where the person must have the notice in hand to act on it (24 hours to remove)."""

    template: str
    start: Callable[[int, Given], None]
    receipt_days: int = 0


def given(notice, *, receipt_days: int = 0) -> Given | None:
    """The one reading of when a notice is given, read by every clock that runs "after notice": an email when it is
    handed to the mail server (queued at once, in the same transaction as the step that gave it); a letter only once the
    Clerk-Treasurer records the day it was mailed, and then on that day (or on the day of its presumed receipt).
    The hour a letter was mailed or received is not known, so a period of hours starts when that day ends: the
    person keeps the whole day. None while a letter waits in "Letters to mail": no clock has started."""
    from permits import time as law_time

    if notice.channel == "email":
        moment = notice.sent_at or notice.created_at
        return Given(on=timezone.localdate(moment), at=moment) if moment else None
    if notice.mailed_on is None:
        return None
    on = law_time.last_day(notice.mailed_on, receipt_days) if receipt_days else notice.mailed_on
    at = timezone.make_aware(datetime.combine(law_time.shift(on, 1), clock_time.min))
    return Given(on=on, at=at, by_mail=True)


@cache
def clocks() -> dict[str, NoticeClock]:
    """Every part's clocks that start on a notice (`<part>.notice_clocks.CLOCKS`), by template."""
    from permits import kinds

    return {clock.template: clock for module in kinds.discover("notice_clocks") for clock in module.CLOCKS}


def start_clocks(notices: Iterable) -> None:
    """Start the clock of each notice that is given (permits.services.send_notice for an email, permits.letters'
    record_mailing for a letter): the one path from "a notice was given" to "its deadline runs"."""
    for notice in notices:
        clock = clocks().get(notice.template)
        if clock is None or notice.record_id is None:
            continue
        moment = given(notice, receipt_days=clock.receipt_days)
        if moment is not None:
            clock.start(notice.record_id, moment)


def given_to_all(record, template: str, *, receipt_days: int = 0) -> Given | None:
    """When the last of the notices `template` about `record` was given, once every one of them has been; None while
    none exists or any letter among them waits to be mailed (a notice to many: § 303-5I's utilities and owners)."""
    from django.contrib.contenttypes.models import ContentType

    from permits.models import Notice

    rows = Notice.objects.filter(
        record_type=ContentType.objects.get_for_model(record), record_id=record.pk, template=template
    )
    moments = [given(n, receipt_days=receipt_days) for n in rows]
    if not moments or any(m is None for m in moments):
        return None
    return max(moments, key=lambda g: g.at)


READINGS = (
    Reading(
        "When a notice is given",
        "How the Village counts time",
        "A deadline that runs after a written notice runs from the notice actually given: an email from the moment "
        "it is sent; a letter only once the Clerk-Treasurer records the day it was mailed, never from the day the "
        "Board or an official decided to send it. The hour a letter arrives is not known, so a period of hours "
        "starts when its day ends.",
    ),
    Reading(
        "Presumed receipt of a mailed notice",
        "How the Village counts time",
        "Where the person must have the notice in hand to act on it (24 hours to remove an obstruction, § 303-6D, "
        "§ 303-6E, § 303-7F; 30 days to finish excavation before a repaving, § 303-5I; 10 days to pay an "
        "obstruction bill, § 303-6F(1)), a mailed letter is presumed received three days after it is mailed, "
        "counted as days are counted (a Sunday or legal holiday moves it to the next day), as Wisconsin presumes "
        "for service by mail (Wis. Stat. § 801.15(5)(a)).",
        otherwise="The Village attorney may read a clause otherwise; proof of an earlier actual receipt is not "
        "recorded, so the presumption is the only date the office uses.",
    ),
)
