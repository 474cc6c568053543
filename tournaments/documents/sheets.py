"""Score sheets: one per match of a round (with the table's QR link), and blank sheets."""

from __future__ import annotations

import base64
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

from django.utils.text import capfirst
from django.utils.translation import gettext as _

from scoring.rules import (
    PartnershipRules,
    RedFiveRules,
    ScoringRules,
    YongzhouRules,
)
from tournaments import selectors
from tournaments.documents.base import (
    GRID_WIDTH_MM,
    INDIVIDUAL_DEFAULT_HANDS,
    Column,
    Document,
    header_rows,
    qr_data_uri,
    round_tables,
    rules_of,
    signed,
    table_link_path,
    trump_label,
    yes_no,
)
from tournaments.labels import partners_note, seat_label, seat_player, seat_short
from tournaments.models import (
    HandRecord,
    Match,
    Round,
    Stage,
    Tournament,
    Variant,
)
from tournaments.rulebook import rule_book


@dataclass
class Sheet:
    """One table's score sheet (or a blank one)."""

    variant: str
    rules: ScoringRules
    columns: list[Column]
    rows: list[list[Any]]
    seats: list[dict[str, Any]]
    sides: list[dict[str, Any]] = field(default_factory=list)
    match: Match | None = None
    round_name: str = ""
    table: int | None = None
    link: str = ""
    qr: str = ""
    signatures: list[str] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    blank_rows: int = 0
    """Rows for hands still to play, drawn as one ruled image (a table cell each is slow to lay out)."""
    row_mm: float = 7.2

    @property
    def widths(self) -> list[float]:
        """Column widths in per cent of the table."""
        total = sum(c.weight for c in self.columns)
        return [round(100 * c.weight / total, 3) for c in self.columns]

    @property
    def grid_height(self) -> float:
        return round(self.blank_rows * self.row_mm, 2)

    @property
    def grid(self) -> str:
        """The blank rows as an SVG data URI: ruled lines at the column edges and the hand numbers."""
        width, height, row = GRID_WIDTH_MM, self.grid_height, self.row_mm
        parts = [f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {width} {height}" '
                 f'width="{width}mm" height="{height}mm" preserveAspectRatio="none">'
                 '<g stroke="#000" stroke-width="0.21">']
        x = 0.0
        for percent in self.widths[:-1]:
            x += width * percent / 100
            parts.append(f'<line x1="{x:.2f}" y1="0" x2="{x:.2f}" y2="{height}"/>')
        for index in range(1, self.blank_rows):
            parts.append(f'<line x1="0" y1="{index * row:.2f}" x2="{width}" y2="{index * row:.2f}"/>')
        parts.append('</g><g font-size="3.4" text-anchor="middle" font-family="Noto Sans CJK SC, DejaVu Sans, sans-serif">')
        first = len(self.rows) + 1
        centre = width * self.widths[0] / 200
        for index in range(self.blank_rows):
            parts.append(f'<text x="{centre:.2f}" y="{index * row + row / 2 + 1.2:.2f}">{first + index}</text>')
        parts.append("</g></svg>")
        return "data:image/svg+xml;base64," + base64.b64encode("".join(parts).encode()).decode("ascii")

    @property
    def variant_label(self) -> str:
        return str(Variant(self.variant).label)

    @property
    def head(self) -> tuple[list[dict[str, Any]], list[Column]]:
        return header_rows(self.columns)


def side_name(match: Match, side: int, missing: str = "") -> str:
    """The name of the entry on ``side`` of ``match``, or ``missing`` while it has none."""
    entry = match.entry(side)
    return entry.name if entry else missing


def seats_of(match: Match, players: int) -> list[dict[str, Any]]:
    """The seats of a table in play order with names and sides (partnership: side = seat mod 2)."""
    if match.entry0_id or match.entry1_id or match.stage.tournament.is_partnership:
        names = selectors.seat_names(match)
        return [{"number": seat, "name": names[seat], "side": seat % 2,
                 "team": side_name(match, seat % 2)} for seat in range(4)]
    by_seat = {s.seat: s.entry for s in match.seats.all()}
    count = int((match.state or {}).get("players") or 0) or (max(by_seat) + 1 if by_seat else players)
    return [{"number": seat, "name": by_seat[seat].name if seat in by_seat else "—", "side": None, "team": ""}
            for seat in range(count)]


def sheet_columns(rules: ScoringRules, seat_labels: Sequence[str], side_labels: Sequence[str]) -> list[Column]:
    """What the scorer fills per hand for this variant (RULES.md §7), then the results after the hand."""
    cols = [Column("number", "#", weight=0.55)]
    if isinstance(rules, PartnershipRules):
        cols += [Column("dealer", _("Dealer seat")), Column("trump", _("Trump"), numeric=False),
                 Column("attackers_points", _("Attackers' points")), Column("kitty_points", _("Kitty points")),
                 Column("last_winner", _("won by (D/A)"), group=_("Last trick"), numeric=False),
                 Column("last_largest", _("largest"), group=_("Last trick"))]
        if rules.throw_penalties:
            cols.append(Column("throw_penalties", _("Throw penalties")))
        if rules.a_pass_conditions:
            cols += [Column("a_first", _("first"), group=_("A by dealer side (at A)"), numeric=False),
                     Column("a_last", _("last"), group=_("A by dealer side (at A)"), numeric=False)]
        cols += [Column(f"level_{side}", label, group=_("Levels after")) for side, label in enumerate(side_labels)]
    elif isinstance(rules, RedFiveRules):
        cols += [Column("dealer", _("Dealer seat")), Column("bid", _("Bid")), Column("trump", _("Trump"), numeric=False),
                 Column("dealer_points", _("Dealer's points")), Column("kitty_points", _("Kitty points")),
                 Column("dealer_last", _("Dealer won last trick"), numeric=False),
                 Column("red_fives", _("Red fives (by → from)"), numeric=False, weight=2.2)]
        cols += [Column(f"gp_{seat}", label, group=_("Game points")) for seat, label in enumerate(seat_labels)]
    elif isinstance(rules, YongzhouRules):
        cols += [Column(f"points_{seat}", label, group=_("Points (sum 300)")) for seat, label in enumerate(seat_labels)]
        cols.append(Column("declarer", _("Declarer")))
        cols += [Column(f"net_{seat}", label, group=_("Net")) for seat, label in enumerate(seat_labels)]
    cols.append(Column("initials", _("Initials"), numeric=False, weight=1.6))
    return cols


def hand_values(hand: HandRecord, rules: ScoringRules, tournament: Any = None) -> dict[str, Any]:
    """A recorded hand's figures by column key; seats as people read them (``1``–``4``, or the winds'
    letters for ``tournament`` naming seats by them), never the stored 0-based numbers."""
    outcome, result = hand.outcome or {}, hand.result or {}

    def seat_text(value: Any) -> str:
        return "" if value is None or value == "" else seat_short(tournament, value)

    values: dict[str, Any] = {"number": hand.number}
    if isinstance(rules, PartnershipRules):
        last = outcome.get("last_trick") or {}
        levels = (result.get("state") or {}).get("levels") or ["", ""]
        values.update(dealer=seat_text(hand.dealer), trump=trump_label(hand.trump),
                      attackers_points=outcome.get("attackers_points", ""), kitty_points=outcome.get("kitty_points", ""),
                      last_winner={"dealer": "D", "attackers": "A"}.get(last.get("winner", ""), ""),
                      last_largest=last.get("largest") or "", throw_penalties=outcome.get("throw_penalties", ""),
                      a_first=yes_no(outcome.get("a_first_trick")), a_last=yes_no(outcome.get("a_last_trick")),
                      level_0=levels[0], level_1=levels[1])
    elif isinstance(rules, RedFiveRules):
        values.update(dealer=seat_text(outcome.get("dealer", hand.dealer)), bid=outcome.get("bid", ""),
                      trump=trump_label(outcome.get("trump", "")),
                      dealer_points=outcome.get("dealer_points", ""), kitty_points=outcome.get("kitty_points", ""),
                      dealer_last=yes_no(outcome.get("dealer_won_last_trick")),
                      red_fives=", ".join(f"{seat_text(c.get('won_by'))}→{seat_text(c.get('played_by'))}"
                                          for c in outcome.get("red_fives", [])))
        for number, value in enumerate(result.get("game_points") or []):
            values[f"gp_{number}"] = signed(value)
    elif isinstance(rules, YongzhouRules):
        for number, value in enumerate(outcome.get("points") or []):
            values[f"points_{number}"] = value
        for number, value in enumerate(result.get("net") or []):
            values[f"net_{number}"] = signed(value)
        values["declarer"] = seat_text(outcome.get("declarer"))
    return values


def sheet_rows(columns: Sequence[Column], hands: Iterable[HandRecord], rules: ScoringRules,
               tournament: Any = None) -> list[list[Any]]:
    """The recorded hands, one row of figures each."""
    return [[values.get(c.key, "") for c in columns] for values in (hand_values(h, rules, tournament) for h in hands)]


def hand_rows_for(rules: ScoringRules, stage: Stage | None) -> int:
    """How many hand rows a sheet has: the hand limit or the stage's hands per table, else a page full."""
    if isinstance(rules, PartnershipRules) and rules.hand_limit:
        return rules.hand_limit
    if stage is not None and stage.hands_per_table:
        return stage.hands_per_table
    return 20 if isinstance(rules, PartnershipRules) else INDIVIDUAL_DEFAULT_HANDS


def table_rules(match: Match, rules: ScoringRules) -> ScoringRules:
    """A Yongzhou table may seat 3 even when the event plays 4 to a table: its own rule set then."""
    if not isinstance(rules, YongzhouRules):
        return rules
    players = len(seats_of(match, rules.players))
    if players == rules.players:
        return rules
    return rule_book(match.stage.tournament, players=players)


def sheet_for(match: Match, rules: ScoringRules, base_url: str) -> Sheet:
    rules = table_rules(match, rules)
    seats = seats_of(match, rules.players)
    sides: list[dict[str, Any]] = []
    if isinstance(rules, PartnershipRules):
        for side in (0, 1):
            entry = match.entry(side)
            sides.append({"number": side, "name": entry.name if entry else "—",
                          "seats": [s for s in seats if s["side"] == side]})
        side_labels = [s["name"] for s in sides]
        signatures = [s["name"] for s in sides]
    else:
        side_labels = []
        signatures = [seat_player(match.stage.tournament, s["number"], s["name"]) for s in seats]
    seat_labels = [f"{seat_short(match.stage.tournament, s['number'])} {s['name']}" for s in seats]
    columns = sheet_columns(rules, seat_labels, side_labels)
    link = base_url + table_link_path(match.scorer_token)
    rows = sheet_rows(columns, match.hands.all(), rules, match.stage.tournament)
    return Sheet(variant=rules.variant, rules=rules, columns=columns,
                 rows=rows,
                 blank_rows=max(hand_rows_for(rules, match.stage) - len(rows), 2), seats=seats, sides=sides, match=match, round_name=selectors.round_label(match.round.name)
                 if match.round.name else str(match.round), table=match.table, link=link, qr=qr_data_uri(link),
                 signatures=[*signatures, _("Umpire")], notes=sheet_notes(rules, match))


def blank_sheet(rules: ScoringRules, stage: Stage | None = None) -> Sheet:
    seats = [{"number": seat, "name": "", "side": seat % 2 if isinstance(rules, PartnershipRules) else None,
              "team": ""} for seat in range(rules.players)]
    sides = ([{"number": side, "name": "", "seats": [s for s in seats if s["side"] == side]} for side in (0, 1)]
             if isinstance(rules, PartnershipRules) else [])
    side_labels = [_("Side %(n)s") % {"n": side + 1} for side in (0, 1)] if sides else []
    seat_labels = [seat_short(None, seat) for seat in range(rules.players)]
    columns = sheet_columns(rules, seat_labels, side_labels)
    signatures = side_labels or [capfirst(seat_label(None, s)) for s in range(rules.players)]
    return Sheet(variant=rules.variant, rules=rules, columns=columns,
                 rows=[], blank_rows=hand_rows_for(rules, stage), seats=seats, sides=sides,
                 signatures=[*signatures, _("Umpire")], notes=sheet_notes(rules, None))


def sheet_notes(rules: ScoringRules, match: Match | None) -> list[str]:
    notes = [_("Points are multiples of 5; the kitty holds at most %(k)s.") % {"k": rules.kitty_max_points}
             if rules.kitty_max_points else _("Points are multiples of 5.")]
    if isinstance(rules, PartnershipRules):
        notes.append(partners_note(match.stage.tournament if match else None, rules.target_level))
        notes.append(_("Last trick: D = dealer side, A = attackers; largest = cards in its largest component."))
    elif isinstance(rules, YongzhouRules):
        notes.append(_("The players' points must sum to %(n)s.") % {"n": rules.total_points})
    return notes


class ScoreSheetsDocument(Document):
    """One page per table: seats and sides, one row per hand with this variant's columns, the levels
    after each hand, signature boxes and a QR code of the table's hand-entry link."""

    kind = "score-sheets"
    template_name = "tournaments/print/score_sheets.html"
    title_zh = "记分表"
    organizer_only = True

    def __init__(self, *, tournament: Tournament, matches: Sequence[Match] | None = None, round: Round | None = None,
                 **kwargs: Any) -> None:
        super().__init__(tournament=tournament, **kwargs)
        self.round = round
        self.matches = list(matches) if matches is not None else round_tables(round) if round else []
        self.rules = rules_of(tournament)

    @property
    def title(self) -> str:
        if len(self.matches) == 1 and not self.round:
            m = self.matches[0]
            return _("Score sheet, table %(t)s") % {"t": m.table} if m.table else _("Score sheet %(k)s") % {"k": m.key}
        if self.round:
            return _("Score sheets, %(r)s") % {"r": selectors.round_label(self.round.name) or str(self.round)}
        return _("Score sheets")

    def filename_detail(self) -> str:
        if self.round is not None:
            stage = f"stage {self.round.stage.number} " if self.round.stage.number > 1 else ""
            return f"{stage}round {self.round.number}"
        return self.matches[0].key if len(self.matches) == 1 else ""

    def units(self) -> list[Any]:
        return list(self.matches)

    def get_context(self, units: Sequence[Any] | None = None) -> dict[str, Any]:
        matches = self.matches if units is None else units
        return {"sheets": [sheet_for(m, self.rules, self.base_url) for m in matches]}


class BlankSheetsDocument(Document):
    """Score sheets without names for walk-in games: the variant's columns, seats 0..N−1."""

    kind = "blank-sheets"
    template_name = "tournaments/print/score_sheets.html"
    title_zh = "空白记分表"

    def __init__(self, *, tournament: Tournament | None = None, variant: str | None = None, players: int | None = None,
                 count: int = 1, **kwargs: Any) -> None:
        super().__init__(tournament=tournament, **kwargs)
        self.rules = rules_of(tournament, variant, players)
        self.count = max(1, min(int(count), 200))

    @property
    def title(self) -> str:
        return _("Blank score sheet")

    def units(self) -> list[Any]:
        return list(range(self.count))

    def get_context(self, units: Sequence[Any] | None = None) -> dict[str, Any]:
        n = self.count if units is None else len(units)
        sheet = blank_sheet(self.rules)
        return {"sheets": [sheet] * n, "variant_label": Variant(self.rules.variant).label}
