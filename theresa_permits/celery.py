import os

from celery import Celery

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "theresa_permits.settings")

app = Celery("theresa_permits")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()
