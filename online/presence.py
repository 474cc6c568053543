"""Who is really at the table: connection counts that outlived their sockets are taken back.

A seat counts its open sockets (``Seat.connected``); a socket that closes says so. A process that dies
(a crash, a deploy, ``kill -9``) closes nothing, so its sockets would stay counted and an absent player's
turn would wait for ever. Two mends, both going through :func:`online.services.room_disconnect` (so the
rules for an absent seat stay in one place):

* every page pings every 25 s and each ping stamps the seat's ``last_seen`` (:func:`seat_seen`); the
  periodic ``online.sweep`` (a Celery beat entry) takes back the sockets of seats not seen for
  :data:`PRESENCE_SECONDS` (:func:`forget_gone`);
* on the embedded default (one process, no broker) the first socket a process accepts takes back every
  count (:func:`process_started`): any socket counted then belonged to a process that is gone.
"""

from __future__ import annotations

import functools
import threading
from datetime import timedelta

from django.conf import settings
from django.db import connections
from django.utils import timezone

from online import rows, services
from online.models import Room, Seat

__all__ = ["PRESENCE_SECONDS", "forget_gone", "process_started", "seat_seen"]

PRESENCE_SECONDS = 75
"""Three missed pings (the page pings every 25 s): a seat counted as connected but not seen for this long
is taken as gone."""

_started = False
_started_lock = threading.Lock()


@functools.cache
def _seen_sql(lazy: bool) -> str:
    seat, room = Seat._meta, Room._meta
    where = (f'"connected" > 0 AND "seat" = %s '
             f'AND "room_id" = (SELECT "id" FROM "{room.db_table}" WHERE "code" = %s)')
    if not lazy:
        return f'UPDATE "{seat.db_table}" SET "last_seen" = %s WHERE {where}'
    # this statement's own transaction does not wait for its commit to reach the disk
    return (f"WITH \"lazy\" AS (SELECT set_config('synchronous_commit', 'off', true)) "
            f'UPDATE "{seat.db_table}" SET "last_seen" = %s FROM "lazy" WHERE {where}')


def seat_seen(*, code: str, seat: int) -> None:
    """A ping from ``seat``'s socket: it is still there. (Every page pings every 25 s: at 200 tables 32 a
    second, so the statement is written once here rather than compiled by the ORM at each ping.)

    On PostgreSQL, outside a transaction, the stamp's commit does not wait for the disk
    (``synchronous_commit`` off for that one statement): a stamp lost in a database crash only makes the
    seat look absent a little earlier, and the plays' commits no longer queue behind 32 flushes a second."""
    conn = connections["default"]
    field = Seat._meta.get_field("last_seen")
    now = field.get_db_prep_save(timezone.now(), conn)  # type: ignore[union-attr]
    lazy = conn.vendor == "postgresql" and conn.get_autocommit()
    rows.execute(_seen_sql(lazy), [now, seat, code])


def forget_gone(*, everyone: bool = False) -> int:
    """Take back the sockets of seats not seen for :data:`PRESENCE_SECONDS` (``everyone``: of every seat,
    and every spectator count); answers how many seats. Each is a disconnect as if its sockets had closed:
    a bot plays its turn while another player stays, or the next hand is dealt between hands."""
    stale = Seat.objects.filter(connected__gt=0, bot__isnull=True)
    if not everyone:
        stale = stale.filter(last_seen__lt=timezone.now() - timedelta(seconds=PRESENCE_SECONDS))
    rows = list(stale.order_by("room_id", "seat").values_list("pk", "room__code", "seat", "channel"))
    last: dict[str, tuple[int, int, str]] = {}
    for pk, code, seat, channel in rows:
        last[code] = (pk, seat, channel)
    # All of a room's gone seats leave at once: every one but the last is zeroed first, then the last one's
    # disconnect decides for the room. One at a time, the seat to act could be given a bot because the
    # others, gone as well, were still counted (a restart would then see a bot play before anyone is back).
    gone = [pk for pk, code, _seat, _channel in rows if pk != last[code][0]]
    Seat.objects.filter(pk__in=gone).update(connected=0, channel="", last_seen=timezone.now())
    for code, (pk, seat, channel) in last.items():
        Seat.objects.filter(pk=pk, connected__gt=1).update(connected=1)  # the last one closes below
        services.room_disconnect(code=code, seat=seat, channel=channel)
    if everyone:
        Room.objects.filter(watchers__gt=0).update(watchers=0)
    return len(rows)


def process_started() -> int:
    """On the embedded default, the first call in a process forgets every socket counted before it (they
    belonged to a process that is gone); with a broker (several processes) the sweep does it by time."""
    global _started
    with _started_lock:
        if _started or not settings.CELERY_TASK_ALWAYS_EAGER:
            return 0
        _started = True
    return forget_gone(everyone=True)
