"""A mailed letter reads as paragraphs: the hand-wrapped lines of the emailed text do not break its sentences."""

from unittest import mock

import pytest
from django.template.loader import render_to_string

from permits import letters
from permits.models import Notice

SNOW = (
    "To the owner or occupant of 118 Henni Street:\n\n"
    "The Village received a report that the public sidewalk at your property has not been cleared of snow and ice.\n"
    "Village Code § 303-8A requires the owner or occupant to clear it within 24 hours from the time the\n"
    "snow stops, including:\n"
    "  - the public sidewalk along Henni Street\n"
    "  - the public sidewalk along Main Street\n"
    "Ice that cannot be removed must be kept sprinkled with ashes, salt, sand or like material.\n\n"
    "What comes next is on its page:\n"
    "https://permits.example/permits/SO-2026-0001/\n\n"
    "Case SN-2026-0001.\n"
)


def test_a_hand_wrapped_sentence_is_one_line_in_the_letter():
    text = letters.unwrapped(SNOW)
    assert (
        "The Village received a report that the public sidewalk at your property has not been cleared of snow and ice. "
        "Village Code § 303-8A requires the owner or occupant to clear it within 24 hours from the time the "
        "snow stops, including:\n" in text
    )


def test_the_breaks_that_are_meant_stay_salutation_list_items_links_and_paragraphs():
    lines = letters.unwrapped(SNOW).split("\n")
    assert lines[0] == "To the owner or occupant of 118 Henni Street:" and lines[1] == ""
    assert "  - the public sidewalk along Henni Street" in lines
    assert "  - the public sidewalk along Main Street" in lines
    # The line after a list is not glued onto its last item.
    assert "Ice that cannot be removed must be kept sprinkled with ashes, salt, sand or like material." in lines
    assert "What comes next is on its page:" in lines
    assert "https://permits.example/permits/SO-2026-0001/" in lines
    assert lines[-1] == "Case SN-2026-0001."


@pytest.mark.django_db
def test_the_printed_letter_uses_the_unwrapped_text(no_email_letter):
    with mock.patch.object(letters, "render_pdf") as render:
        letters.render_letters_pdf([no_email_letter])
    template, context = render.call_args.args
    html = render_to_string(template, context)
    assert "the time the snow stops, including:" in html
    assert "the time the\nsnow stops" not in html


@pytest.fixture
def no_email_letter():
    return Notice.objects.create(
        to="",
        subject="Snow and ice on your sidewalk",
        body=SNOW,
        template="snow_case_notice",
        channel=Notice.Channel.MAIL,
        recipient_name="Nomail, Nora",
        mailing_address="N123 County Road P\nTheresa, WI 53091",
    )
