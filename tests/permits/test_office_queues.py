from django.urls import reverse


def test_office_shows_the_tax_roll_and_hearings_only_to_the_clerk(client, clerk, dpw_director):
    client.force_login(clerk)
    page = client.get(reverse("permits:office")).content.decode()
    assert reverse("ledger:tax_rolls") in page and reverse("ledger:hearings") in page
    client.force_login(dpw_director)
    page = client.get(reverse("permits:office")).content.decode()
    assert reverse("ledger:tax_rolls") not in page and reverse("ledger:hearings") not in page
    assert reverse("permits:field_inspections") in page
