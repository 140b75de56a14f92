"""Each permit type declares the documents its rules require once (PermitType.required_documents); its application
form lists them with their sections, before anything is submitted."""

import pytest
from django.urls import reverse

from permits import kinds
from permits.models import Document

pytestmark = pytest.mark.django_db

TYPES = ["street_opening", "sidewalk", "street_privilege", "street_use"]


@pytest.mark.parametrize("kind", TYPES)
def test_each_type_declares_its_documents_as_kinds_an_upload_can_take(kind):
    declared = kinds.get_type(kind).required_documents
    assert declared and all(d.kind in Document.Kind.values and d.citation.startswith("§ 303-") for d in declared)


@pytest.mark.parametrize("kind", TYPES)
def test_the_application_form_lists_the_documents_the_rules_require(client, contractor, kind):
    permit_type = kinds.get_type(kind)
    client.force_login(contractor)
    page = client.get(reverse(permit_type.apply_url)).content.decode()
    assert "Documents you will need" in page
    for document in permit_type.required_documents:
        assert document.what in page.replace("&#x27;", "'") and document.citation in page


def test_303_4g_the_street_opening_form_names_the_certificate_bond_and_plans(client, contractor):
    client.force_login(contractor)
    page = client.get(reverse("permits:street_opening_apply")).content.decode()
    assert '(§ 303-4G), as "Certificate of insurance"' in page
    assert '(§ 303-4H(3), (5)), as "Bond"' in page
    assert '(§ 303-1C(3)), as "Plans"' in page
