"""The Celery application. Settings come from Django settings under the ``CELERY_`` namespace."""

import os

from celery import Celery

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings.local")

app = Celery("shengji")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()


@app.task(name="config.ping")
def ping(value: int = 0) -> dict[str, object]:
    """Round-trip check: answers with the value plus one and the worker's host name."""
    import socket

    return {"pong": value + 1, "host": socket.gethostname()}
