"""``/healthz``: the database and broker status as JSON — 200 when healthy, 503 otherwise."""

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


def healthz(request: HttpRequest) -> JsonResponse:
    database = check_database()
    broker = check_broker()
    healthy = bool(database["ok"] and broker["ok"])
    return JsonResponse(
        {"status": "ok" if healthy else "error", "database": database, "broker": broker},
        status=200 if healthy else 503,
    )
