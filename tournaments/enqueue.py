"""Queue a Celery task by its registered name, so that a service never imports the task module.

The task module imports the services it runs (:mod:`tournaments.tasks`: ids in, one service call);
the services queue those tasks through :func:`enqueue`, by name. Imports go one way only.

Without a broker (``CELERY_TASK_ALWAYS_EAGER``, the embedded default) the task runs in this process,
at once; with one, the message is sent after one quick connection check, and a broker that cannot be
reached raises :class:`BrokerUnavailable` within seconds instead of waiting for it.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from celery.exceptions import CeleryError
from celery.result import AsyncResult
from kombu.exceptions import OperationalError
from kombu.serialization import dumps, loads

from config.celery_app import app

# The registered names of the tournaments app's tasks (tournaments/tasks.py registers them).
PRINT_JOB = "tournaments.print_job"
PDF_RENDER = "tournaments.pdf_render"
RATINGS_RECOMPUTE = "tournaments.ratings_recompute"
ONLINE_NO_SHOWS = "tournaments.online_no_shows"

# What a broker that is down or refuses us raises on the way (kombu wraps most; redis-py, amqp not all).
BROKER_ERRORS = (OperationalError, CeleryError, OSError, ConnectionError)
BROKER_LIBRARIES = ("redis", "kombu", "amqp")


class BrokerUnavailable(Exception):
    """The task could not be handed to the broker; nothing was queued."""


def tasks_run_in_process() -> bool:
    """True when tasks run eagerly in this process (no broker configured, and in the tests)."""
    return bool(app.conf.task_always_eager)


def registered(name: str) -> Any:
    """The task registered as ``name``. The task modules of the installed apps are imported the first
    time one is asked for (Celery's autodiscovery), so a web process need not import them itself."""
    if name not in app.tasks:
        app.loader.import_default_modules()
    try:
        return app.tasks[name]
    except KeyError:
        raise LookupError(f"no Celery task is registered as {name!r}") from None


def enqueue(name: str, *, args: Sequence[Any] = (), kwargs: Mapping[str, Any] | None = None,
            connect_timeout: float = 3.0, retry_interval: float = 0.5) -> AsyncResult:
    """Queue the task registered as ``name``: run at once when tasks run in-process, else sent to the
    broker after one connection attempt (retried once after ``retry_interval`` seconds, each given
    ``connect_timeout``). Raises :class:`BrokerUnavailable` when the broker cannot take it."""
    task = registered(name)  # in-process runs need the task itself: a name alone would go to a broker
    if tasks_run_in_process():
        # As Celery's eager apply_async does, the arguments make the round trip through the task
        # serializer (JSON), so what runs here could have been sent; but no broker connection is
        # borrowed for it (Celery's own eager path takes a producer from the broker's pool).
        content_type, encoding, data = dumps((list(args), dict(kwargs or {})), app.conf.task_serializer)
        run_args, run_kwargs = loads(data, content_type, encoding, accept=[content_type])
        return task.apply(run_args, run_kwargs)
    signature = app.signature(name, args=tuple(args), kwargs=dict(kwargs or {}))
    try:
        with app.connection_for_write() as connection:
            connection.ensure_connection(max_retries=1, interval_start=retry_interval,
                                         interval_step=retry_interval, timeout=connect_timeout)
            return signature.apply_async(connection=connection, retry=False)
    except BROKER_ERRORS as exc:
        raise BrokerUnavailable(str(exc)) from exc
    except Exception as exc:  # a redis-py error that kombu did not wrap, for instance
        if type(exc).__module__.split(".")[0] not in BROKER_LIBRARIES:
            raise
        raise BrokerUnavailable(str(exc)) from exc
