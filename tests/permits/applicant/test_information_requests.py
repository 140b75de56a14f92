"""A request for information is a state the applicant sees and answers: the question at the top of the permit page
and on My applications, a reply (text and documents) that goes back to the staff who asked and flags the permit
"Answered" in the office list until the review goes on; one open request at a time; only the applicant's side
answers, and only while the permit still waits."""

import pytest
from django.core.exceptions import PermissionDenied, ValidationError
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse
from django.utils import timezone
from django.utils.dateformat import format as format_date

from permits import workflow
from permits.applicant import applications
from permits.models import InformationRequest, Membership, PermitEvent, Status
from permits.selectors import answered_requests
from tests.factories import UserFactory
from tests.upload_samples import PDF

QUESTION = "Upload a sketch of the walk with its width."


def pdf(name="sketch.pdf"):
    return SimpleUploadedFile(name, PDF, content_type="application/pdf")


@pytest.fixture
def asked(submitted, clerk):
    applications.request_information(permit=submitted, by=clerk, message=QUESTION)
    return submitted


def today_text():
    return format_date(timezone.localdate(), "M j, Y")


def test_asked_the_applicant_sees_the_question_on_my_applications(client, contractor, asked):
    client.force_login(contractor)
    page = client.get(reverse("permits:my_applications")).content.decode()
    assert f"The Village asked for information: {QUESTION}, asked on {today_text()}" in page
    assert "Information requested" in page
    assert "Awaiting the Village&#x27;s review" not in page


def test_asked_the_permit_page_shows_the_question_at_the_top_with_the_answer_form(client, contractor, asked):
    client.force_login(contractor)
    page = client.get(asked.get_absolute_url()).content.decode()
    top = page.index('id="info-asked-heading"')
    assert top < page.index("Timeline") and top < page.index("Payments and receipts")
    assert f"The Village asked for information: {QUESTION}, asked on {today_text()}" in page
    assert 'action="/permits/{}/answer-information/"'.format(asked.number) in page
    assert 'enctype="multipart/form-data"' in page


def test_staff_see_the_wait_without_an_answer_form_nor_a_second_ask_form(client, clerk, asked):
    client.force_login(clerk)
    page = client.get(asked.get_absolute_url()).content.decode()
    assert "Waiting for the applicant's answer" in page
    assert "answer-information" not in page
    assert "request-information" not in page


def test_a_second_request_waits_for_the_answer_to_the_first(clerk, asked):
    with pytest.raises(ValidationError) as refused:
        applications.request_information(permit=asked, by=clerk, message="And the curb?")
    assert "has not yet answered the request asked on" in str(refused.value)
    assert InformationRequest.objects.filter(permit=asked).count() == 1


def test_a_second_request_is_possible_after_the_answer(clerk, contractor, asked):
    applications.answer_information_request(permit=asked, by=contractor, answer="Sketch attached.", uploads=[])
    applications.request_information(permit=asked, by=clerk, message="And the curb height?")
    assert applications.open_request(asked).question == "And the curb height?"
    assert InformationRequest.objects.filter(permit=asked).count() == 2


def test_the_applicant_answers_with_a_document_on_the_page(
    client, contractor, clerk, asked, django_capture_on_commit_callbacks
):
    client.force_login(contractor)
    data = {"info-answer": "The sketch is attached.", "info-kind": "plans", "info-documents": [pdf(), pdf("b.pdf")]}
    response = client.post(reverse("permits:answer_information", args=[asked.number]), data)
    assert response.status_code == 302
    request = InformationRequest.objects.get(permit=asked)
    assert request.answer == "The sketch is attached." and request.answered_by == contractor
    assert sorted(d.original_name for d in request.documents.all()) == ["b.pdf", "sketch.pdf"]
    assert asked.documents.filter(kind="plans").count() == 2
    assert asked.events.filter(reason="Information given (2 documents attached): The sketch is attached.").exists()
    notice = asked.notices.get(template="permit_information_answered")
    assert notice.to == clerk.email
    assert QUESTION in notice.body and "The sketch is attached." in notice.body
    asked.refresh_from_db()
    assert asked.status == Status.SUBMITTED  # the status is the review's: the answer only flags it


def test_the_staff_who_asked_see_the_answer_on_the_page_and_answered_in_the_office_list(
    client, contractor, clerk, asked
):
    applications.answer_information_request(
        permit=asked, by=contractor, answer="Sketch attached.", uploads=[("plans", pdf())]
    )
    client.force_login(clerk)
    page = client.get(asked.get_absolute_url()).content.decode()
    assert "Sketch attached." in page and "sketch.pdf" in page
    office = client.get(reverse("permits:office")).content.decode()
    answered = office.index('id="answered-heading"')
    assert answered < office.index("<table") and asked.number in office[answered : office.index("<table")]
    assert "Information given on" in office and ">Answered<" in office
    assert [r.permit for r in answered_requests()] == [asked]


def test_the_answered_flag_ends_when_the_review_goes_on(contractor, clerk, asked):
    applications.answer_information_request(permit=asked, by=contractor, answer="Sketch attached.", uploads=[])
    workflow.transition(asked, Status.UNDER_REVIEW, by=clerk)
    assert list(answered_requests()) == []


def test_the_answered_flag_ends_when_staff_ask_again(contractor, clerk, asked):
    applications.answer_information_request(permit=asked, by=contractor, answer="Sketch attached.", uploads=[])
    applications.request_information(permit=asked, by=clerk, message="And the curb?")
    assert list(answered_requests()) == []


def test_a_member_of_the_applicants_organization_may_answer(contractor_org, asked):
    colleague = UserFactory(username="colleague")
    Membership.objects.create(user=colleague, organization=contractor_org)
    request = applications.answer_information_request(permit=asked, by=colleague, answer="Done.", uploads=[])
    assert request.answered_by == colleague


@pytest.mark.parametrize("who", ["clerk", "dpw_director", "outsider"])
def test_only_the_applicants_side_answers(request, who, asked):
    with pytest.raises(PermissionDenied):
        applications.answer_information_request(permit=asked, by=request.getfixturevalue(who), answer="x", uploads=[])
    assert applications.open_request(asked) is not None


def test_staff_posting_an_answer_on_the_page_is_forbidden(client, clerk, asked):
    client.force_login(clerk)
    response = client.post(reverse("permits:answer_information", args=[asked.number]), {"info-answer": "x"})
    assert response.status_code == 403


def test_an_outsider_does_not_find_the_permit(client, outsider, asked):
    client.force_login(outsider)
    response = client.post(reverse("permits:answer_information", args=[asked.number]), {"info-answer": "x"})
    assert response.status_code == 404


def test_an_answer_to_a_withdrawn_application_is_refused_with_a_clear_message(client, contractor, asked):
    applications.withdraw_permit(permit=asked, by=contractor)
    with pytest.raises(ValidationError) as refused:
        applications.answer_information_request(permit=asked, by=contractor, answer="Late.", uploads=[])
    assert "is withdrawn: it no longer waits for information" in str(refused.value)
    client.force_login(contractor)
    url = reverse("permits:answer_information", args=[asked.number])
    response = client.post(url, {"info-answer": "Late.", "info-kind": "other"}, follow=True)
    assert "it no longer waits for information, so the answer was not sent." in response.content.decode()
    assert InformationRequest.objects.get(permit=asked).answered_at is None


def test_withdrawn_the_question_is_no_longer_shown_as_waiting(client, contractor, asked):
    applications.withdraw_permit(permit=asked, by=contractor)
    client.force_login(contractor)
    assert "The Village asked for information" not in client.get(reverse("permits:my_applications")).content.decode()
    assert 'id="info-asked-heading"' not in client.get(asked.get_absolute_url()).content.decode()


def test_nothing_asked_nothing_to_answer(contractor, submitted):
    with pytest.raises(ValidationError) as refused:
        applications.answer_information_request(permit=submitted, by=contractor, answer="Hello", uploads=[])
    assert "not waiting for information" in str(refused.value)


def test_a_twice_answered_request_is_refused(contractor, asked):
    applications.answer_information_request(permit=asked, by=contractor, answer="Once.", uploads=[])
    with pytest.raises(ValidationError):
        applications.answer_information_request(permit=asked, by=contractor, answer="Twice.", uploads=[])


@pytest.mark.parametrize(("length", "accepted"), [(4000, True), (4001, False)])
def test_the_answer_is_at_most_4000_characters(contractor, asked, length, accepted):
    if accepted:
        applications.answer_information_request(permit=asked, by=contractor, answer="a" * length, uploads=[])
        assert applications.open_request(asked) is None
    else:
        with pytest.raises(ValidationError):
            applications.answer_information_request(permit=asked, by=contractor, answer="a" * length, uploads=[])


def test_an_empty_answer_is_refused_on_the_page_with_the_error_on_its_field(client, contractor, asked):
    client.force_login(contractor)
    response = client.post(
        reverse("permits:answer_information", args=[asked.number]), {"info-answer": "  ", "info-kind": "other"}
    )
    assert response.status_code == 400
    page = response.content.decode()
    assert 'aria-describedby="' in page and "id_info-answer" in page
    assert applications.open_request(asked) is not None


@pytest.mark.parametrize(("count", "accepted"), [(5, True), (6, False)])
def test_at_most_five_documents_with_an_answer(contractor, asked, count, accepted):
    uploads = [("plans", pdf(f"{n}.pdf")) for n in range(count)]
    before = asked.documents.count()  # the owner's authorization, filed with the application
    if accepted:
        request = applications.answer_information_request(permit=asked, by=contractor, answer="x", uploads=uploads)
        assert request.documents.count() == 5
    else:
        with pytest.raises(ValidationError):
            applications.answer_information_request(permit=asked, by=contractor, answer="x", uploads=uploads)
        assert asked.documents.count() == before


def test_the_request_and_the_answer_are_on_the_timeline(contractor, asked):
    applications.answer_information_request(permit=asked, by=contractor, answer="Done.", uploads=[])
    reasons = list(asked.events.filter(kind=PermitEvent.Kind.NOTE).values_list("reason", flat=True))
    assert f"Information requested: {QUESTION}" in reasons and "Information given: Done." in reasons
