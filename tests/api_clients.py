"""API clients as a caller gets them: a token from POST /api/v1/auth/token/ with the factories' password."""

from rest_framework.test import APIClient

PASSWORD = "correct-horse-battery"  # tests.factories.UserFactory's password


def token_client(username: str) -> APIClient:
    """A client that signed in through the token endpoint, as an integration would (not force_authenticate)."""
    client = APIClient()
    response = client.post("/api/v1/auth/token/", {"username": username, "password": PASSWORD})
    assert response.status_code == 200
    client.credentials(HTTP_AUTHORIZATION=f"Token {response.json()['token']}")
    return client
