"""A logging filter that keeps secrets out of log lines.

Table-link tokens (``/t/<token>/``, a physical table's ``/v/<token>/``, ``?token=…``,
``X-Table-Token: …``), staff invitations (``/invite/<token>/``) and credentials in ``Authorization``
headers (``Token …``, ``Bearer …``, ``Basic …``) are replaced by ``***`` in the formatted message.
Attached to every handler in ``LOGGING``, and to the web servers' logs: gunicorn's through
``gunicorn.conf.py`` (its ``MaskedLogger``), uvicorn's through ``config/uvicorn_logging.json``.
"""

from __future__ import annotations

import logging
import re

MASK = "***"
PATTERNS = [
    # /t/<token>/ and /t/<token>/confirm/1/ (the table link), /v/<token>/ (a physical table's permanent
    # link), /invite/<token>/ (a staff invitation)
    (re.compile(r"(/(?:t|v|invite)/)[^/\s?#\"']+"), r"\1" + MASK),
    # ?token=… and &token=…
    (re.compile(r"([?&]token=)[^&\s#\"']+", re.IGNORECASE), r"\1" + MASK),
    # Authorization: Token abc / Bearer abc / Basic abc, and X-Table-Token: abc (headers, dict reprs)
    (re.compile(r"(authorization['\"]?\s*[:=]\s*['\"]?(?:token|bearer|basic)\s+)[^\s'\",}]+", re.IGNORECASE),
     r"\1" + MASK),
    (re.compile(r"((?:x[-_]table[-_]token|http_x_table_token)['\"]?\s*[:=]\s*['\"]?)[^\s'\",}]+", re.IGNORECASE),
     r"\1" + MASK),
]


def mask_secrets(text: str) -> str:
    """
    >>> mask_secrets('"GET /t/AbC-123_x/confirm/1/?token=zz HTTP/1.1" 200')
    '"GET /t/***/confirm/1/?token=*** HTTP/1.1" 200'
    >>> mask_secrets('GET /v/Venue7Tk/ HTTP/1.1" 302 0 "https://scores.example.org/invite/Inv9/"')
    'GET /v/***/ HTTP/1.1" 302 0 "https://scores.example.org/invite/***/"'
    >>> mask_secrets("Authorization: Token 9f8e7d")
    'Authorization: Token ***'
    """
    for pattern, replacement in PATTERNS:
        text = pattern.sub(replacement, text)
    return text


class MaskSecretsFilter(logging.Filter):
    def filter(self, record: logging.LogRecord) -> bool:
        try:
            message = record.getMessage()
        except Exception:  # a broken format string: leave the record as it is
            return True
        masked = mask_secrets(message)
        if masked != message:
            record.msg, record.args = masked, None
        if record.exc_info and not record.exc_text:
            record.exc_text = logging.Formatter().formatException(record.exc_info)
        if record.exc_text:
            record.exc_text = mask_secrets(record.exc_text)
        return True
