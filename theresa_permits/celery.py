import os

from celery import Celery

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "theresa_permits.settings")

app = Celery("theresa_permits")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()
# Every part's tasks (the packages of permits.kinds), found once Django is ready.
app.autodiscover_tasks(lambda: _task_packages())


def _task_packages() -> list[str]:
    from permits.kinds import PACKAGES

    return list(PACKAGES)
