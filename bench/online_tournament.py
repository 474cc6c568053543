"""Tournament matches played online (issue 31), in-process: what recording each hand the engine played costs,
and whether the public pages slow down with live online tables.

    .venv/bin/python bench/online_tournament.py                 # 16 teams, a throwaway SQLite file
    .venv/bin/python bench/online_tournament.py --teams 64      # 32 tables in the first round

1. **Recording.** An online elimination of ``--teams`` teams (``hand_limit`` 3: short matches) is played by
   bots, every table of every round (ticks inline: no bot delay, no deal pace). Each finished hand goes through
   the room owner's hook (``tournaments.services.online_matches.MatchRooms.hand_finished``: ``hand_record``,
   the trick log, the audit, the next rooms), timed around the hook. The same hands are then recorded by
   their totals (``hand_record``) in a physical copy of the event, timed alike. Goal: the hook's median
   ≤ 2× the totals entry's median (exit status 1 if missed).
2. **Public pages.** The bracket, standings and tables pages (Django's whole stack, the test client) of a
   fresh event of the same size, timed with no live table, then with every first-round table live (four
   players seated by their links, ready, the hand dealt, waiting). Goal: the medians with live tables
   ≤ 1.5× those without (the pages do not grow with the number of live tables).
"""

from __future__ import annotations

import argparse
import os
import secrets
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any, cast

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(q * (len(ordered) - 1)))]


def run(teams: int, page_rounds: int) -> dict[str, Any]:
    import django

    django.setup()
    from django.core.management import call_command
    from django.test import Client
    from django.urls import reverse

    from online import owners, services
    from online.models import Room, Seat
    from tests.tournaments.factories import TeamFactory, UserFactory
    from tournaments.models import HandRecord, Match, PlayerLink, Team, Tournament
    from tournaments.services import Actor, hand_record
    from tournaments.services.online_matches import MatchRooms
    from tournaments.services.online_rooms import KIND, host_token
    from tournaments.services.player_links import player_link_open, player_links_ensure
    from tournaments.services.setup import entry_add, tournament_create
    from tournaments.services.stages import tournament_start

    call_command("migrate", verbosity=0)
    hook_ms: list[float] = []

    class Timed(MatchRooms):
        def hand_finished(self, owner_id: int, room: Any, row: Any, hand: Any) -> bool | None:
            t = time.perf_counter()
            try:
                return super().hand_finished(owner_id, room, row, hand)
            finally:
                hook_ms.append((time.perf_counter() - t) * 1000)

    owners.register(KIND, Timed())
    owner = UserFactory(username="bench-director")
    squads = [cast(Team, TeamFactory()) for _ in range(teams)]

    def event(name: str, played: str) -> Tournament:
        t = tournament_create(owner=owner, name=name, options={"hand_limit": 3})
        for seed, team in enumerate(squads, start=1):
            entry_add(tournament=t, actor=Actor(owner), team=team, seed=seed)
        tournament_start(tournament=t, actor=Actor(owner), seeding="manual", played=played)
        t.refresh_from_db()
        return t

    online = event("Bench Online", "online")
    started = time.perf_counter()
    tables = 0
    while True:
        rooms = list(Room.objects.filter(owner_kind=KIND, status=Room.Status.WAITING).order_by("id"))
        if not rooms:
            break
        for room in rooms:
            for seat in range(4):
                room.refresh_from_db()
                services.seat_bot(code=room.code, host_token=host_token(int(room.owner_id or 0)), seat=seat,
                                  bot="random", action_id=f"b{seat}", version=room.version)
            tables += 1
    played_s = time.perf_counter() - started
    online.refresh_from_db()
    assert online.status == Tournament.Status.FINISHED, online.status
    hands = list(HandRecord.objects.filter(match__stage__tournament=online).select_related("match")
                 .order_by("match__round__number", "match__position", "number"))

    physical = event("Bench Physical", "physical")
    totals_ms: list[float] = []
    by_key = {m.key: m for m in Match.objects.filter(stage__tournament=physical)}
    for h in hands:
        match = Match.objects.get(pk=by_key[h.match.key].pk)
        t = time.perf_counter()
        hand_record(match_id=match.pk, outcome=h.outcome, version=match.version, actor=Actor(owner),
                    dealer=h.dealer if h.number == 1 else None, trump=h.trump)
        totals_ms.append((time.perf_counter() - t) * 1000)

    client = Client()

    def pages(t: Tournament) -> list[float]:
        urls = [reverse(name, args=[t.pk]) for name in ("tournament-bracket", "tournament-standings",
                                                          "tournament-tables")]
        out = []
        for _ in range(page_rounds):
            for url in urls:
                t0 = time.perf_counter()
                assert client.get(url).status_code == 200
                out.append((time.perf_counter() - t0) * 1000)
        return out

    quiet = event("Bench Quiet", "online")
    quiet_ms = pages(quiet)
    player_links_ensure(tournament=quiet, actor=Actor(owner))
    live = 0
    for link in PlayerLink.objects.filter(tournament=quiet):
        room, seat, token = player_link_open(link=link)
        room.refresh_from_db()
        services.seat_ready(code=room.code, token=token, action_id="ready", version=room.version)
    live = Room.objects.filter(owner_kind=KIND, status=Room.Status.PLAYING).count()
    assert live == teams // 2 and not Seat.objects.filter(room__status="waiting", token_digest="").exists()
    live_ms = pages(quiet)
    return {"tables": tables, "hands": len(hands), "played_s": played_s, "hook": hook_ms, "totals": totals_ms,
            "quiet": quiet_ms, "live": live_ms, "live_tables": live}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--teams", type=int, default=16, help="a power of two, 4 to 128")
    parser.add_argument("--page-rounds", type=int, default=20)
    args = parser.parse_args()
    folder = tempfile.TemporaryDirectory(prefix="bench-online-tournament-")
    os.environ.update({"DJANGO_SETTINGS_MODULE": "config.settings.local", "DEBUG": "false", "LOG_LEVEL": "ERROR",
                       "CELERY_BROKER_URL": "", "SECRET_KEY": secrets.token_urlsafe(40),
                       "ALLOWED_HOSTS": "testserver,127.0.0.1", "ONLINE_BOT_DELAY_MS": "0",
                       "ONLINE_DEAL_INTERVAL_MS": "0", "DATABASE_URL": f"sqlite:///{folder.name}/bench.sqlite3"})
    try:
        r = run(args.teams, args.page_rounds)
    finally:
        folder.cleanup()
    load = " ".join(f"{x:.2f}" for x in os.getloadavg())
    print(f"sqlite, {args.teams} teams online, in-process; load average {load} on {os.cpu_count()} CPUs")
    print(f"  played: {r['tables']} tables, {r['hands']} hands by bots in {r['played_s']:.1f} s")

    def line(name: str, values: list[float]) -> float:
        median = statistics.median(values)
        print(f"  {name:34} median {median:7.2f} ms   p95 {percentile(values, 0.95):7.2f} ms   (n={len(values)})")
        return median

    hook = line("online hand recorded (owner hook)", r["hook"])
    totals = line("the same hand by totals", r["totals"])
    quiet = line("public pages, no live table", r["quiet"])
    live = line(f"public pages, {r['live_tables']} live tables", r["live"])
    ok_record, ok_pages = hook <= 2 * totals, live <= 1.5 * quiet
    print(f"  hook / totals {hook / totals:5.2f}× (goal ≤ 2×: {'met' if ok_record else 'NOT met'}); "
          f"live / quiet pages {live / quiet:5.2f}× (goal ≤ 1.5×: {'met' if ok_pages else 'NOT met'})")
    return 0 if ok_record and ok_pages else 1


if __name__ == "__main__":
    sys.exit(main())
