"""Demo data for a new installation. Idempotent: loading twice leaves the same data.

A running 16-team ``tractor`` elimination ("first past J"), seeded by rating: round 1 complete
but for one match in play, two round-2 matches finished, one in progress; a red-five individual
event and a Swiss qualifier. Every hand is played by the engine's bots (:mod:`gameplay.bots`,
seeded, so the demo is the same every time) and recorded through the normal hand-record
services, so levels, scores and standings look like those of a real event.
"""

from __future__ import annotations

import random
import zlib
from typing import Any

from django.contrib.auth import get_user_model
from django.db import transaction

from gameplay.bots import make_bot
from gameplay.hand import Hand, HandConfig
from gameplay.simulate import play_out
from scoring.partnership import MatchState
from tournaments.models import Entry, Match, Player, Team, Tournament
from tournaments.services import Actor, hand_record
from tournaments.services.stages import (
    stage_create,
    stage_start,
    swiss_next_round,
    table_round_draw,
    tournament_start,
)
from tournaments.services.table_hands import table_hand_record

DEMO_TOURNAMENT = "升级公开赛 · Demo Open 2026"
DEMO_ORGANIZER = "demo-organizer"
SURNAMES = ["王", "李", "张", "刘", "陈", "杨", "赵", "黄", "周", "吴", "徐", "孙", "胡", "朱", "高", "林"]
GIVEN = ["伟", "芳", "娜", "敏", "静", "磊", "洋", "勇", "艳", "杰", "涛", "明", "超", "霞", "平", "刚"]
CLUBS = ["北京桥牌俱乐部", "上海升级社", "长沙拖拉机协会", "Paris Tractor Club"]
LATIN = {3: ("Alice Martin", "Bob Chen 陈波"), 11: ("Zoë Dubois", "Ali Hassan")}
MAX_HANDS = 80
"""A match played to its end stops here at the latest (bots finish a "first past J" match in far fewer)."""


def _seed(*parts: object) -> int:
    """A stable seed from names and numbers (``hash()`` of a string changes between runs)."""
    return zlib.crc32("|".join(str(p) for p in parts).encode("utf-8"))


def _bots(seed: int, players: int) -> list[Any]:
    """Seated bots: mostly the heuristic player, now and then a random one (a weaker player)."""
    rng = random.Random(seed)
    return [make_bot("random" if rng.random() < 0.25 else "heuristic", random.Random(seed * 7 + seat))
            for seat in range(players)]


def _bots_play(hand: Hand, bots: list[Any]) -> dict[str, Any]:
    """Play ``hand`` to its end with ``bots``: its outcome, as a scorer would enter it."""
    play_out(hand, bots)
    if hand.outcome is None:  # play_out returns once the last trick is won, and the hand is scored then
        raise RuntimeError("the bots left the hand unfinished")
    return hand.outcome


def _match_state(match: Match) -> MatchState | None:
    """The match's state before its next hand as the engine wants it (None before the first hand)."""
    if not match.hands_played:
        return None
    state = match.state
    levels = state["levels"]
    failures = state.get("a_failures") or (0, 0)
    return MatchState(levels=(levels[0], levels[1]), dealer=int(state["dealer"]),
                      a_failures=(int(failures[0]), int(failures[1])), hands_played=match.hands_played)


def _players_and_teams() -> list[Team]:
    teams = []
    for i in range(16):
        if i in LATIN:
            names = LATIN[i]
        else:
            names = (SURNAMES[i] + GIVEN[i], SURNAMES[(i + 5) % 16] + GIVEN[(i + 9) % 16] + GIVEN[(i + 3) % 16])
        club = CLUBS[i % len(CLUBS)]
        p1, _ = Player.objects.update_or_create(name=names[0], defaults={"club": club, "rating": 1900 - 10 * i})
        p2, _ = Player.objects.update_or_create(name=names[1], defaults={"club": club, "rating": 1895 - 10 * i})
        team_name = f"{names[0].split()[0]} & {names[1].split()[0]}"
        team, _ = Team.objects.update_or_create(name=team_name, defaults={"player1": p1, "player2": p2, "club": club,
                                                                        "rating": 1900 - 10 * i})
        teams.append(team)
    return teams


def _play(match: Match, actor: Actor, hands: int | None = None) -> None:
    """Play ``hands`` hands of a partnership match with bots (None: to the match's end), each
    recorded with :func:`hand_record` as a scorer would enter it."""
    tournament = match.stage.tournament
    for _index in range(MAX_HANDS if hands is None else hands):
        match.refresh_from_db()
        if match.status == Match.Status.FINISHED:
            return
        seed = _seed(tournament.name, match.round.number, match.position, match.hands_played)
        hand = Hand(HandConfig(tournament.variant, dict(tournament.options or {}), state=_match_state(match)),
                    rng=random.Random(seed))
        outcome = _bots_play(hand, _bots(_seed(tournament.name, match.position, "bots"), 4))
        hand_record(match_id=match.pk, outcome=outcome, version=match.version, actor=actor,
                    dealer=None if match.hands_played else hand.dealer, trump=hand.trump or "")


DEMO_RED_FIVE = "红五个人赛 · Red Five Night"
DEMO_SWISS = "瑞士制资格赛 · Swiss Qualifier Cup"
RED_FIVE_NAMES = ["周杰", "吴敏", "郑爽", "冯涛", "陈晨", "褚红", "卫东", "蒋丽", "沈阳", "韩梅", "杨柳", "朱琳",
                  "Emma Li", "Lucas 卢"]


def _red_five_event(organizer: Any) -> None:
    """A running red-five individual event: 14 players (two sit out each round), round 1 played,
    round 2 drawn with one table mid-way."""

    if Tournament.objects.filter(name=DEMO_RED_FIVE).exists():
        return
    actor = Actor(organizer, "system")
    t = Tournament.objects.create(name=DEMO_RED_FIVE, variant="red-five", owner=organizer, venue="长沙 · 岳麓棋牌室")
    for i, name in enumerate(RED_FIVE_NAMES):
        player, _ = Player.objects.update_or_create(name=name, defaults={"club": "长沙红五会", "rating": 1500 + 7 * i})
        Entry.objects.create(tournament=t, player=player)
    stage = stage_create(tournament=t, actor=actor, format="table_rounds", rounds=4, hands_per_table=4)
    stage_start(stage=stage, actor=actor, random_seed=2026)

    def play(match: Match, hands: int) -> None:
        for _index in range(hands):
            match.refresh_from_db()
            seats = int(match.state.get("players", 4))
            seed = _seed(t.name, match.round.number, match.position, match.hands_played)
            first_bidder = (match.hands_played + int(match.state.get("first", 0))) % seats
            hand = Hand(HandConfig(t.variant, dict(t.options or {}), decks=t.decks, players=seats,
                                   first_bidder=first_bidder), rng=random.Random(seed))
            outcome = _bots_play(hand, _bots(_seed(t.name, match.round.number, match.position, "bots"), seats))
            table_hand_record(match_id=match.pk, outcome=outcome, version=match.version, actor=actor)

    for match in Match.objects.filter(stage=stage, round__number=1):
        play(match, 4)
    table_round_draw(stage=stage, actor=actor)
    play(Match.objects.filter(stage=stage, round__number=2).earliest("position"), 2)


def _swiss_qualifier(organizer: Any, teams: list[Team]) -> None:
    """A Swiss qualifier (3 rounds, 8 teams) into a knockout of the top 4: round 1 played, round 2 paired."""

    if Tournament.objects.filter(name=DEMO_SWISS).exists():
        return
    actor = Actor(organizer, "system")
    t = Tournament.objects.create(name=DEMO_SWISS, variant="tractor", owner=organizer, venue="上海 · 静安俱乐部")
    for team in teams[:8]:
        Entry.objects.create(tournament=t, team=team)
    swiss = stage_create(tournament=t, actor=actor, format="swiss", rounds=3, qualifiers=4,
                         tiebreaks_order=["match_wins", "level_difference", "buchholz"])
    stage_create(tournament=t, actor=actor, format="single_elimination", source_stage=swiss, name="Knockout")
    stage_start(stage=swiss, actor=actor, random_seed=8)
    for match in Match.objects.filter(stage=swiss, round__number=1).order_by("position"):
        _play(match, actor)
    swiss_next_round(stage=swiss, actor=actor)
    _play(Match.objects.filter(stage=swiss, round__number=2).earliest("position"), actor, hands=2)


@transaction.atomic
def load_demo() -> dict[str, int]:
    """Create the demo once; a second run finds it and changes nothing."""
    User = get_user_model()
    organizer, created = User.objects.get_or_create(username=DEMO_ORGANIZER, defaults={"is_staff": False})
    if created:
        organizer.set_unusable_password()
        organizer.save()
    teams = _players_and_teams()
    if not Tournament.objects.filter(name=DEMO_TOURNAMENT).exists():
        tournament = Tournament.objects.create(name=DEMO_TOURNAMENT, variant="tractor", owner=organizer,
                                               venue="北京 · 朝阳区活动中心", is_public=True)
        for team in teams:
            Entry.objects.create(tournament=tournament, team=team)
        actor = Actor(organizer, "system")
        tournament_start(tournament=tournament, actor=actor, seeding="rating", third_place=True)
        first_round = list(Match.objects.filter(stage__tournament=tournament, round__number=1).order_by("position"))
        # Round 1: seven matches played to the end, one in play; round 2: two finished, one in play.
        for match in first_round[:7]:
            _play(match, actor)
        _play(first_round[7], actor, hands=3)
        second_round = list(Match.objects.filter(stage__tournament=tournament, round__number=2).order_by("position"))
        for match in second_round[:2]:
            _play(match, actor)
        _play(second_round[2], actor, hands=2)
    _red_five_event(organizer)
    _swiss_qualifier(organizer, teams)
    tournament = Tournament.objects.get(name=DEMO_TOURNAMENT)
    return {
        "players": Player.objects.count(),
        "teams": Team.objects.count(),
        "tournaments": Tournament.objects.count(),
        "matches finished": Match.objects.filter(stage__tournament=tournament, status=Match.Status.FINISHED).count(),
        "matches in play": Match.objects.filter(stage__tournament=tournament, status=Match.Status.PLAYING).count(),
    }
