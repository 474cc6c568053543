"""Labels of stored codes in the visitor's language (no model import, so models can use them).

Seats and sides are stored 0-based (the API keeps them so); people see them the way players say
them: seats 1–4 or the four winds (chosen per tournament), sides by their team names. Every page,
printed sheet and message names a seat through :func:`seat_label` and a side through
:func:`side_label` (in templates: ``{{ seat|seat_label:tournament }}``, ``{{ side|side_label:match }}``);
a seat with the player in it reads :func:`seat_player` everywhere: ``Seat 1 · Zhang Wei`` /
``1号座位 · 张伟``, or ``East · Zhang Wei`` / ``东家 · 张伟`` (by the player, never by the team: the two
seats of a team are told apart). The engine's own messages count seats 1–4 the same way
(:mod:`variants.seats`).
"""

from __future__ import annotations

from typing import Any

from django.utils.text import capfirst
from django.utils.translation import gettext as _
from django.utils.translation import pgettext

from config.i18n import core_lang
from tournaments.formats.brackets import round_name

SEAT_NUMBERS = "numbers"
SEAT_COMPASS = "compass"


def round_label(name: str) -> str:
    """A stored round name ``code:number`` (``final:0``, ``round-of:16``) in the active language;
    other names (Swiss "Round 3") are shown as they are."""
    code, _sep, number = name.partition(":")
    if code == "round" and number.isdigit():
        return _("Round %(n)s") % {"n": number}
    try:
        return round_name(code, int(number or 0), core_lang())
    except (KeyError, ValueError):
        return name


def _winds() -> tuple[str, ...]:
    # The winds in play order (counter-clockwise, as at a mahjong table): 东 南 西 北.
    return (pgettext("seat", "East"), pgettext("seat", "South"), pgettext("seat", "West"),
            pgettext("seat", "North"))


def seat_naming(tournament: Any) -> str:
    """``"numbers"`` or ``"compass"``: how ``tournament`` (a Tournament, or None) names its seats."""
    return getattr(tournament, "seat_names", None) or SEAT_NUMBERS


def seat_label(tournament: Any, seat: Any) -> str:
    """A 0-based ``seat`` as players say it, as a noun phrase for the middle of a sentence:
    ``seat 1`` … ``seat 4`` (``1号位``), or ``East`` … ``North`` (``东家`` …) for a tournament that
    names seats by the winds. ``None``/empty gives ``—``; a seat beyond the four winds keeps its number."""
    if seat is None or seat == "":
        return "—"
    try:
        number = int(seat)
    except (TypeError, ValueError):
        return str(seat)
    winds = _winds()
    if seat_naming(tournament) == SEAT_COMPASS and 0 <= number < len(winds):
        return winds[number]
    return _("seat %(n)s") % {"n": number + 1}


def seat_short(tournament: Any, seat: Any) -> str:
    """The seat's short mark for narrow columns: ``1`` … ``4``, or ``E``/``S``/``W``/``N`` (东南西北)."""
    if seat is None or seat == "":
        return "—"
    number = int(seat)
    if seat_naming(tournament) == SEAT_COMPASS and 0 <= number < 4:
        return (pgettext("seat letter", "E"), pgettext("seat letter", "S"), pgettext("seat letter", "W"),
                pgettext("seat letter", "N"))[number]
    return str(number + 1)


def seat_player(tournament: Any, seat: Any, name: Any = None) -> str:
    """A seat and the player sitting in it, the one way pages, forms and sheets show both:
    ``Seat 1 · Zhang Wei`` (``1号座位 · 张伟``), ``East · Zhang Wei`` (``东家 · 张伟``) for a tournament
    that names seats by the winds; just the seat while nobody is named (``None``, ``""`` or ``—``)."""
    label = capfirst(seat_label(tournament, seat))
    if name is None or str(name).strip() in ("", "—"):
        return label
    return f"{label} · {name}"


def seat_players(tournament: Any, names: Any) -> list[str]:
    """:func:`seat_player` of every seat of ``names`` (the players in seat order)."""
    return [seat_player(tournament, seat, name) for seat, name in enumerate(names)]


def side_label(match: Any, side: Any) -> str:
    """A 0-based ``side`` of ``match`` by its team's (or player's) name; ``side 1``/``side 2`` while
    nobody has the side yet."""
    if side is None or side == "":
        return "—"
    number = int(side)
    entry = match.entry(number) if match is not None and hasattr(match, "entry") else None
    if entry is not None:
        return str(entry.name)
    return _("side %(n)s") % {"n": number + 1}


def partners_note(tournament: Any, target_level: Any) -> str:
    """The score sheet's note on where partners sit (opposite each other) and the target level."""
    a, b, c, d = (seat_label(tournament, seat) for seat in range(4))
    return (_("Partners sit opposite each other: %(a)s with %(c)s, %(b)s with %(d)s. Target level: %(t)s.")
            % {"a": a, "b": b, "c": c, "d": d, "t": target_level})


def hand_saved_message(match: Any, number: int, d: dict[str, Any]) -> str:
    """The flash message after a scorer saves a hand: who won or went up, the levels, who deals next."""
    text = _("Hand %(n)s saved.") % {"n": number}
    if d["winner_entry"] is not None:
        return text + " " + _("%(name)s wins the match!") % {"name": d["winner_entry"].name}
    if d["gaining_entry"] is not None and d["level_gain"]:
        text += " " + _("%(name)s +%(gain)s.") % {"name": d["gaining_entry"].name, "gain": d["level_gain"]}
    tournament = match.stage.tournament
    return text + " " + _("Levels %(a)s : %(b)s; %(seat)s (%(name)s) deals next.") % {
        "a": d["levels"][0], "b": d["levels"][1], "seat": seat_label(tournament, d["next_dealer"]),
        "name": d["next_dealer_name"]}
