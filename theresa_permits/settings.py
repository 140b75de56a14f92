"""Theresa Permits settings: one file, read from the environment.

With no environment set the app runs embedded (SQLite under var/, Celery eager, console email).
With DATABASE_URL and REDIS_URL set it runs as in production.
"""

import os
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

import dj_database_url
from celery.schedules import crontab
from django.core.exceptions import ImproperlyConfigured

BASE_DIR = Path(__file__).resolve().parent.parent
VAR_DIR = Path(os.environ.get("VAR_DIR", BASE_DIR / "var"))
VAR_DIR.mkdir(parents=True, exist_ok=True)


def env_bool(name: str, default: bool) -> bool:
    value = os.environ.get(name)
    if value is None or value == "":
        return default
    lowered = value.strip().lower()
    if lowered in {"1", "true", "yes", "on"}:
        return True
    if lowered in {"0", "false", "no", "off"}:
        return False
    raise ImproperlyConfigured(f"{name} must be true or false, not {value!r}")


def env_int(name: str, default: int) -> int:
    value = os.environ.get(name)
    if value is None or value.strip() == "":
        return default
    try:
        return int(value.strip())
    except ValueError:
        raise ImproperlyConfigured(f"{name} must be a whole number, not {value!r}") from None


def env_list(name: str, default: list[str]) -> list[str]:
    value = os.environ.get(name)
    if not value:
        return default
    return [item.strip() for item in value.split(",") if item.strip()]


# Two modes (docs/howto/production.md). Production: DATABASE_URL is set or DEBUG is off (setting SECRET_KEY turns
# DEBUG off by default); it refuses to start without its own SECRET_KEY and never uses the demo key (OWASP ASVS 2.10.4,
# no hard-coded secrets). Embedded: neither, so SQLite under var/ and the public demo key; the footer says so.
DEMO_SECRET_KEY = "insecure-development-key-only-for-the-embedded-demo"
DEBUG = env_bool("DEBUG", "SECRET_KEY" not in os.environ and not os.environ.get("DATABASE_URL"))
PRODUCTION_MODE = bool(os.environ.get("DATABASE_URL")) or not DEBUG
SECRET_KEY = os.environ.get("SECRET_KEY", "")
if PRODUCTION_MODE and (not SECRET_KEY.strip() or SECRET_KEY == DEMO_SECRET_KEY):
    raise ImproperlyConfigured(
        "SECRET_KEY must be set, and not to the demo key, in production mode (DATABASE_URL is set or DEBUG is off)"
    )
SECRET_KEY = SECRET_KEY or DEMO_SECRET_KEY
ALLOWED_HOSTS = env_list("ALLOWED_HOSTS", ["127.0.0.1", "localhost", "testserver"])
CSRF_TRUSTED_ORIGINS = env_list("CSRF_TRUSTED_ORIGINS", [])
SITE_URL = os.environ.get("SITE_URL", "http://127.0.0.1:8000").rstrip("/")
# DEBUG's technical 404 lists every URL; the demo shows the designed page unless a developer sets this to 0.
DESIGNED_ERROR_PAGES = env_bool("DESIGNED_ERROR_PAGES", True)
VILLAGE_NAME = os.environ.get("VILLAGE_NAME", "Village of Theresa")
# The public map's basemap (e.g. "https://tile.openstreetmap.org/{z}/{x}/{y}.png" with its attribution); without one
# the map draws only the Village's own street segments, so it works offline.
MAP_TILE_URL = os.environ.get("MAP_TILE_URL", "")
MAP_TILE_ATTRIBUTION = os.environ.get("MAP_TILE_ATTRIBUTION", "")
VILLAGE_OFFICE = os.environ.get("VILLAGE_OFFICE", "Village Hall, 202 S. Milwaukee St., Theresa, WI 53091")
DEMO_PASSWORD = os.environ.get("DEMO_PASSWORD", "theresa-demo-2026")

INSTALLED_APPS = [
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "whitenoise.runserver_nostatic",
    "django.contrib.staticfiles",
    "django.contrib.sites",
    "django.contrib.humanize",
    "allauth",
    "allauth.account",
    "allauth.mfa",
    "axes",
    "crispy_forms",
    "crispy_bootstrap5",
    "simple_history",
    "rest_framework",
    "rest_framework.authtoken",
    "drf_spectacular",
    "drf_spectacular_sidecar",
    "django_ratelimit",
    "cachalot",
    "permits",
    "sidewalks",
    "obstructions",
]

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.common.CommonMiddleware",
    "permits.middleware.StripNulFromQueryMiddleware",  # ?q=a%00b was a 500 on PostgreSQL (OWASP ASVS V5.1.4)
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "permits.middleware.RefuseNulInFormBodyMiddleware",  # a NUL in a posted field: 400 naming it (PostgreSQL: 500)
    "permits.error_pages.DesignedErrorPagesMiddleware",  # the designed 404 in the demo too; a 405 that says why
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "csp.middleware.CSPMiddleware",
    "allauth.account.middleware.AccountMiddleware",
    "permits.accounts.mfa.StaffMFAMiddleware",
    "simple_history.middleware.HistoryRequestMiddleware",
    "axes.middleware.AxesMiddleware",
]

ROOT_URLCONF = "theresa_permits.urls"
WSGI_APPLICATION = "theresa_permits.wsgi.application"
TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
                "permits.context_processors.village",
                "theresa_permits.context_processors.deployment_mode",
            ],
        },
    },
]

DATABASES = {
    "default": dj_database_url.parse(
        os.environ.get("DATABASE_URL") or f"sqlite:///{VAR_DIR / 'theresa.sqlite3'}",
        conn_max_age=env_int("CONN_MAX_AGE", 60),
    )
}
# Every request is one transaction: bad input never stores anything partial.
DATABASES["default"]["ATOMIC_REQUESTS"] = True
# The test run's databases on PostgreSQL copied from one already migrated (CREATE DATABASE ... TEMPLATE), instead of
# migrated once per pytest worker: .ci/run migrates TEST_DB_TEMPLATE beside `make test` (a migrate is 30 to 60 s of CPU
# on this machine: 239 operations). The test run still runs migrate on each copy, which finds nothing to apply.
if os.environ.get("TEST_DB_TEMPLATE") and DATABASES["default"]["ENGINE"].endswith("postgresql"):
    DATABASES["default"]["TEST"] = {"TEMPLATE": os.environ["TEST_DB_TEMPLATE"]}
# A developer's repeated runs on SQLite keep their migrated test database in this file with `pytest --reuse-db`
# (an in-memory one is migrated again on every run).
if os.environ.get("TEST_SQLITE_FILE") and DATABASES["default"]["ENGINE"].endswith("sqlite3"):
    DATABASES["default"]["TEST"] = {"NAME": os.environ["TEST_SQLITE_FILE"]}
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator", "OPTIONS": {"min_length": 10}},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]
# allauth's backend before ModelBackend: a login by email went to ModelBackend first, which found no such
# username and hashed the password anyway (its timing defence), then allauth hashed it again: two full hashes per
# login. allauth's backend takes usernames too (ACCOUNT_LOGIN_METHODS); ModelBackend stays for the rest.
AUTHENTICATION_BACKENDS = [
    "axes.backends.AxesStandaloneBackend",
    "allauth.account.auth_backends.AuthenticationBackend",
    "django.contrib.auth.backends.ModelBackend",
]
# permits/accounts/hashers.py: PBKDF2-SHA256 at OWASP's 600,000 iterations; older hashes (Django's 1,000,000) still
# verify and
# are re-hashed at the next login. The other hashers verify hashes made by them, if any were imported.
PASSWORD_PBKDF2_ITERATIONS = env_int("PASSWORD_PBKDF2_ITERATIONS", 600000)
PASSWORD_HASHERS = [
    "permits.accounts.hashers.VillagePBKDF2PasswordHasher",
    "django.contrib.auth.hashers.PBKDF2SHA1PasswordHasher",
    "django.contrib.auth.hashers.ScryptPasswordHasher",
]

LANGUAGE_CODE = "en-us"
TIME_ZONE = "America/Chicago"
USE_I18N = True
USE_TZ = True
# How the 24 hours of the snow and rubbish rules (§ 303-8, § 303-2) are counted (permits.time): off, as Wis. Stat.
# § 990.001(4)(a) counts hours (Sundays and legal holidays excluded); on, clock hours, where the Village attorney so
# reads those rules for the safety of the walk.
SNOW_HOURS_ARE_CLOCK_HOURS = env_bool("SNOW_HOURS_ARE_CLOCK_HOURS", False)

STATIC_URL = "/static/"
STATICFILES_DIRS = [BASE_DIR / "static"]
STATIC_ROOT = Path(os.environ.get("STATIC_ROOT", BASE_DIR / "staticfiles"))
MEDIA_ROOT = Path(os.environ.get("MEDIA_ROOT", VAR_DIR / "media"))
# Uploads are never served from a public URL: documents go through an access-checked view.
MEDIA_URL = "/media-not-served/"
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {
        "BACKEND": "whitenoise.storage.CompressedManifestStaticFilesStorage"
        if not DEBUG
        else "django.contrib.staticfiles.storage.StaticFilesStorage"
    },
}
FILE_UPLOAD_MAX_MEMORY_SIZE = 2_621_440
DATA_UPLOAD_MAX_MEMORY_SIZE = 12 * 1024 * 1024

# Email: console in the demo, SMTP in production (EMAIL_HOST etc.), locmem in tests.
EMAIL_BACKEND = os.environ.get(
    "EMAIL_BACKEND",
    "django.core.mail.backends.smtp.EmailBackend"
    if os.environ.get("EMAIL_HOST")
    else "django.core.mail.backends.console.EmailBackend",
)
EMAIL_HOST = os.environ.get("EMAIL_HOST", "localhost")
EMAIL_PORT = env_int("EMAIL_PORT", 587)
EMAIL_HOST_USER = os.environ.get("EMAIL_HOST_USER", "")
EMAIL_HOST_PASSWORD = os.environ.get("EMAIL_HOST_PASSWORD", "")
EMAIL_USE_TLS = env_bool("EMAIL_USE_TLS", True)
DEFAULT_FROM_EMAIL = os.environ.get("DEFAULT_FROM_EMAIL", "Village of Theresa permits <permits@theresa.example>")
SERVER_EMAIL = DEFAULT_FROM_EMAIL

# Accounts (django-allauth): email + password, verified email required.
SITE_ID = 1
ACCOUNT_LOGIN_METHODS = {"username", "email"}
ACCOUNT_SIGNUP_FIELDS = ["email*", "password1*", "password2*"]
ACCOUNT_EMAIL_VERIFICATION = "mandatory"
ACCOUNT_UNIQUE_EMAIL = True
ACCOUNT_LOGIN_ON_EMAIL_CONFIRMATION = True
ACCOUNT_CONFIRM_EMAIL_ON_GET = False
ACCOUNT_SIGNUP_FORM_CLASS = "permits.forms.SignupDetailsForm"
ACCOUNT_FORMS = {"login": "permits.accounts.login_form.LoginForm"}  # a login box of bounded length (axes stores it)
ACCOUNT_EMAIL_SUBJECT_PREFIX = "Village of Theresa permits: "
# Account emails in the Village's name, their links on SITE_URL, the person named by their email.
ACCOUNT_ADAPTER = "permits.accounts.registration.AccountAdapter"
ACCOUNT_USER_DISPLAY = "permits.accounts.registration.user_display"
ACCOUNT_RATE_LIMITS = {"login_failed": "10/m/ip,5/5m/key"}
LOGIN_URL = "account_login"
LOGIN_REDIRECT_URL = "permits:start"
ACCOUNT_LOGOUT_REDIRECT_URL = "home"

# A second factor for Village staff (OWASP ASVS 4.0 V2.2.3 / V4.3.1: multi-factor for administrative access):
# allauth.mfa (TOTP, recovery codes, WebAuthn). With STAFF_MFA_REQUIRED (on whenever DEBUG is off)
# permits/accounts/mfa.py
# sends staff without an authenticator to set one up and refuses them API tokens. The embedded demo keeps passwords.
MFA_SUPPORTED_TYPES = ["totp", "recovery_codes", "webauthn"]
MFA_TOTP_ISSUER = "Theresa Permits"
MFA_WEBAUTHN_ALLOW_INSECURE_ORIGIN = DEBUG
STAFF_MFA_REQUIRED = env_bool("STAFF_MFA_REQUIRED", not DEBUG)

# Login throttling (django-axes): 5 failures lock the username+IP for an hour.
AXES_FAILURE_LIMIT = env_int("AXES_FAILURE_LIMIT", 5)
AXES_COOLOFF_TIME = 1
AXES_LOCKOUT_PARAMETERS = [["username", "ip_address"]]
AXES_RESET_ON_SUCCESS = True
AXES_USERNAME_FORM_FIELD = "login"
# allauth authenticates with username= or email=, never login=: without this axes counted every failure as "None".
AXES_USERNAME_CALLABLE = "permits.accounts.registration.axes_username"
# The client behind the Village's reverse proxy, not the proxy (OWASP: X-Forwarded-For is believed only from
# TRUSTED_PROXIES, comma-separated IPs/CIDRs; empty = trust nobody, use REMOTE_ADDR). See permits/client_ip.py.
from permits.client_ip import parse_trusted_proxies  # noqa: E402 (a bad entry stops start-up, naming it)

TRUSTED_PROXIES = parse_trusted_proxies(os.environ.get("TRUSTED_PROXIES", ""))
AXES_CLIENT_IP_CALLABLE = "permits.client_ip.axes_client_ip"

# Field history (django-simple-history) is read, never reverted from the admin: a revert saved whatever was posted for
# anyone who could view the record (OWASP ASVS V4.1.3). History pages need the Historical* model's view permission,
# which permits/role_permissions.py gives only with the record's; permits/admin/base.py refuses POSTs to the form.
SIMPLE_HISTORY_REVERT_DISABLED = True
SIMPLE_HISTORY_ENFORCE_HISTORY_MODEL_PERMISSIONS = True

CRISPY_ALLOWED_TEMPLATE_PACKS = "bootstrap5"
CRISPY_TEMPLATE_PACK = "bootstrap5"

# Content Security Policy: no inline scripts or styles, nothing from other hosts.
CONTENT_SECURITY_POLICY = {
    "DIRECTIVES": {
        "default-src": ["'self'"],
        "script-src": ["'self'"],
        "style-src": ["'self'"],
        "img-src": ["'self'", "data:"],
        "font-src": ["'self'", "data:"],
        "connect-src": ["'self'"],
        "frame-ancestors": ["'none'"],
        "form-action": ["'self'"],
        "base-uri": ["'self'"],
        "object-src": ["'none'"],
    }
}
if MAP_TILE_URL:  # the public map's basemap tiles come from the tile server's host
    _tiles = urlsplit(MAP_TILE_URL.replace("{s}", "*"))
    CONTENT_SECURITY_POLICY["DIRECTIVES"]["img-src"].append(f"{_tiles.scheme}://{_tiles.netloc}")

SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
SECURE_SSL_REDIRECT = env_bool("SECURE_SSL_REDIRECT", not DEBUG)
SESSION_COOKIE_SECURE = not DEBUG
CSRF_COOKIE_SECURE = not DEBUG
SECURE_HSTS_SECONDS = env_int("SECURE_HSTS_SECONDS", 0 if DEBUG else 31536000)
SECURE_HSTS_INCLUDE_SUBDOMAINS = not DEBUG
SECURE_HSTS_PRELOAD = not DEBUG
SECURE_CONTENT_TYPE_NOSNIFF = True
SECURE_REFERRER_POLICY = "same-origin"
X_FRAME_OPTIONS = "DENY"
SESSION_COOKIE_HTTPONLY = True

REST_FRAMEWORK = {
    "DEFAULT_AUTHENTICATION_CLASSES": [
        "rest_framework.authentication.TokenAuthentication",
        "rest_framework.authentication.SessionAuthentication",
    ],
    "DEFAULT_PERMISSION_CLASSES": ["rest_framework.permissions.IsAuthenticated"],
    "DEFAULT_SCHEMA_CLASS": "drf_spectacular.openapi.AutoSchema",
    # Page numbers with a page cap (permits/paging.py): no whole-table count, no deep OFFSET.
    "DEFAULT_PAGINATION_CLASS": "permits.paging.CappedPageNumberPagination",
    "PAGE_SIZE": 50,
    "EXCEPTION_HANDLER": "permits.api.errors.exception_handler",
    "DEFAULT_THROTTLE_CLASSES": ["permits.api.throttles.ClientIPAnonRateThrottle"],
    # "token": POST /api/v1/auth/token/ per client address (OWASP ASVS V2.2.1, with axes' lockout behind it).
    "DEFAULT_THROTTLE_RATES": {"anon": "60/minute", "token": os.environ.get("API_TOKEN_RATE", "10/minute")},
}
SPECTACULAR_SETTINGS = {
    "TITLE": "Theresa Permits API",
    "DESCRIPTION": "Street permits of the Village of Theresa, Wisconsin (Chapter 303).\n\n"
    "**Signing in with a token.** Get your token once: `POST /api/v1/auth/token/` with the JSON body "
    '`{"username": "...", "password": "..."}` (or create one on the site\'s "API token" page, which also revokes '
    "it). Then send it on every call as the header `Authorization: Token <your token>`; in this page, press "
    '"Authorize", and under tokenAuth type `Token <your token>`. Village staff need a second factor before a token '
    "is issued. Failed sign-ins are limited and locked out like the web login. The reference without the try-it "
    "forms is at /api/redoc/.",
    "VERSION": "1.0.0",
    "SERVE_INCLUDE_SCHEMA": False,
    "SWAGGER_UI_DIST": "SIDECAR",
    "SWAGGER_UI_FAVICON_HREF": "SIDECAR",
    "REDOC_DIST": "SIDECAR",
    "ENUM_NAME_OVERRIDES": {
        "PermitStatusEnum": "permits.models.core.Status",
        # The list serializers without the timeline make the two "kind" choice sets collide.
        "PermitKindEnum": "permits.models.core.PermitKind",
        "PermitEventKindEnum": "permits.models.core.PermitEvent.Kind",
    },
    # Responses: a read-only field the API may leave out (a parcel's owner address, for the public) is not required;
    # every operation documents the error body and the statuses it can answer (permits/api/schema.py).
    "COMPONENT_NO_READ_ONLY_REQUIRED": True,
    "POSTPROCESSING_HOOKS": [
        "drf_spectacular.hooks.postprocess_schema_enums",
        "permits.api.schema.document_error_responses",
    ],
}

# Celery: embedded (eager, in-process) without REDIS_URL; Redis broker and results with it.
REDIS_URL = os.environ.get("REDIS_URL", "")
if REDIS_URL and os.environ.get("PYTEST_XDIST_WORKER", "").startswith("gw"):
    # The test suite split over pytest-xdist workers (.ci/run): pytest-django gives each worker its own test database,
    # and this gives each its own Redis database (gw0 the base + 1, gw1 the base + 2, ...), so that one worker's real
    # Celery worker never takes a task another worker queued against its own database. Never set outside the tests.
    _redis = urlsplit(REDIS_URL)
    _db = int(_redis.path.strip("/") or 0) + 1 + int(os.environ["PYTEST_XDIST_WORKER"][2:])
    REDIS_URL = urlunsplit(_redis._replace(path=f"/{_db}"))
if REDIS_URL:
    CELERY_BROKER_URL = REDIS_URL
    CELERY_RESULT_BACKEND = REDIS_URL
    CELERY_TASK_ALWAYS_EAGER = False
else:
    CELERY_BROKER_URL = "memory://"
    CELERY_RESULT_BACKEND = "cache+memory://"
    CELERY_TASK_ALWAYS_EAGER = True
# The shared cache: the public forms' rate limits (django-ratelimit), DRF's throttles and allauth's login limits count
# once for every web process and worker. Redis in production; without it a file cache under VAR_DIR that every process
# of the machine shares (permits/cache.py: add and incr atomic across processes). A process's own memory counted per
# gunicorn worker. The Redis keys name the database, so two deployments (two villages) sharing one Redis never count
# each other's requests, and its clear() removes only those keys (the Redis database is also Celery's broker).
CACHE_KEY_PREFIX = "theresa:{HOST}:{PORT}:{NAME}".format(
    **{k: DATABASES["default"].get(k) or "" for k in ("HOST", "PORT", "NAME")}
)
# Each pytest-xdist worker its own folder, as its own Redis database above: one worker's cache.clear() between tests
# must not reset another's counts.
CACHE_DIR = VAR_DIR / "cache" / (os.environ.get("PYTEST_XDIST_WORKER") or "shared")
CACHES = {
    "default": (
        {"BACKEND": "permits.cache.SharedRedisCache", "LOCATION": REDIS_URL, "KEY_PREFIX": CACHE_KEY_PREFIX}
        if REDIS_URL
        # MAX_ENTRIES: Django culls a third of the files at random past it (300 by default), counts included.
        else {"BACKEND": "permits.cache.MachineFileCache", "LOCATION": str(CACHE_DIR), "OPTIONS": {"MAX_ENTRIES": 5000}}
    ),
}
RATELIMIT_USE_CACHE = "default"
# The permit lists' kept tables (permits/kept_lists.py): django-cachalot records when each table the rows read was last
# written; its SQL-result cache stays off. Kept only where every process shares the cache (Redis).
CACHALOT_ENABLED = False
CACHALOT_ONLY_CACHABLE_TABLES = frozenset(
    {
        *("permits_permit", "permits_street", "permits_payment", "permits_refund", "permits_membership"),
        "permits_informationrequest",
        *("permits_parcel", "permits_parcel_owners", "permits_organization"),
    }
)
PERMIT_LIST_CACHE_SECONDS = env_int("PERMIT_LIST_CACHE_SECONDS", 600 if REDIS_URL else 0)
# django-ratelimit's and django-cachalot's startup checks know only their own lists of backends (W001: "not on the
# list"). Ours are Django's Redis backend (INCR is atomic, shared by every process) and Django's file backend with an
# atomic add and incr (permits/cache.py); a locmem cache would still stop the start (django_ratelimit.E003 stays on).
SILENCED_SYSTEM_CHECKS = ["django_ratelimit.W001", "cachalot.W001"]
CELERY_TASK_EAGER_PROPAGATES = True
CELERY_TIMEZONE = TIME_ZONE
CELERY_TASK_ACKS_LATE = True
CELERY_WORKER_PREFETCH_MULTIPLIER = 1
# A job's message is acknowledged when the job ends (acks_late): a worker killed mid-job leaves it unacknowledged, and
# Redis hands it to another worker once this many seconds have passed since it was taken (kombu's default: an hour).
# It must outlast the longest job, or a slow job runs twice at once (harmless, they are idempotent, but wasteful): the
# longest measured is the tax roll's PDF, about 80 s for 7,000 lines; the nightly expiry of 8,725 permits took 6.4 s.
# permits.jobs also takes a run still marked running after this long as interrupted. Each worker looks for such
# messages every tenth of it (at most every 10 s): a cheap scan of Redis's unacknowledged set.
JOB_VISIBILITY_TIMEOUT = env_int("JOB_VISIBILITY_TIMEOUT", 600)
CELERY_BROKER_TRANSPORT_OPTIONS = {
    "visibility_timeout": JOB_VISIBILITY_TIMEOUT,
    "unacked_restore_interval": max(1, min(10, JOB_VISIBILITY_TIMEOUT // 10)),
    "unacked_restore_throttle": 1,
}
CELERY_BROKER_CONNECTION_RETRY_ON_STARTUP = True
# The beat schedule: every scheduled job of the village, declared here, one dict. Times are America/Chicago; each
# job is idempotent and records a JobRun.
CELERY_BEAT_SCHEDULE = {
    # Every permit type with a validity period (permits.kinds: `expires`), § 303-4D for street openings.
    "permits-expire-lapsed": {"task": "permits.tasks.expire_lapsed_permits", "schedule": crontab(hour=0, minute=5)},
    # The office-closure calendar (§ 303-5F, § 303-5H business days): the coming years' Wis. Stat. § 995.20 holidays.
    "permits-seed-office-closures": {
        "task": "permits.tasks.seed_office_closures",
        "schedule": crontab(hour=2, minute=10, day_of_month=1, month_of_year=12),
    },
    # The ledger (permits/ledger/tasks.py): delinquency each night; the year's draft tax roll before the cutoff.
    "ledger-mark-delinquent-charges": {
        "task": "permits.ledger.tasks.mark_delinquent_charges",
        "schedule": crontab(hour=1, minute=15),
    },
    "ledger-build-tax-roll": {"task": "permits.ledger.tasks.build_tax_roll", "schedule": crontab(hour=1, minute=45)},
    # Online payments (permits/online_payments/tasks.py): the treasurer's settlement of yesterday, each night.
    "online-payments-build-settlements": {
        "task": "permits.online_payments.tasks.build_settlements",
        "schedule": crontab(hour=0, minute=30),
    },
    # § 66.0627(3)(b): sidewalk-repair charges are billed the night after their Board hearing is held.
    "ledger-bill-charges-after-hearings": {
        "task": "permits.ledger.tasks.bill_charges_after_hearings",
        "schedule": crontab(hour=1, minute=5),
    },
    # Street use (permits/street_use/tasks.py): § 303-15B(4), events past their last day become completed.
    "street-uses-complete-ended": {
        "task": "permits.street_use.tasks.complete_ended_street_uses",
        "schedule": crontab(hour=0, minute=15),
    },
    # Street openings (permits/street_opening/tasks.py).
    "street-openings-remind-expiring": {
        "task": "permits.street_opening.tasks.remind_expiring_street_openings",
        "schedule": crontab(hour=7, minute=0),
    },
    "street-openings-flag-unfiled-emergencies": {
        "task": "permits.street_opening.tasks.flag_unfiled_emergencies",
        "schedule": crontab(hour=0, minute=20),
    },
    "street-openings-warn-stale-tickets": {
        "task": "permits.street_opening.tasks.warn_stale_tickets_before_work",
        "schedule": crontab(hour=6, minute=30),
    },
    "street-openings-lift-ended-revocations": {
        "task": "permits.street_opening.tasks.lift_ended_revocations",
        "schedule": crontab(hour=0, minute=25),
    },
    # Street opening field work (permits/street_opening/field/tasks.py): nightly flags, reminders every 15 minutes.
    "field-flag-winter-patches": {
        "task": "permits.street_opening.field.tasks.flag_winter_patches_not_replaced",
        "schedule": crontab(hour=0, minute=35),
    },
    "field-flag-pavement-overdue": {
        "task": "permits.street_opening.field.tasks.flag_permanent_pavement_overdue",
        "schedule": crontab(hour=0, minute=40),
    },
    "field-end-guarantees": {
        "task": "permits.street_opening.field.tasks.end_guarantees",
        "schedule": crontab(hour=0, minute=45),
    },
    "field-flag-defects-past-deadline": {
        "task": "permits.street_opening.field.tasks.flag_defects_past_deadline",
        "schedule": crontab(hour=0, minute=50),
    },
    "field-send-notice-reminders": {
        "task": "permits.street_opening.field.tasks.send_due_notice_reminders",
        "schedule": crontab(minute="*/15"),
    },
    # The street map (permits/streetmap/tasks.py): subscribers told of permits issued on their street.
    "streetmap-notify-street-subscribers": {
        "task": "permits.streetmap.tasks.notify_street_subscribers",
        "schedule": crontab(hour=7, minute=30),
    },
    # Enforcement cases (obstructions/tasks.py): deadlines passed each hour, § 303-14C number timers each night.
    "obstructions-flag-cases-past-deadline": {
        "task": "obstructions.tasks.flag_cases_past_deadline",
        "schedule": crontab(minute=5),
    },
    "obstructions-flag-street-number-timers": {
        "task": "obstructions.tasks.flag_street_number_timers",
        "schedule": crontab(hour=0, minute=55),
    },
    # Street privilege permits (permits/street_privilege/tasks.py): § 303-7E ends them, told a week ahead.
    "street-privileges-end-terminated": {
        "task": "permits.street_privilege.tasks.end_terminated_street_privileges",
        "schedule": crontab(hour=0, minute=55),
    },
}
# The production drill (.ci/production_drill.sh) proves beat and the worker run a job: only when it sets this.
if os.environ.get("DRILL_BEAT_EVERY_SECONDS"):
    CELERY_BEAT_SCHEDULE["drill-expire-lapsed"] = {
        "task": "permits.tasks.expire_lapsed_permits",
        "schedule": float(os.environ["DRILL_BEAT_EVERY_SECONDS"]),
    }

# Special charges: certification cutoff for the tax roll (month, day).
TAX_ROLL_CUTOFF = os.environ.get("TAX_ROLL_CUTOFF", "11-15")

# Online card payments (permits/online_payments, django-payments; docs/reference/rules/online-payments.md). Production:
# Stripe Checkout from STRIPE_SECRET_KEY and STRIPE_WEBHOOK_SECRET (the webhook is /payments/process/card/). The
# embedded demo (and tests) use django-payments' dummy provider, so a "card payment" needs nothing outside running. In
# production mode without Stripe keys, online payment is off (the pages say to pay at the Village Hall).
PAYMENT_MODEL = "permits.OnlinePayment"
PAYMENT_HOST = os.environ.get("PAYMENT_HOST", "") or None  # None: the Sites framework's domain (for gateway links)
PAYMENT_USES_SSL = env_bool("PAYMENT_USES_SSL", not DEBUG)
if os.environ.get("STRIPE_SECRET_KEY"):
    # Without its signing secret a webhook "signature" is an HMAC anyone can compute: refuse to start.
    if PRODUCTION_MODE and not os.environ.get("STRIPE_WEBHOOK_SECRET"):
        raise ImproperlyConfigured("STRIPE_WEBHOOK_SECRET must be set with STRIPE_SECRET_KEY in production mode")
    PAYMENT_VARIANTS = {
        "card": (
            # StripeProviderV3, and an event changes only its own payment, once, before any outcome.
            "permits.online_payments.gateway.StripeCheckoutProvider",
            {
                "api_key": os.environ["STRIPE_SECRET_KEY"],
                "endpoint_secret": os.environ.get("STRIPE_WEBHOOK_SECRET", ""),
                "secure_endpoint": True,  # the webhook's Stripe-Signature is verified (stripe.Webhook.construct_event)
            },
        )
    }
    ONLINE_PAYMENT_VARIANT = "card"
else:
    # The dummy provider confirms a payment by a URL anyone can post to: never in production mode (it refuses to
    # start rather than take "payments" no gateway made).
    if PRODUCTION_MODE and env_bool("ONLINE_PAYMENTS_DUMMY", False):
        raise ImproperlyConfigured("ONLINE_PAYMENTS_DUMMY cannot be set in production mode: set the Stripe keys")
    # Nor is it loaded there at all: an older payment's per-payment address would reach it by its variant.
    PAYMENT_VARIANTS = {} if PRODUCTION_MODE else {"card": ("payments.dummy.DummyProvider", {})}
    ONLINE_PAYMENT_VARIANT = "" if PRODUCTION_MODE else "card"
# Where a payment held for refund is announced (the Clerk-Treasurer's office address); empty: shown in the office only.
CLERK_EMAIL = os.environ.get("CLERK_EMAIL", "")
# Wis. Stat. § 66.0907: days after service an owner has to do ordered sidewalk work (verify the current text).
SIDEWALK_OWNER_PERIOD_DAYS = env_int("SIDEWALK_OWNER_PERIOD_DAYS", 20)

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "handlers": {"console": {"class": "logging.StreamHandler"}},
    "root": {"handlers": ["console"], "level": os.environ.get("LOG_LEVEL", "WARNING")},
}
