"""Settings of the bench: the project's own, in production mode (DEBUG off, real PostgreSQL from DATABASE_URL), with
the bare comparison views mounted (bench/urls.py), plain static storage (no collectstatic needed) and staff MFA off
(the bench logs its personas in with a session; the MFA middleware is measured as a pass-through)."""

import os

os.environ.setdefault("SECRET_KEY", "bench-not-secret")
os.environ.setdefault("DEBUG", "0")
os.environ.setdefault("SECURE_SSL_REDIRECT", "0")
os.environ.setdefault("STAFF_MFA_REQUIRED", "0")

from theresa_permits.settings import *  # noqa: E402,F403
from theresa_permits.settings import BASE_DIR, STORAGES  # noqa: E402

ROOT_URLCONF = "bench.urls"
STORAGES = {**STORAGES, "staticfiles": {"BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"}}
MEDIA_ROOT = BASE_DIR / "var" / "bench_media"
SESSION_COOKIE_SECURE = False
CSRF_COOKIE_SECURE = False
LOGGING = {"version": 1, "disable_existing_loggers": False, "root": {"level": "ERROR"}}
AXES_ENABLED = False  # force_login has no client address; axes only watches logins, which the bench does not time
# Tasks are queued, not run at once (no worker consumes them here): the tax roll build is timed without the PDF the
# worker renders after it; the bench times that render on its own.
CELERY_TASK_ALWAYS_EAGER = False
CELERY_BROKER_URL = "memory://"
# The time Django took to answer, in a response header (bench/paired.py reads it; outside the bench nothing does).
MIDDLEWARE = ["bench.timing.ServerTimingMiddleware", *MIDDLEWARE]  # noqa: F405
