"""An ASGI server for the browser tests of online play: the site (pages, static files, WebSockets) on
uvicorn, in its own process, on the database named by DATABASE_URL (a file SQLite database the test
module made and migrated). ``python tests/online_pages/asgi_server.py PORT``.

pytest-django's ``live_server`` is WSGI (no WebSockets), hence this process. Static files are served from
the finders (``static/``), as ``make run`` does, so no ``collectstatic`` is needed.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings.test")

import django

django.setup()

from django.conf import settings  # noqa: E402

settings.WHITENOISE_USE_FINDERS = True
settings.WHITENOISE_AUTOREFRESH = True

import uvicorn  # noqa: E402

from config.asgi import application  # noqa: E402
from config.workers import UVICORN  # noqa: E402  (production's worker settings: frames uncompressed)

if __name__ == "__main__":
    uvicorn.run(application, host="127.0.0.1", port=int(sys.argv[1]), log_level="warning", ws="auto",
                lifespan="on", **UVICORN)
