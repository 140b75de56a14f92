"""The login form: allauth's, with its boxes bounded (OWASP ASVS V5.1.4).

allauth's "username or email" box has no length limit, and django-axes writes what was typed into a 255-character
column on each failure: a 300-character login was a 500 on PostgreSQL (and a 200 KB one a 200 KB query). No username
(150) or email address (254, RFC 5321) is longer than MAX_LOGIN, so a longer one is refused by name before anyone
looks it up."""

from __future__ import annotations

from allauth.account.forms import LoginForm as AllauthLoginForm
from django.core.validators import MaxLengthValidator

from permits.input_limits import MAX_LOGIN, limit_fields


class LoginForm(AllauthLoginForm):
    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        login = self.fields["login"]
        if login.max_length is None or login.max_length > MAX_LOGIN:
            login.max_length = MAX_LOGIN
            login.validators.append(MaxLengthValidator(MAX_LOGIN))
            login.widget.attrs["maxlength"] = str(MAX_LOGIN)
        limit_fields(self)
