"""Tests: fast hashing, in-memory-safe media, the same database and broker switches as base."""

import os
import tempfile
from typing import Any

from .base import *  # noqa: F403

DEBUG = False
PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
MEDIA_ROOT = Path(tempfile.mkdtemp(prefix="shengji-media-"))  # noqa: F405
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {"BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"},
}
LOGGING = {"version": 1, "disable_existing_loggers": False, "root": {"level": "WARNING"}}

# Tests run tasks in-process even when a broker is configured; tests marked ``worker`` switch to a
# real worker on the broker (tests/conftest.py).
CELERY_TASK_ALWAYS_EAGER = True

# Renders for anonymous PDF visitors run at once instead of in a background thread (which would not
# see the test's transaction); tests of the thread switch it on and start the thread themselves.
PDF_RENDER_THREAD = False

# A connection is closed after each use: the online tables' worker threads (online/threads.py) keep none
# open past a test, so the test database can be dropped at the end of the session.
if DATABASES["default"]["ENGINE"] != "django.db.backends.sqlite3":  # noqa: F405
    DATABASES["default"]["CONN_MAX_AGE"] = 0  # noqa: F405

# Each pytest-xdist worker has a test database of its own, so its rows share primary keys with the other
# worker's: on a shared Redis channel layer their groups ("live-m-1", …) would meet. A prefix per worker
# keeps one worker's pushes away from the other's watchers.
_XDIST_WORKER = os.environ.get("PYTEST_XDIST_WORKER", "")
_LAYER: dict[str, Any] = CHANNEL_LAYERS["default"]  # noqa: F405
if _XDIST_WORKER and "CONFIG" in _LAYER:
    _LAYER["CONFIG"]["prefix"] = f"asgi-test-{_XDIST_WORKER}"
