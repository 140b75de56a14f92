"""The password hasher: PBKDF2 at OWASP's iteration count, not Django's higher default, so a login stays quick.

PBKDF2-SHA256 at the OWASP Password Storage Cheat Sheet's 600,000 iterations (Django 5.2's default is 1,000,000),
set by PASSWORD_PBKDF2_ITERATIONS. The algorithm name stays "pbkdf2_sha256", so every stored hash keeps working
whatever its iteration count (the count is in the hash), and Django re-hashes a password at the new count on its
owner's next login. The cost protects stolen hashes on the server; nobody should wait for it twice (see the order of
AUTHENTICATION_BACKENDS in settings).
"""

from django.conf import settings
from django.contrib.auth.hashers import PBKDF2PasswordHasher


class VillagePBKDF2PasswordHasher(PBKDF2PasswordHasher):
    @property
    def iterations(self) -> int:
        return settings.PASSWORD_PBKDF2_ITERATIONS
