"""Safe retries: a write sent twice with one idempotency key is done once; the repeat replays the answer.

The key comes from the ``Idempotency-Key`` header or, for HTML forms, the ``idempotency_key`` field
(``{% idempotency_field %}`` renders a fresh one per form render). For each key, per scope (the user,
the table link or, for anonymous callers, the address):

1. the key is reserved in its own short transaction (a unique insert);
2. the view runs; its answer (status, body, content type, redirect) is stored;
3. a repeat with the same method, path and body replays the stored answer with the header
   ``Idempotent-Replayed: true``; with another body or path it is refused with 422; while the first
   request is still running it is refused with 409 ("in progress", ``Retry-After``).

A view that calls another idempotent view (a page that hands its POST on to another page's view) runs
inside the first reservation: the key is reserved once per request, by the outermost call, so a nested
call can never find its own request's reservation "in progress". Refusals of HTML forms are pages of the
site (``safety/refusal.html``) that say what happened and what to do.

A request that fails with an exception or a 5xx answer releases its key, so it can be retried. A
reservation left behind by a process that died counts as abandoned after
``IDEMPOTENCY_STALE_SECONDS``; every key expires after ``IDEMPOTENCY_KEY_TTL_HOURS`` (``manage.py
cleanup`` deletes them).

Four ways to use it: ``@idempotent`` on a Django function view, ``@idempotent_page`` on an HTML
form view, ``IdempotentAPIMixin`` on a DRF view (placed before the view class), and
``idempotent_form(request, handler)`` inside a form view.
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Callable
from datetime import timedelta
from functools import wraps
from typing import Any

from django.conf import settings
from django.db import IntegrityError, transaction
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.utils import timezone
from django.utils.translation import gettext as _

from safety.models import IdempotencyKey

HEADER = "Idempotency-Key"
FORM_FIELD = "idempotency_key"
REPLAYED_HEADER = "Idempotent-Replayed"
SAFE_METHODS = frozenset({"GET", "HEAD", "OPTIONS", "TRACE"})
KEY_RE = re.compile(r"^[A-Za-z0-9._:~-]{1,128}$")
FORM_CONTENT_TYPES = ("application/x-www-form-urlencoded", "multipart/form-data")
IGNORED_FORM_FIELDS = frozenset({"csrfmiddlewaretoken"})
RUNNING_ATTRIBUTE = "_idempotency_running"  # set on a request while its reservation is held


def key_ttl() -> timedelta:
    return timedelta(hours=float(getattr(settings, "IDEMPOTENCY_KEY_TTL_HOURS", 24)))


def stale_after() -> timedelta:
    return timedelta(seconds=float(getattr(settings, "IDEMPOTENCY_STALE_SECONDS", 600)))


# ----------------------------------------------------------------------------------------- parts


def table_token_of(request: Any, view_kwargs: dict[str, Any] | None = None) -> str | None:
    """The table-link token of a request: the ``token`` URL part, ``X-Table-Token`` or ``?token=``."""
    token = (view_kwargs or {}).get("token")
    if not token:
        headers = getattr(request, "headers", {})
        token = headers.get("X-Table-Token") or getattr(request, "GET", {}).get("token")
    return str(token) if token else None


def request_scope(request: Any, view_kwargs: dict[str, Any] | None = None) -> str:
    """Whose keys these are: the signed-in user, else the table link (hashed), else the address."""
    user = getattr(request, "user", None)
    if user is not None and user.is_authenticated:
        return f"user:{user.pk}"
    token = table_token_of(request, view_kwargs)
    if token:
        return "table:" + hashlib.sha256(token.encode()).hexdigest()[:64]
    from safety.client_ip import client_ip

    return f"anon:{client_ip(request)}"[:100]


def request_key(request: Any) -> str | None:
    """The idempotency key sent with the request (header first, then the form field), or None."""
    key = request.headers.get(HEADER)
    if key is None and request.content_type in FORM_CONTENT_TYPES:
        key = request.POST.get(FORM_FIELD)
    return key.strip() if key is not None else None


def request_fingerprint(request: HttpRequest) -> str:
    """SHA-256 of what the request asks for. Form posts hash their fields (not the raw body, whose
    multipart boundary changes on every send), leaving out the CSRF token."""
    digest = hashlib.sha256()
    if request.content_type in FORM_CONTENT_TYPES:
        for name in sorted(request.POST):
            if name in IGNORED_FORM_FIELDS or name == FORM_FIELD:
                continue
            for value in request.POST.getlist(name):
                digest.update(f"{name}\x00{value}\x01".encode())
        for name in sorted(request.FILES):
            for upload in request.FILES.getlist(name):
                digest.update(f"{name}\x00{upload.name}\x00{upload.size}\x02".encode())
                for chunk in upload.chunks():
                    digest.update(chunk)
                upload.seek(0)
    else:
        digest.update(request.body)
    return digest.hexdigest()


def error_answer(status: int, code: str, detail: str, *, as_json: bool = True,
                 request: HttpRequest | None = None) -> HttpResponse:
    """A refusal: JSON ``{"detail", "code"}`` for APIs, else a page of the site saying what to do."""
    if as_json:
        return JsonResponse({"detail": detail, "code": code}, status=status)
    from django.template.loader import render_to_string

    context = {"status": status, "code": code, "detail": detail, "advice": REFUSAL_ADVICE.get(code, ""),
               "again_url": request.get_full_path() if request is not None else ""}
    html = render_to_string("safety/refusal.html", context, request=request)
    return HttpResponse(html, status=status, content_type="text/html; charset=utf-8")


def _advice() -> dict[str, Any]:
    from django.utils.translation import gettext_lazy

    return {
        "idempotency_in_progress": gettext_lazy(
            "Your first press of this button is still being saved. Wait a moment, then open the page "
            "again: it shows whether it was saved."),
        "idempotency_key_reused": gettext_lazy(
            "This form was already used for another request. Open the page again and fill in the new "
            "form."),
        "invalid_idempotency_key": gettext_lazy("Open the page again and send the form from there."),
    }


REFUSAL_ADVICE = _advice()


def replay(record: IdempotencyKey) -> HttpResponse:
    response = HttpResponse(bytes(record.response_body), status=record.status_code,
                            content_type=record.content_type or None)
    if record.location:
        response["Location"] = record.location
    response[REPLAYED_HEADER] = "true"
    return response


# ----------------------------------------------------------------------------------- the steps


class Decision:
    """What to do with a request: run it (``record`` is the reservation) or answer ``response``."""

    def __init__(self, record: IdempotencyKey | None = None, response: HttpResponse | None = None) -> None:
        self.record = record
        self.response = response


def reserve(request: HttpRequest, scope: str, *, as_json: bool = True) -> Decision:
    """Step 1: reserve the key, or decide the answer (replay, 409, 422, 400) without running the view."""
    if request.method in SAFE_METHODS:
        return Decision()
    key = request_key(request)
    if key is None:
        return Decision()
    if not KEY_RE.match(key):
        return Decision(response=error_answer(400, "invalid_idempotency_key", _(
            "The Idempotency-Key must be 1 to 128 letters, digits or . _ : ~ - (a UUID is best)."), as_json=as_json, request=request))
    fields = {"method": request.method or "", "path": request.path[:500],
              "request_hash": request_fingerprint(request)}
    now = timezone.now()
    for _attempt in range(2):
        try:
            with transaction.atomic():
                record = IdempotencyKey.objects.create(scope=scope, key=key, **fields)
            return Decision(record=record)
        except IntegrityError:
            existing = IdempotencyKey.objects.filter(scope=scope, key=key).first()
        if existing is None:
            continue  # released in between: try the reservation again
        expired = existing.created_at < now - key_ttl()
        abandoned = existing.in_progress and existing.created_at < now - stale_after()
        if expired or abandoned:
            IdempotencyKey.objects.filter(pk=existing.pk, created_at=existing.created_at).delete()
            continue
        if any(getattr(existing, name) != value for name, value in fields.items()):
            return Decision(response=error_answer(422, "idempotency_key_reused", _(
                "This Idempotency-Key was already used for a different request (another body, method or "
                "path). Send a new key for a new request."), as_json=as_json, request=request))
        if existing.in_progress:
            response = error_answer(409, "idempotency_in_progress", _(
                "A request with this Idempotency-Key is still in progress. Wait for its answer, then "
                "retry with the same key."), as_json=as_json, request=request)
            response["Retry-After"] = "1"
            return Decision(response=response)
        return Decision(response=replay(existing))
    return Decision(response=error_answer(409, "idempotency_in_progress", _(
        "A request with this Idempotency-Key is still in progress. Wait for its answer, then "
        "retry with the same key."), as_json=as_json, request=request))


def release(record: IdempotencyKey | None) -> None:
    """Forget a reservation whose request failed, so that it can be retried."""
    if record is not None:
        IdempotencyKey.objects.filter(pk=record.pk, status_code__isnull=True).delete()


def store(record: IdempotencyKey | None, response: HttpResponse) -> HttpResponse:
    """Step 3: keep the answer for replays (a 5xx or streaming answer releases the key instead)."""
    if record is None:
        return response
    render = getattr(response, "render", None)
    if callable(render) and not getattr(response, "is_rendered", True):
        render()
    if response.status_code >= 500 or getattr(response, "streaming", False):
        release(record)
        return response
    IdempotencyKey.objects.filter(pk=record.pk).update(
        status_code=response.status_code, response_body=response.content,
        content_type=response.get("Content-Type", ""), location=response.get("Location", "")[:500])
    return response


def run_idempotent(request: HttpRequest, handler: Callable[[], HttpResponse], *, scope: str | None = None,
                   view_kwargs: dict[str, Any] | None = None, as_json: bool = True) -> HttpResponse:
    """Reserve the request's key, run ``handler()``, store its answer (or replay / refuse).

    Re-entrant: inside a call already running for this request (an idempotent view calling another),
    ``handler()`` just runs — the outer call holds the one reservation and stores the answer.
    """
    if getattr(request, RUNNING_ATTRIBUTE, False):
        return handler()
    decision = reserve(request, scope or request_scope(request, view_kwargs), as_json=as_json)
    if decision.response is not None:
        return decision.response
    setattr(request, RUNNING_ATTRIBUTE, True)
    try:
        response = handler()
    except BaseException:
        release(decision.record)
        raise
    finally:
        setattr(request, RUNNING_ATTRIBUTE, False)
    return store(decision.record, response)


# ------------------------------------------------------------------------------------ the uses


def idempotent(view: Callable[..., HttpResponse]) -> Callable[..., HttpResponse]:
    """Decorator for a Django function view: writes with a key are done once (answers in JSON)."""

    @wraps(view)
    def wrapper(request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
        return run_idempotent(request, lambda: view(request, *args, **kwargs), view_kwargs=kwargs)

    return wrapper


def idempotent_page(view: Callable[..., HttpResponse] | None = None, *,
                    read_only_actions: tuple[str, ...] = ()) -> Any:
    """Decorator for an HTML form view (``@idempotent_page`` or ``@idempotent_page(read_only_actions=
    ("preview",))``): a double submit of one rendered form replays the first answer; refusals are
    short plain-text pages. Posts whose ``action`` field is one of ``read_only_actions`` write nothing
    and skip the key (an htmx preview re-sends the form's key with new figures on every change).
    """

    def decorate(inner: Callable[..., HttpResponse]) -> Callable[..., HttpResponse]:
        @wraps(inner)
        def wrapper(request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
            if request.method == "POST" and read_only_actions and request.POST.get("action") in read_only_actions:
                return inner(request, *args, **kwargs)
            return run_idempotent(request, lambda: inner(request, *args, **kwargs), view_kwargs=kwargs,
                                  as_json=False)

        return wrapper

    return decorate(view) if view is not None else decorate


def idempotent_form(request: HttpRequest, handler: Callable[[], HttpResponse],
                    view_kwargs: dict[str, Any] | None = None) -> HttpResponse:
    """For an HTML form view's POST branch: ``return idempotent_form(request, lambda: save(...))``.

    A double submit of one rendered form (same ``idempotency_key``) replays the first answer (usually
    the redirect); refusals are short plain-text pages.
    """
    return run_idempotent(request, handler, view_kwargs=view_kwargs, as_json=False)


class IdempotentAPIMixin:
    """DRF view mixin: put it first, ``class MatchHands(IdempotentAPIMixin, APIView)``.

    The key is reserved after authentication and permission checks (so the scope is the API user or
    table token), and the final answer — success or 4xx error — is stored.
    """

    _idempotency_record: IdempotencyKey | None = None

    def initial(self, request: Any, *args: Any, **kwargs: Any) -> None:
        super().initial(request, *args, **kwargs)  # type: ignore[misc]
        self._idempotency_record = None
        decision = reserve(request._request if hasattr(request, "_request") else request,
                           request_scope(request, kwargs))
        if decision.response is not None:
            raise _Answer(decision.response)
        self._idempotency_record = decision.record

    def handle_exception(self, exc: Exception) -> Any:
        if isinstance(exc, _Answer):
            return exc.response
        return super().handle_exception(exc)  # type: ignore[misc]

    def dispatch(self, request: Any, *args: Any, **kwargs: Any) -> Any:
        self._idempotency_record = None
        try:
            return super().dispatch(request, *args, **kwargs)  # type: ignore[misc]
        except BaseException:
            release(self._idempotency_record)  # an uncaught error: the write may be retried
            self._idempotency_record = None
            raise

    def finalize_response(self, request: Any, response: Any, *args: Any, **kwargs: Any) -> Any:
        response = super().finalize_response(request, response, *args, **kwargs)  # type: ignore[misc]
        record, self._idempotency_record = self._idempotency_record, None
        return store(record, response)


class _Answer(Exception):
    def __init__(self, response: HttpResponse) -> None:
        super().__init__("idempotency answer")
        self.response = response
