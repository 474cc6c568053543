"""Project configuration: settings, URLs, the Celery app, WSGI and ASGI entry points."""

from .celery_app import app as celery_app

__all__ = ("celery_app",)
