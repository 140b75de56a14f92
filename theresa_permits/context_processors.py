"""Which mode the site runs in (docs/howto/production.md): the footer of an embedded site says so."""

from django.conf import settings


def deployment_mode(request):
    if settings.PRODUCTION_MODE:
        return {"EMBEDDED_MODE": False}
    database = "SQLite" if settings.DATABASES["default"]["ENGINE"].endswith("sqlite3") else "PostgreSQL"
    jobs = "eager jobs" if settings.CELERY_TASK_ALWAYS_EAGER else "Celery worker"
    key = ", demo secret key" if settings.SECRET_KEY == settings.DEMO_SECRET_KEY else ""
    return {"EMBEDDED_MODE": True, "EMBEDDED_MODE_LABEL": f"Demo mode: {database}, {jobs}{key}"}
