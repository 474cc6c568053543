"""Demo data for a new installation. Idempotent: loading twice leaves the same data.

A running 16-team ``tractor`` elimination ("first past J"), seeded by rating: round 1 complete
but for one match in play, two round-2 matches finished, one in progress.
"""

from __future__ import annotations

from typing import Any

from django.contrib.auth import get_user_model
from django.db import transaction

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

# Figures for a quick hand: the dealer side shuts the attackers out (+3 levels).
SHUTOUT = {"attackers_points": 0, "kitty_points": 0, "last_trick": {"winner": "dealer", "largest": 1}}
# The attackers take over with 85 points (no level change): the deal passes.
TAKEOVER = {"attackers_points": 85, "kitty_points": 0, "last_trick": {"winner": "dealer", "largest": 1}}
MODEST = {"attackers_points": 45, "kitty_points": 5, "last_trick": {"winner": "dealer", "largest": 1}}


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


def _play(match: Match, actor: Actor, hands: list[dict[str, Any]], first_dealer: int) -> None:
    for index, outcome in enumerate(hands):
        match.refresh_from_db()
        if match.status == Match.Status.FINISHED:
            return
        hand_record(match_id=match.pk, outcome=outcome, version=match.version, actor=actor,
                    dealer=first_dealer if index == 0 else None, trump="SHCD"[index % 4])


DEMO_RED_FIVE = "红五个人赛 · Red Five Night"
DEMO_SWISS = "瑞士制资格赛 · Swiss Qualifier Cup"
RED_FIVE_NAMES = ["周杰", "吴敏", "郑爽", "冯涛", "陈晨", "褚红", "卫东", "蒋丽", "沈阳", "韩梅", "杨柳", "朱琳",
                  "Emma Li", "Lucas 卢"]
RED_FIVE_HAND = {"dealer": 0, "bid": 120, "trump": "S", "dealer_points": 130, "kitty_points": 10,
                 "dealer_won_last_trick": True, "red_fives": []}


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
        for index in range(hands):
            match.refresh_from_db()
            seats = int(match.state.get("players", 4))
            table_hand_record(match_id=match.pk, outcome={**RED_FIVE_HAND, "dealer": (index + match.state.get("first", 0)) % seats},
                              version=match.version, actor=actor)

    for match in Match.objects.filter(stage=stage, round__number=1):
        play(match, 4)
    table_round_draw(stage=stage, actor=actor)
    play(Match.objects.filter(stage=stage, round__number=2).order_by("position").first(), 2)


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
    for i, match in enumerate(Match.objects.filter(stage=swiss, round__number=1).order_by("position")):
        _play(match, actor, [SHUTOUT] * 5, first_dealer=i % 2)
    swiss_next_round(stage=swiss, actor=actor)
    _play(Match.objects.filter(stage=swiss, round__number=2).order_by("position").first(), actor, [MODEST, TAKEOVER],
          first_dealer=0)


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
        # Round 1: seven matches finished (side 0 wins four in a row from 2: 2→5→8→J→won), one in play.
        for i, match in enumerate(first_round[:7]):
            winner_side = 0 if i % 3 else 1
            _play(match, actor, [SHUTOUT] * 5, first_dealer=winner_side)
        _play(first_round[7], actor, [MODEST, TAKEOVER, MODEST], first_dealer=0)
        second_round = list(Match.objects.filter(stage__tournament=tournament, round__number=2).order_by("position"))
        for match in second_round[:2]:
            _play(match, actor, [TAKEOVER, SHUTOUT, SHUTOUT, SHUTOUT, SHUTOUT, SHUTOUT], first_dealer=1)
        _play(second_round[2], actor, [MODEST, MODEST], first_dealer=0)
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
