"""gunicorn's settings for this project: gunicorn reads this file when it starts in the project folder
(``gunicorn config.wsgi``; from elsewhere pass ``-c /path/to/project/gunicorn.conf.py``).

Logging comes from ``config/server_logging.json``: the access log is on, to standard output, and every
line goes through the filter that masks Django's logs (``config.logging_filters.MaskSecretsFilter``),
so no table token (``/t/<token>/``, ``/v/<token>/``, ``?token=``) reaches it, nor one in a Referer.
The same file configures uvicorn's loggers, so ``-k uvicorn.workers.UvicornWorker`` (which hands its
log lines to gunicorn's handlers) logs masked too; uvicorn alone takes it with ``--log-config``.
Command-line options still win over this file; to log to a file, change the handlers in the JSON.
"""

from pathlib import Path

logconfig_json = str(Path(__file__).resolve().parent / "config" / "server_logging.json")
