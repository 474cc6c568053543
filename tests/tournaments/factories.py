"""Factories and builders for tournament tests (factory_boy), all through the services where it matters."""

from __future__ import annotations

from typing import Any, cast

import factory
from django.contrib.auth import get_user_model

from tournaments.models import Match, Player, Team, Tournament
from tournaments.services import Actor, hand_record
from tournaments.services.setup import entry_add, tournament_create
from tournaments.services.stages import tournament_start

# Quick figures (tractor): the dealer side shuts the attackers out → +3 levels for the dealer side.
SHUTOUT = {"attackers_points": 0, "kitty_points": 0, "last_trick": {"winner": "dealer", "largest": 1}}
# The attackers score 85: they take the deal over, no level change.
TAKEOVER = {"attackers_points": 85, "kitty_points": 0, "last_trick": {"winner": "dealer", "largest": 1}}


class UserFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = get_user_model()
        django_get_or_create = ("username",)

    username = factory.Sequence(lambda n: f"user{n}")
    password = factory.django.Password("pw-for-tests-123")


class PlayerFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Player

    name = factory.Sequence(lambda n: f"选手{n} Player{n}")
    club = "测试俱乐部"
    rating = factory.Sequence(lambda n: 2000 - n)


class TeamFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Team

    name = factory.Sequence(lambda n: f"队伍{n} Team{n}")
    player1 = factory.SubFactory(PlayerFactory)
    player2 = factory.SubFactory(PlayerFactory)
    rating = factory.Sequence(lambda n: 1900 - n)


def make_tournament(*, owner: Any = None, teams: int = 4, variant: str = "tractor", start: bool = True,
                    seeding: str = "manual", third_place: bool = False, **kwargs: Any) -> Tournament:
    owner = owner or UserFactory()
    tournament = tournament_create(owner=owner, name=kwargs.pop("name", "测试赛 Test Cup"), variant=variant, **kwargs)
    actor = Actor(owner)
    for seed in range(1, teams + 1):
        entry_add(tournament=tournament, actor=actor, team=cast(Team, TeamFactory()), seed=seed)
    if start:
        tournament_start(tournament=tournament, actor=actor, seeding=seeding, third_place=third_place)
    tournament.refresh_from_db()
    return tournament


def play_hand(match: Match, outcome: dict[str, Any], actor: Actor, dealer: int | None = None) -> Any:
    match.refresh_from_db()
    if match.hands_played == 0 and dealer is None:
        dealer = 0
    return hand_record(match_id=match.pk, outcome=outcome, version=match.version, actor=actor, dealer=dealer)


def win_match(match: Match, side: int, actor: Actor) -> Match:
    """Side ``side`` deals first and shuts the attackers out until it passes J (2→5→8→J→won)."""
    for index in range(4):
        play_hand(match, SHUTOUT, actor, dealer=side if index == 0 else None)
    match.refresh_from_db()
    assert match.status == Match.Status.FINISHED and match.winner_side == side, match.state
    return match
