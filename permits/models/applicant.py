"""What the applicant keeps in the portal: saved drafts of an application, which notices each person gets
by email, and requests to be linked to a parcel as its owner (approved by the Clerk-Treasurer)."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.urls import reverse

from permits.models.core import Parcel


class ApplicationDraft(models.Model):
    """An application saved before it was submitted: what the applicant typed, unchecked, kept for them alone. It
    becomes a permit only when submitted through the type's own verb (which checks every rule)."""

    applicant = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="drafts")
    kind = models.CharField(max_length=30)
    data = models.JSONField(default=dict)
    title = models.CharField(max_length=200, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["-updated_at"]
        indexes = [models.Index(fields=["applicant", "-updated_at"])]

    def __str__(self) -> str:
        return self.title or f"Draft {self.pk}"


class NoticePreference(models.Model):
    """One person's choice for one topic of notice (permits.notices.TOPICS): emailed, or only kept on the record.
    No row: emailed (the default)."""

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="notice_preferences")
    topic = models.CharField(max_length=40)
    by_email = models.BooleanField(default=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["user", "topic"], name="notice_preference_once_per_topic")]

    def __str__(self) -> str:
        return f"{self.user}: {self.topic} {'by email' if self.by_email else 'on the record only'}"


class ParcelLinkRequest(models.Model):
    """A resident asks to be linked to a parcel as its owner, with proof: the number of the parcel's property tax
    bill, or an uploaded document (a deed, a tax bill). The Clerk-Treasurer approves or refuses it; approved, the
    person is one of the parcel's `owners` and sees its charges, orders and cases."""

    class Status(models.TextChoices):
        PENDING = "pending", "Waiting for the Clerk-Treasurer"
        APPROVED = "approved", "Approved"
        REFUSED = "refused", "Refused"

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="parcel_link_requests")
    parcel = models.ForeignKey(Parcel, on_delete=models.CASCADE, related_name="link_requests")
    tax_bill_number = models.CharField(max_length=40, blank=True)
    document = models.FileField(upload_to="parcel-links/%Y/", blank=True)
    document_content_type = models.CharField(max_length=60, blank=True)
    note = models.CharField(max_length=300, blank=True)
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.PENDING, editable=False)
    requested_at = models.DateTimeField(auto_now_add=True)
    decided_at = models.DateTimeField(null=True, blank=True, editable=False)
    decided_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, null=True, blank=True, related_name="+", editable=False
    )
    decision_reason = models.CharField(max_length=300, blank=True, editable=False)

    class Meta:
        ordering = ["requested_at"]
        indexes = [models.Index(fields=["status", "requested_at"])]
        constraints = [
            # One open request per person and parcel: asking twice does not queue the clerk twice.
            models.UniqueConstraint(
                fields=["user", "parcel"], condition=Q(status="pending"), name="parcel_link_one_pending"
            ),
            models.CheckConstraint(condition=~Q(tax_bill_number="") | ~Q(document=""), name="parcel_link_has_proof"),
        ]

    def __str__(self) -> str:
        return f"{self.user} for {self.parcel}"

    def get_absolute_url(self) -> str:
        return reverse("permits:parcel_link_requests")


class InformationRequest(models.Model):
    """Village staff ask the applicant for what an application lacks, and the applicant answers (text and
    documents) on the permit page. Open while unanswered: the applicant sees the question at the top of the permit
    page and on My applications; answered, the permit shows "Answered" in the office list until the review goes on
    (its next status change) or staff ask again. The permit keeps its status throughout (permits.applicant
    .applications: request_information, answer_information_request)."""

    permit = models.ForeignKey("permits.Permit", on_delete=models.PROTECT, related_name="information_requests")
    question = models.TextField()
    asked_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")
    asked_at = models.DateTimeField()
    answer = models.TextField(blank=True)
    answered_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, null=True, blank=True, related_name="+"
    )
    answered_at = models.DateTimeField(null=True, blank=True)
    documents = models.ManyToManyField("permits.Document", blank=True, related_name="+")

    class Meta:
        ordering = ["-asked_at", "-id"]
        indexes = [models.Index(fields=["permit", "-asked_at"], name="info_request_permit_idx")]
        constraints = [
            # At most one request waits for its answer at a time: a second is asked once the first is answered.
            models.UniqueConstraint(
                fields=["permit"], condition=Q(answered_at__isnull=True), name="info_request_one_open"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.permit} asked {self.asked_at:%Y-%m-%d}"

    @property
    def is_open(self) -> bool:
        return self.answered_at is None
