"""Back office for the street opening records. Status and audit fields are read-only; acts go through the
services (permits.street_opening.services); public records are never deleted."""

from django import forms
from django.contrib import admin, messages
from django.core.exceptions import PermissionDenied
from django.utils.html import format_html, format_html_join
from simple_history.admin import SimpleHistoryAdmin

from permits.admin.mixins import AddedThroughService, NoDelete, ReadOnly
from permits.board.admin import ServiceAdmin, ServiceForm
from permits.street_opening import rules as ordinance
from permits.street_opening import services as so
from permits.street_opening.field import admin as field_admin  # noqa: F401  (the field half's back office)
from permits.street_opening.models import (
    AnnualBond,
    ApplicantRevocation,
    BondAmount,
    DiggersTicket,
    EmergencyDetermination,
    EmergencyReport,
    MoratoriumException,
    Renewal,
    RenewalRequest,
    StreetImprovement,
    StreetOpening,
)


class TicketInline(ReadOnly, admin.TabularInline):
    model = DiggersTicket
    extra = 0
    fields = readonly_fields = ["number", "contractor", "requested_at", "legal_start", "verified_by", "verified_at"]


@admin.register(StreetOpening)
class StreetOpeningAdmin(ReadOnly, SimpleHistoryAdmin):
    list_display = ["permit", "surface", "emergency", "late_filing_flagged_at", "annual_bond", "insurance_expires"]
    list_filter = ["surface", "emergency", "annual_bond", "underground_utility"]
    search_fields = ["permit__number", "permit__street__name", "permit__location_description"]
    list_select_related = ["permit"]
    inlines = [TicketInline]
    exclude = ["statement_undertakings"]
    readonly_fields = ["undertakings"]

    @admin.display(description="Undertakings signed (§ 303-4H(1))")
    def undertakings(self, obj):
        """The signed statement as the applicant read it, one undertaking a line, not the stored list of keys."""
        signed = [ordinance.UNDERTAKINGS.get(key, key) for key in obj.statement_undertakings]
        if not signed:
            return "None"
        return format_html("<ul>{}</ul>", format_html_join("", "<li>{}</li>", ((text,) for text in signed)))


class BondAmountForm(ServiceForm):
    class Meta:
        model = BondAmount
        fields = ["kind", "amount", "effective_from", "effective_until", "motion"]

    def call_service(self, data):
        return so.set_bond_amount(
            kind=data["kind"],
            amount=data["amount"],
            effective_from=data["effective_from"],
            effective_until=data.get("effective_until"),
            motion=data["motion"],
            by=self.request.user,
        )


@admin.register(BondAmount)
class BondAmountAdmin(ServiceAdmin, SimpleHistoryAdmin):
    """§ 303-4H(3), (5): the bond amounts "determined by the Village Board", each set by a recorded motion with its
    effective dates; a bond below the amount in force does not count. Read-only once recorded (a new motion sets a
    new amount)."""

    form = BondAmountForm
    list_display = ["kind", "amount", "effective_from", "effective_until", "motion"]
    list_filter = ["kind"]
    raw_id_fields = ["motion"]


class AnnualBondForm(ServiceForm):
    class Meta:
        model = AnnualBond
        fields = ["organization", "principal_user", "year", "surety", "bond_number", "amount"]

    def call_service(self, data):
        return so.record_annual_bond(
            organization=data.get("organization"),
            principal_user=data.get("principal_user"),
            year=data["year"],
            surety=data["surety"],
            bond_number=data.get("bond_number", ""),
            amount=data["amount"],
            by=self.request.user,
        )


@admin.register(AnnualBond)
class AnnualBondAdmin(ServiceAdmin, SimpleHistoryAdmin):
    """§ 303-4H(5): the annual bonds filed (January 1 to December 31 of `year`), added through the service that
    refuses one below the Board's amount; the Clerk-Treasurer's page is /street-openings/annual-bonds/."""

    form = AnnualBondForm
    list_display = ["year", "organization", "principal_user", "surety", "amount", "recorded_at"]
    list_filter = ["year"]
    search_fields = ["organization__name", "surety", "bond_number"]
    raw_id_fields = ["principal_user"]


class StreetImprovementForm(forms.ModelForm):
    class Meta:
        model = StreetImprovement
        fields = ["street", "description", "decided_on", "work_begins_on", "repaved_on"]

    def clean(self):
        data = super().clean()
        if data.get("decided_on") and data.get("work_begins_on"):
            for v in ordinance.board_decision_violations(
                decided_on=data["decided_on"], work_begins_on=data["work_begins_on"]
            ):
                self.add_error(v.field, v.message)
        return data


@admin.register(StreetImprovement)
class StreetImprovementAdmin(AddedThroughService, NoDelete, SimpleHistoryAdmin):
    """§ 303-5I: the Board's repaving decisions; the clerk sends the notices from here."""

    form = StreetImprovementForm
    list_display = ["street", "description", "decided_on", "work_begins_on", "repaved_on", "notices_sent_at"]
    list_filter = ["street"]
    readonly_fields = ["notices_sent_at", "recorded_by", "recorded_at"]
    actions = ["send_notices"]

    def create(self, request, obj):
        # Only the Board, the President or the clerk record a decision.
        created = so.record_street_improvement(
            street=obj.street,
            by=request.user,
            description=obj.description,
            decided_on=obj.decided_on,
            work_begins_on=obj.work_begins_on,
        )
        if obj.repaved_on:
            so.record_repaving_done(improvement=created, by=request.user, repaved_on=obj.repaved_on)
        return created

    @admin.action(description="Send the § 303-5I notices to utilities and abutting owners")
    def send_notices(self, request, queryset):
        for improvement in queryset:
            try:
                sent = so.send_improvement_notices(improvement=improvement, by=request.user)
            except PermissionDenied as error:
                self.message_user(request, str(error), messages.ERROR)
                return
            mail = ", ".join(p.site_address for p in sent.to_mail) or "none"
            self.message_user(
                request, f"{improvement.street}: {len(sent.emailed)} notices emailed; to mail by post: {mail}."
            )


class EmergencyReportForm(forms.ModelForm):
    """A call the clerk takes is checked by the same rule as the web and the API: only a utility (and its staff)
    may claim an emergency (§ 303-5H)."""

    class Meta:
        model = EmergencyReport
        fields = ["organization", "reported_by_name", "street", "location_description", "began_on"]

    def clean(self):
        data = super().clean()
        if self.instance.pk is None and not self.errors:
            organization = data.get("organization")
            for v in ordinance.emergency_claimant_violations(
                emergency=True,
                for_organization=organization is not None,
                utility_facilities=organization.utility_facilities if organization else (),
            ):
                self.add_error("organization", v.message)
        return data


@admin.register(EmergencyReport)
class EmergencyReportAdmin(AddedThroughService, NoDelete, admin.ModelAdmin):
    """§ 303-5H: emergencies the Village office was told of; flagged when no application follows in time. A new
    report goes through the service (the rule, the clerk's email); a recorded one is read-only but for its place."""

    form = EmergencyReportForm
    list_display = ["street", "location_description", "organization", "began_on", "reported_at", "permit", "flagged_at"]
    readonly_fields = ["recorded_by", "reported_at", "permit", "flagged_at"]

    def get_readonly_fields(self, request, obj=None):
        if obj is not None:
            return [*self.readonly_fields, "organization", "street", "began_on"]
        return self.readonly_fields

    def create(self, request, obj):
        return so.report_emergency(
            by=request.user,
            street=obj.street,
            location_description=obj.location_description,
            began_on=obj.began_on,
            organization=obj.organization,
            reported_by_name=obj.reported_by_name,
        )


@admin.register(ApplicantRevocation)
class ApplicantRevocationAdmin(ReadOnly, admin.ModelAdmin):
    """§ 303-4H(2): made from the permit's Village actions page (or by the defect-notice job), never by hand."""

    list_display = ["organization", "user", "revoked_on", "until", "lifted_at", "permit"]
    list_filter = [("until", admin.DateFieldListFilter)]


@admin.register(RenewalRequest)
class RenewalRequestAdmin(ReadOnly, admin.ModelAdmin):
    """§ 303-4E: the permittee's written requests, decided on the permit's Village actions page (where the renewal
    fee is charged and the winter rule of § 303-5A is checked), never by hand here."""

    list_display = ["street_opening", "requested_by", "requested_at", "work_begun_on", "state", "decided_by"]
    list_filter = ["state"]
    list_select_related = ["street_opening__permit", "requested_by", "decided_by"]


for model in (DiggersTicket, EmergencyDetermination, MoratoriumException, Renewal):
    admin.site.register(model, type(f"{model.__name__}Admin", (ReadOnly, admin.ModelAdmin), {}))
