"""Settling a hand of ``red-five`` (红五, one dealer against three; RULES.md §5.3, §6.3).

>>> from scoring.rules import scoring_rules
>>> rules = scoring_rules("red-five", decks=2)
>>> outcome = RedFiveOutcome(dealer=0, bid=120, trump="C", dealer_points=100, kitty_points=20,
...                          dealer_won_last_trick=True, red_fives=(RedFiveCapture(played_by=0, won_by=1),))
>>> result = settle_red_five(rules, outcome)
>>> result.dealer_final, result.game_points
(-20, (-8, 4, 2, 2))
"""

from __future__ import annotations

from dataclasses import dataclass

from scoring.cards import normalize_suit
from scoring.errors import Problems
from scoring.rules import GamePointLookup, RedFiveRules


@dataclass(frozen=True)
class RedFiveCapture:
    """One captured ♥5: the seat that played it and the seat that won the trick."""

    played_by: int
    won_by: int


@dataclass(frozen=True)
class RedFiveOutcome:
    """What the scorer enters for one red-five hand (§7 table).

    ``dealer_points``: points in the tricks the dealer won (without the kitty);
    ``kitty_points``: points buried in the kitty (they count for the dealer only if the dealer won
    the last trick); ``red_fives``: every captured ♥5 (at most one per deck).
    """

    dealer: int
    bid: int
    trump: str
    dealer_points: int
    kitty_points: int
    dealer_won_last_trick: bool
    red_fives: tuple[RedFiveCapture, ...] = ()


@dataclass(frozen=True)
class RedFiveResult:
    """``dealer_final`` and each seat's ``game_points`` (they sum to zero), with the details."""

    dealer_final: int
    game_points: tuple[int, ...]
    dealer: int
    kitty_counted: int
    """Kitty points counted for the dealer (0 unless the dealer won the last trick)."""
    captured_by_dealer: int
    captured_by_defenders: int
    red_five_adjustment: int
    """Points added to the dealer's final for red fives: +capture points per defender ♥5 the dealer
    won, −capture points per dealer ♥5 a defender won."""
    band: GamePointLookup
    transfers: tuple[tuple[int, int, int], ...]
    """Red-five game-point transfers as (payer seat, payee seat, game points)."""


def _is_int(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _check_contract(problems: Problems, rules: RedFiveRules, outcome: RedFiveOutcome) -> bool:
    """The dealer, the bid, the trump suit and the last trick's flag; whether the dealer is a seat."""
    seats = rules.players
    dealer_ok = False
    if not _is_int(outcome.dealer):
        problems.add("outcome.dealer", "type_int")
    elif not 0 <= outcome.dealer < seats:
        problems.add("outcome.dealer", "range", low=0, high=seats - 1, value=outcome.dealer)
    else:
        dealer_ok = True
    low, high = rules.bid_range
    if not _is_int(outcome.bid):
        problems.add("outcome.bid", "type_int")
    elif outcome.bid % 5:
        problems.add("outcome.bid", "multiple_of_5", value=outcome.bid)
    elif not low <= outcome.bid <= high:
        problems.add("outcome.bid", "bid_range", low=low, high=high, decks=rules.decks, value=outcome.bid)
    if not isinstance(outcome.trump, str):
        problems.add("outcome.trump", "type_str")
    elif normalize_suit(outcome.trump) is None:
        problems.add("outcome.trump", "trump_suit", value=outcome.trump)
    if not isinstance(outcome.dealer_won_last_trick, bool):
        problems.add("outcome.dealer_won_last_trick", "type_bool")
    return dealer_ok


def _check_points(problems: Problems, rules: RedFiveRules, outcome: RedFiveOutcome) -> bool:
    """The dealer's and the kitty's points (multiples of 5, in range, together not over the deck's
    total); whether both are usable for the checks against the red fives."""
    total = rules.total_points
    points_ok = kitty_ok = False
    for name, high_points, code in (
        ("dealer_points", total, "points_range"),
        ("kitty_points", rules.kitty_max_points, "kitty_capacity"),
    ):
        value = getattr(outcome, name)
        path = f"outcome.{name}"
        if not _is_int(value):
            problems.add(path, "type_int")
        elif value % 5:
            problems.add(path, "multiple_of_5", value=value)
        elif not 0 <= value <= high_points:
            problems.add(path, code, high=high_points, value=value, cards=rules.kitty_cards)
        elif name == "dealer_points":
            points_ok = True
        else:
            kitty_ok = True
    if points_ok and kitty_ok and outcome.dealer_points + outcome.kitty_points > total:
        problems.add(
            "outcome.dealer_points",
            "points_over_total",
            a=outcome.dealer_points,
            b=outcome.kitty_points,
            sum=outcome.dealer_points + outcome.kitty_points,
            total=total,
        )
    return points_ok and kitty_ok


def _check_red_fives(problems: Problems, rules: RedFiveRules, outcome: RedFiveOutcome,
                     dealer_ok: bool) -> tuple[int, int]:
    """Each captured red five (seats in range, one of the dealer and a defender on each side of it);
    how many the dealer won and how many the defenders won. ``outcome.red_fives`` is a list."""
    seats = rules.players
    captures = outcome.red_fives
    if len(captures) > rules.decks:
        problems.add("outcome.red_fives", "red_five_count", decks=rules.decks, value=len(captures))
    by_dealer = by_defenders = 0
    for index, capture in enumerate(captures):
        path = f"outcome.red_fives.{index}"
        seats_ok = True
        for name in ("played_by", "won_by"):
            value = getattr(capture, name)
            if not _is_int(value):
                problems.add(f"{path}.{name}", "type_int")
                seats_ok = False
            elif not 0 <= value < seats:
                problems.add(f"{path}.{name}", "range", low=0, high=seats - 1, value=value)
                seats_ok = False
        if not (seats_ok and dealer_ok):
            continue
        dealer_played = capture.played_by == outcome.dealer
        dealer_won = capture.won_by == outcome.dealer
        if dealer_played == dealer_won:
            problems.add(
                path,
                "red_five_cross",
                dealer=outcome.dealer,
                played_by=capture.played_by,
                won_by=capture.won_by,
            )
        elif dealer_won:
            by_dealer += 1
        else:
            by_defenders += 1
    return by_dealer, by_defenders


def _check_points_against_fives(problems: Problems, rules: RedFiveRules, outcome: RedFiveOutcome,
                                by_dealer: int, by_defenders: int) -> None:
    """The dealer's points hold the red fives it won (5 each) and leave room for the defenders' ones."""
    total = rules.total_points
    if outcome.dealer_points < 5 * by_dealer:
        problems.add(
            "outcome.dealer_points",
            "red_five_dealer_low",
            n=by_dealer,
            low=5 * by_dealer,
            value=outcome.dealer_points,
        )
    highest = total - outcome.kitty_points - 5 * by_defenders
    if outcome.dealer_points > highest:
        problems.add(
            "outcome.dealer_points",
            "red_five_dealer_high",
            n=by_defenders,
            kitty=outcome.kitty_points,
            high=highest,
            value=outcome.dealer_points,
        )


def validate_red_five(rules: RedFiveRules, outcome: RedFiveOutcome, lang: str = "en") -> None:
    """Raise ``ScoringInputError`` naming every wrong field of ``outcome``."""
    problems = Problems()
    dealer_ok = _check_contract(problems, rules, outcome)
    points_ok = _check_points(problems, rules, outcome)
    if not isinstance(outcome.red_fives, (tuple, list)):
        problems.add("outcome.red_fives", "type_list")
        problems.raise_if_any(lang)
    by_dealer, by_defenders = _check_red_fives(problems, rules, outcome, dealer_ok)
    if points_ok and not problems.has("outcome.red_fives"):
        _check_points_against_fives(problems, rules, outcome, by_dealer, by_defenders)
    problems.raise_if_any(lang)


def settle_red_five(rules: RedFiveRules, outcome: RedFiveOutcome, *, lang: str = "en") -> RedFiveResult:
    """Settle one hand: the dealer's final and every seat's game points. Pure; validates first."""
    validate_red_five(rules, outcome, lang)
    dealer = outcome.dealer
    kitty = outcome.kitty_points if outcome.dealer_won_last_trick else 0
    by_dealer = sum(1 for capture in outcome.red_fives if capture.won_by == dealer)
    by_defenders = len(outcome.red_fives) - by_dealer
    adjustment = rules.red_five_capture_points * (by_dealer - by_defenders)
    final = outcome.dealer_points + kitty + adjustment - outcome.bid
    band = rules.game_point_table.lookup(final)
    points = [band.each_defender] * rules.players
    points[dealer] = band.dealer
    transfers: list[tuple[int, int, int]] = []
    amount = rules.red_five_capture_game_points
    for capture in outcome.red_fives:
        payer = capture.played_by  # the side whose ♥5 was captured pays the capturer's side
        payee = capture.won_by
        points[payer] -= amount
        points[payee] += amount
        transfers.append((payer, payee, amount))
    return RedFiveResult(
        dealer_final=final,
        game_points=tuple(points),
        dealer=dealer,
        kitty_counted=kitty,
        captured_by_dealer=by_dealer,
        captured_by_defenders=by_defenders,
        red_five_adjustment=adjustment,
        band=band,
        transfers=tuple(transfers),
    )
