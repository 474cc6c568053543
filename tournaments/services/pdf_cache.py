"""On-demand PDFs off the request path.

Each rendered PDF is kept in the cache under the document's address, language and the tournament's
results stamp, so the same standings render once until a result changes; signed-in users
(organizers, scorers) always get the render of the current results, in the request as before.

Anonymous visitors never wait for a render. The latest render of each public document (address,
query and language) is kept as one file under ``MEDIA_ROOT/pdf-latest/`` with its results stamp and
time in a header line, replaced atomically (a temporary file, then ``os.replace``), so every web
process on the machine serves a render made once by any of them. A visitor gets that file when it
shows the current results or is younger than ``PDF_ANON_MAX_AGE`` seconds; an older one is served
at once too (its ``Age`` header says how old it is) while a new render is scheduled; with no render
yet the visitor gets a short "being prepared" page (202, ``Retry-After``, refreshing itself). The
render runs as the Celery task ``tournaments.pdf_render`` with a broker, or in a background thread
of the web process without one (``PDF_RENDER_THREAD``); a lock file created atomically
(``O_CREAT | O_EXCL``, taken over after :data:`RENDER_LOCK_SECONDS`) lets one render per document
run at a time, so a burst of visitors schedules one render. Visitors also get
``PDF_ANON_PER_MINUTE`` PDFs a minute per address (429 with ``Retry-After`` beyond)."""

from __future__ import annotations

import hashlib
import io
import json
import logging
import os
import tempfile
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

from django.conf import settings
from django.contrib.auth.models import AnonymousUser
from django.core.cache import cache
from django.core.handlers.wsgi import WSGIRequest
from django.db import connection
from django.urls import resolve
from django.utils import translation
from django.utils.crypto import salted_hmac

from safety.client_ip import client_ip
from safety.ratelimit import hit
from tournaments.enqueue import PDF_RENDER, BrokerUnavailable, enqueue, tasks_run_in_process
from tournaments.models import Tournament
from tournaments.selectors.stamps import results_stamp

logger = logging.getLogger(__name__)

STORE_DIR = "pdf-latest"
# A render lock older than this is left by a render that died (the task's hard time limit is below it).
RENDER_LOCK_SECONDS = 120
# The "being prepared" page asks the browser to come back after this many seconds.
PREPARING_RETRY_SECONDS = 5
# The off-path render asks the view for the document with this attribute set on its request.
RENDER_MARK = "pdf_render_off_path"


def _language() -> str:
    return translation.get_language() or settings.LANGUAGE_CODE


def pdf_cache_key(*, path: str, query: str, language: str, stamp: str) -> str:
    """The cache key of a document's render of the results with this stamp."""
    return "pdf:" + hashlib.sha256("\x00".join([path, query, language, stamp]).encode()).hexdigest()


# --------------------------------------------------------------------------- the latest render, on disk

@dataclass(frozen=True)
class StoredPdf:
    pdf: bytes
    stamp: str
    rendered_at: float

    @property
    def age(self) -> int:
        return max(0, int(time.time() - self.rendered_at))


def _store_dir() -> Path:
    return Path(settings.MEDIA_ROOT) / STORE_DIR


def document_key(*, path: str, query: str, language: str) -> str:
    """The file name of a document's latest render: keyed with the secret key, so nobody can name it."""
    return salted_hmac("pdf-latest", "\x00".join([path, query, language])).hexdigest()


def pdf_stored(key: str) -> StoredPdf | None:
    """The latest render of a document, or None."""
    try:
        raw = (_store_dir() / f"{key}.pdf").read_bytes()
    except OSError:
        return None
    header, _sep, pdf = raw.partition(b"\n")
    try:
        meta = json.loads(header)
        return StoredPdf(pdf=pdf, stamp=str(meta["stamp"]), rendered_at=float(meta["rendered_at"]))
    except (ValueError, KeyError, TypeError):
        return None


def pdf_store(*, key: str, pdf: bytes, stamp: str, path: str, query: str, language: str) -> None:
    """Replace a document's latest render (atomically: readers see the old file or the new one)."""
    folder = _store_dir()
    folder.mkdir(parents=True, exist_ok=True)
    header = json.dumps({"stamp": stamp, "rendered_at": time.time(), "path": path, "query": query,
                         "language": language}).encode()
    handle, temporary = tempfile.mkstemp(dir=folder, prefix=".tmp-")
    try:
        with os.fdopen(handle, "wb") as out:
            out.write(header + b"\n" + pdf)
        os.replace(temporary, folder / f"{key}.pdf")
    except BaseException:
        Path(temporary).unlink(missing_ok=True)
        raise


def _lock_path(key: str) -> Path:
    return _store_dir() / f"{key}.lock"


def render_lock_take(key: str) -> bool:
    """True if this caller may render the document now (no other render of it running)."""
    lock = _lock_path(key)
    lock.parent.mkdir(parents=True, exist_ok=True)
    for _attempt in range(2):
        try:
            os.close(os.open(lock, os.O_CREAT | os.O_EXCL | os.O_WRONLY, 0o600))
            return True
        except FileExistsError:
            try:
                if time.time() - lock.stat().st_mtime < RENDER_LOCK_SECONDS:
                    return False
                lock.unlink()  # left by a render that died: take it over
            except FileNotFoundError:
                pass  # released meanwhile: try again
    return False


def render_lock_release(key: str) -> None:
    _lock_path(key).unlink(missing_ok=True)


def pdf_store_cleanup() -> int:
    """Delete stored renders not replaced for ``PDF_CACHE_SECONDS`` (documents nobody asks for any
    more, addresses with odd queries), stale locks and temporary files left by a killed render.
    Answers how many files went (the clean-up's ``pdf_renders`` step)."""
    folder = _store_dir()
    if not folder.exists():
        return 0
    now = time.time()
    deleted = 0
    for file in folder.iterdir():
        limit = RENDER_LOCK_SECONDS if file.suffix == ".lock" or file.name.startswith(".tmp-") else _keep()
        try:
            if now - file.stat().st_mtime > limit:
                file.unlink()
                deleted += 1
        except FileNotFoundError:
            pass
    return deleted


# --------------------------------------------------------------------------- the render, off the request path

def _render_request(*, path: str, query: str, base_url: str) -> WSGIRequest:
    """The anonymous GET of the document the visitor asked for (no middleware, no session)."""
    site = urlsplit(base_url)
    secure = site.scheme == "https"
    environ = {"REQUEST_METHOD": "GET", "PATH_INFO": path, "QUERY_STRING": query, "SCRIPT_NAME": "",
               "SERVER_NAME": site.hostname or "localhost", "SERVER_PORT": str(site.port or (443 if secure else 80)),
               "HTTP_HOST": site.netloc or "localhost", "REMOTE_ADDR": "127.0.0.1",
               "wsgi.url_scheme": site.scheme or "http", "wsgi.input": io.BytesIO(b"")}
    request = WSGIRequest(environ)
    request.user = AnonymousUser()
    setattr(request, RENDER_MARK, True)
    return request


def pdf_render_latest(*, path: str, query: str, language: str, base_url: str) -> str:
    """Render the document at ``path?query`` as an anonymous visitor sees it and store it as its
    latest render (the Celery task and the background thread call this); releases the render lock."""
    key = document_key(path=path, query=query, language=language)
    try:
        match = resolve(path)
        with translation.override(language):
            response = match.func(_render_request(path=path, query=query, base_url=base_url),
                                  *match.args, **match.kwargs)
        return "rendered" if response.status_code == 200 else f"not rendered ({response.status_code})"
    except Exception as exc:  # a document gone (404), made private (403): nothing to store
        logger.info("PDF %s?%s not rendered: %r", path, query, exc)
        return f"not rendered ({type(exc).__name__})"
    finally:
        render_lock_release(key)


# One background render at a time per web process (documents asked for together wait their turn).
_THREAD_SLOT = threading.Lock()


def _render_in_thread(**params: str) -> None:
    try:
        with _THREAD_SLOT:
            pdf_render_latest(**params)
    finally:
        connection.close()  # the thread's own database connection


def render_thread_start(params: dict[str, str]) -> None:
    """Render in a background thread of this process (no broker): the request answers at once."""
    threading.Thread(target=_render_in_thread, kwargs=params, name="pdf-render", daemon=True).start()


def pdf_render_schedule(*, path: str, query: str, language: str, base_url: str) -> bool:
    """Schedule a render of the document unless one is running; True if this call scheduled it.

    With a broker: the Celery task. Without one (tasks in-process): a background thread of this
    process (``PDF_RENDER_THREAD``), or at once when it is off (the tests' default) — or, if the
    broker cannot be reached, a thread too."""
    key = document_key(path=path, query=query, language=language)
    if not render_lock_take(key):
        return False
    params = {"path": path, "query": query, "language": language, "base_url": base_url}
    try:
        if not tasks_run_in_process():
            try:
                enqueue(PDF_RENDER, kwargs=params, connect_timeout=2, retry_interval=0.2)
                return True
            except BrokerUnavailable as exc:
                logger.warning("PDF render of %s: broker unavailable, rendering in a thread: %s", path, exc)
        if tasks_run_in_process() and not getattr(settings, "PDF_RENDER_THREAD", True):
            enqueue(PDF_RENDER, kwargs=params)
        else:
            render_thread_start(params)
        return True
    except BaseException:
        render_lock_release(key)
        raise


# --------------------------------------------------------------------------- serving

@dataclass(frozen=True)
class PdfAnswer:
    """What a PDF request gets: the PDF (``age`` set when it is a stored render), or ``None`` for
    "being prepared"."""

    pdf: bytes | None
    age: int | None = None


def _signed_in(request: Any) -> bool:
    return getattr(request, "user", None) is not None and request.user.is_authenticated


def _keep() -> int:
    return int(getattr(settings, "PDF_CACHE_SECONDS", 3600))


def pdf_served(*, request: Any, path: str, query: str, tournament: Tournament | None,
               render: Callable[[], tuple[bytes, int]], shareable: bool = True) -> PdfAnswer:
    """The PDF for this request. Signed-in users (and the off-path render itself) get the render of
    the current results: from the cache or the stored file when they show the current results, else
    rendered now. Anonymous visitors get the stored render — never one made in their request — and a
    new render is scheduled when the stored one is older than ``PDF_ANON_MAX_AGE`` and the results
    changed. ``shareable`` documents (public) are stored on disk for every process."""
    language = _language()
    key = document_key(path=path, query=query, language=language)
    off_path = getattr(request, RENDER_MARK, False)
    if not off_path and not _signed_in(request):
        return _for_visitor(request=request, key=key, path=path, query=query, language=language,
                            tournament=tournament)
    stamp = results_stamp(tournament)
    exact = pdf_cache_key(path=path, query=query, language=language, stamp=stamp)
    pdf = cache.get(exact)
    if pdf is not None:
        return PdfAnswer(pdf)
    stored = pdf_stored(key) if shareable else None
    if stored is not None and stored.stamp == stamp:
        cache.set(exact, stored.pdf, _keep())
        return PdfAnswer(stored.pdf)
    pdf, _pages = render()
    cache.set(exact, pdf, _keep())
    if shareable:
        pdf_store(key=key, pdf=pdf, stamp=stamp, path=path, query=query, language=language)
    return PdfAnswer(pdf)


def _for_visitor(*, request: Any, key: str, path: str, query: str, language: str,
                 tournament: Tournament | None) -> PdfAnswer:
    stored = pdf_stored(key)
    max_age = float(getattr(settings, "PDF_ANON_MAX_AGE", 60))
    if stored is not None and time.time() - stored.rendered_at < max_age:
        return PdfAnswer(stored.pdf, stored.age)
    if stored is not None and stored.stamp == results_stamp(tournament):
        return PdfAnswer(stored.pdf, stored.age)  # old, but nothing changed since
    base_url = request.build_absolute_uri("/").rstrip("/")
    pdf_render_schedule(path=path, query=query, language=language, base_url=base_url)
    newer = pdf_stored(key)  # rendered at once (no thread), or by another process meanwhile
    if newer is not None:
        return PdfAnswer(newer.pdf, newer.age)
    return PdfAnswer(None)


def anonymous_pdf_wait(request: Any) -> int | None:
    """None when this PDF request may go on; for an anonymous visitor over the per-address limit,
    the seconds to wait. Signed-in users (organizers, scorers) and the off-path render are not limited."""
    if _signed_in(request) or getattr(request, RENDER_MARK, False):
        return None
    return hit("pdf", client_ip(request), int(getattr(settings, "PDF_ANON_PER_MINUTE", 6)), 60)
