"""gunicorn's settings for this project: gunicorn reads this file when it starts in the project folder
(``gunicorn config.wsgi``; from elsewhere pass ``-c /path/to/project/gunicorn.conf.py``).

The access log is on, to standard output (``--access-logfile PATH`` elsewhere, ``/dev/null`` for
none), and every access and error line goes through the filter that masks Django's logs
(``config.logging_filters.MaskSecretsFilter``): no table token (``/t/<token>/``, ``/v/<token>/``,
``?token=``), not even one in a Referer, reaches the log. Command-line options win over this file, and
the mask holds for every destination gunicorn writes to (a file, syslog). Under
``-k config.workers.Worker`` (a UvicornWorker) uvicorn's loggers take these handlers, mask included; uvicorn
alone takes ``--log-config config/uvicorn_logging.json``.
"""

from __future__ import annotations

import logging
from typing import Any

from gunicorn.glogging import Logger

from config.logging_filters import MaskSecretsFilter

accesslog = "-"

MASK = MaskSecretsFilter()  # one instance: a configuration reload adds it once (addFilter skips a repeat)


class MaskedLogger(Logger):
    """gunicorn's logger, with the mask on its two loggers and on every handler it set up (the handlers
    are what a UvicornWorker hands on to uvicorn's loggers)."""

    def setup(self, cfg: Any) -> None:
        super().setup(cfg)
        logs: tuple[logging.Logger, ...] = (self.error_log, self.access_log)
        for log in logs:
            log.addFilter(MASK)
            for handler in log.handlers:
                handler.addFilter(MASK)


logger_class = MaskedLogger
