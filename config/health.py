"""``/healthz``: the database, broker and worker status as JSON.

The site serves pages when its database and broker answer: then 200, with ``"status": "ok"`` when a
worker answers too, or ``"degraded"`` when none does (printing and simulation wait; scoring goes on — a
load balancer must not take the site out for that). Otherwise 503 ``"error"``. Everyone gets the
verdict; only staff see the details (errors can name hosts and ports).
"""

import time

from django.conf import settings
from django.db import connections
from django.http import HttpRequest, JsonResponse


def check_database() -> dict[str, object]:
    started = time.perf_counter()
    try:
        with connections["default"].cursor() as cursor:
            cursor.execute("SELECT 1")
            cursor.fetchone()
    except Exception as exc:  # any failure is reported, never raised
        return {"ok": False, "error": f"{type(exc).__name__}: {exc}".strip()[:300]}
    return {"ok": True, "vendor": connections["default"].vendor, "ms": round((time.perf_counter() - started) * 1000, 1)}


def check_broker() -> dict[str, object]:
    url = settings.CELERY_BROKER_URL
    if not url:
        return {"ok": True, "mode": "in-process", "detail": "No broker configured: tasks run in-process."}
    from kombu import Connection

    started = time.perf_counter()
    try:
        with Connection(url, connect_timeout=3, transport_options={"socket_timeout": 3}) as conn:
            conn.ensure_connection(max_retries=1, timeout=3)
    except Exception as exc:
        return {"ok": False, "mode": "broker", "error": f"{type(exc).__name__}: {exc}"[:300]}
    return {"ok": True, "mode": "broker", "ms": round((time.perf_counter() - started) * 1000, 1)}


def check_workers() -> dict[str, object]:
    """Whether any Celery worker answers a short ping (only with a broker; "in-process" otherwise)."""
    if not settings.CELERY_BROKER_URL:
        return {"ok": True, "mode": "in-process", "detail": "No broker configured: tasks run in-process."}
    from config.celery_app import app

    started = time.perf_counter()
    try:
        replies = app.control.ping(timeout=float(getattr(settings, "HEALTH_WORKER_PING_TIMEOUT", 1.0))) or []
    except Exception as exc:
        return {"ok": False, "mode": "broker", "error": f"{type(exc).__name__}: {exc}"[:300]}
    names = sorted(name for reply in replies for name in reply)
    ms = round((time.perf_counter() - started) * 1000, 1)
    if not names:
        return {"ok": False, "mode": "broker", "error": "No worker answered the ping.", "ms": ms}
    return {"ok": True, "mode": "broker", "workers": names, "ms": ms}


def _is_staff(request: HttpRequest) -> bool:
    """Whether the caller is staff; False when that cannot be told (the database is down)."""
    try:
        user = getattr(request, "user", None)
        return bool(user is not None and user.is_authenticated and user.is_staff)
    except Exception:
        return False


def healthz(request: HttpRequest) -> JsonResponse:
    database = check_database()
    broker = check_broker()
    # No point pinging workers through a broker that cannot be reached.
    workers = check_workers() if broker["ok"] else {"ok": False, "mode": "broker", "error": "The broker is down."}
    healthy = bool(database["ok"] and broker["ok"])
    body: dict[str, object] = {"status": ("ok" if workers["ok"] else "degraded") if healthy else "error"}
    if _is_staff(request):
        body.update({"database": database, "broker": broker, "workers": workers})
    return JsonResponse(body, status=200 if healthy else 503)
