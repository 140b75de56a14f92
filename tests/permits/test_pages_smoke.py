import pytest


@pytest.mark.parametrize("url", ["/", "/accounts/login/", "/accounts/signup/", "/api/schema/", "/api/docs/"])
def test_public_pages_render(client, db, url):
    response = client.get(url)
    assert response.status_code == 200
