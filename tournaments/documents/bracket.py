"""The bracket of an elimination stage, printed: single elimination on one or more pages, double
elimination with its losers' bracket."""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Sequence
from typing import Any

from django.utils.translation import gettext as _

from tournaments import selectors
from tournaments.documents.base import Document, DocumentError
from tournaments.formats import pairing
from tournaments.models import (
    Match,
    Stage,
    Tournament,
)


class BracketDocument(Document):
    """The elimination tree on one landscape page, results so far; the type shrinks with the size."""

    kind = "bracket"
    template_name = "tournaments/print/bracket.html"
    title_zh = "对阵图"

    def __init__(self, *, tournament: Tournament, stage: Stage, **kwargs: Any) -> None:
        super().__init__(tournament=tournament, **kwargs)
        if stage.format not in BRACKET_FORMATS:
            raise DocumentError(_("Only elimination brackets can be printed."))
        self.stage = stage

    @property
    def title(self) -> str:
        return _("Bracket")

    def get_context(self, units: Sequence[Any] | None = None) -> dict[str, Any]:
        """One landscape page up to 64 entries (32 first-round places). Bigger brackets print a page
        per block of 32 first-round places (six rounds each), then a page from there to the final.
        Double elimination: see :meth:`double_context`. Before the draw: :meth:`waiting_context`."""
        if not self.stage.matches.exists():
            return self.waiting_context()
        if self.stage.format == Stage.Format.DOUBLE_ELIMINATION:
            return self.double_context()
        columns = selectors.bracket_tree(self.stage)
        main = [c for c in columns if c["number"]]
        extra = [m for c in columns if not c["number"] for m in c["matches"]]
        slots = 2 ** (len(main) - 1) if main else 0  # first-round places, one table row each
        places = _bracket_places(main)
        if slots <= BRACKET_PAGE_SLOTS:
            pages = [_bracket_page(main, places, 0, 0, slots)]
        else:
            pages = [_bracket_page(main, places, 0, lo, BRACKET_PAGE_SLOTS)
                     for lo in range(0, slots, BRACKET_PAGE_SLOTS)]
            top = BRACKET_PAGE_SLOTS.bit_length() - 1  # the round where a block comes down to one match
            pages.append(_bracket_page(main, places, top, 0, slots // BRACKET_PAGE_SLOTS))
        if pages and pages[-1]["grid"] and extra:  # the third-place match goes under the final
            pages[-1]["grid"][0][-1]["extra"] = [_bracket_box(m) for m in extra]
        return {"stage": self.stage, "pages": pages, "third_place_label": selectors.round_label("third-place")}

    def waiting_context(self) -> dict[str, Any]:
        """A knockout not drawn yet: who has qualified so far from the stage that feeds it (its top
        ``qualifiers`` in the current standings, after the rounds played), else that the bracket is
        drawn when the stage starts."""
        source = self.stage.source_stage
        waiting: dict[str, Any] = {"source": source, "rows": []}
        if source is not None and source.status != Stage.Status.PENDING:
            table = selectors.stage_standings(source)
            count = source.qualifiers or len(table.rows)
            chosen = pairing.qualifiers(table.rows, count, ties="order")
            waiting["rows"] = [{"rank": row.rank, "name": row.name} for row in table.rows
                               if row.entry in chosen.qualified]
            waiting["final"] = source.status == Stage.Status.FINISHED
            waiting["rounds"] = source.rounds.count()
        return {"stage": self.stage, "pages": [], "waiting": waiting}

    def double_context(self) -> dict[str, Any]:
        """The winners' bracket as a tree with the grand final (and its reset unless it was not
        needed) to the right of the winners' final, then the losers' bracket as columns of rounds: on
        the same landscape page up to 16 entries, else on pages of their own (split as above)."""
        columns = selectors.bracket_tree(self.stage)
        sections: dict[str, list[dict[str, Any]]] = {}
        for column in columns:
            sections.setdefault(column["matches"][0].section, []).append(column)
        winners, losers = sections.get("winners", []), sections.get("losers", [])
        finals = [m for c in sections.get("grand_final", []) for m in c["matches"] if m.status != Match.Status.VOID]
        sources = _bracket_sources([m for c in columns for m in c["matches"]])

        def box(match: Match | None) -> dict[str, Any] | None:
            return _bracket_box(match, sources=sources, mark=True)

        slots = 2 ** (len(winners) - 1) if winners else 0
        places = _bracket_places(winners)
        if slots <= BRACKET_PAGE_SLOTS:
            w_parts = [_bracket_page(winners, places, 0, 0, slots, box=box)]
        else:
            w_parts = [_bracket_page(winners, places, 0, lo, BRACKET_PAGE_SLOTS, box=box)
                       for lo in range(0, slots, BRACKET_PAGE_SLOTS)]
            top = BRACKET_PAGE_SLOTS.bit_length() - 1
            w_parts.append(_bracket_page(winners, places, top, 0, slots // BRACKET_PAGE_SLOTS, box=box))
        if finals and w_parts and w_parts[-1]["grid"]:
            last = w_parts[-1]
            for m in finals:
                last["round_names"].append(selectors.round_label(m.round.name))
                note = _("only if needed") if m.key != "GF1" and m.status == Match.Status.PENDING else ""
                last["grid"][0].append({"match": box(m), "span": len(last["grid"]), "note": note, "final": True})
        l_columns = _losers_columns(losers, box, 2 ** len(winners))
        rows = max((c["count"] for c in l_columns), default=0)
        if rows <= BRACKET_PAGE_SLOTS:
            l_parts = [_column_page(l_columns, rows, 0)] if l_columns else []
        else:
            l_parts = [_column_page(l_columns, BRACKET_PAGE_SLOTS, lo) for lo in range(0, rows, BRACKET_PAGE_SLOTS)]
            l_parts.append(_column_page([c for c in l_columns if rows // c["count"] >= BRACKET_PAGE_SLOTS],
                                        rows // BRACKET_PAGE_SLOTS, 0))
        w_title, l_title = _("Winners' bracket"), _("Losers' bracket")
        for part in w_parts:
            part["title"] = w_title
        for part in l_parts:
            part["title"] = l_title
        if len(w_parts) == len(l_parts) == 1 and slots + rows <= DOUBLE_ONE_PAGE_ROWS:
            both = w_parts + l_parts
            font = 10 if slots + rows <= 6 else 8
            for part in both:
                part.update(font_pt=font, compact=False, row_mm=round(min(22.0, 120 / (slots + rows)), 2))
            widest = max(len(part["round_names"]) for part in both)
            for part in both:  # the same column width in both brackets
                part["width_pct"] = round(100 * len(part["round_names"]) / max(widest, 1), 2)
            pages = [{"parts": both, "compact": False}]
        else:
            for part in w_parts + l_parts:
                part["width_pct"] = min(100, 20 * len(part["round_names"]))
            pages = [{"parts": [part], "compact": part["compact"]} for part in w_parts + l_parts]
        return {"stage": self.stage, "pages": pages, "double": True}


BRACKET_PAGE_SLOTS = 32
BRACKET_FORMATS = (Stage.Format.SINGLE_ELIMINATION, Stage.Format.DOUBLE_ELIMINATION)
DOUBLE_ONE_PAGE_ROWS = 12
"""A double-elimination bracket prints on one page while its winners' and losers' rows fit (16 entries)."""


def _bracket_page(main: list[dict[str, Any]], places: dict[int, int], start: int, lo: int,
                  slots: int, box: Callable[[Match | None], dict[str, Any] | None] | None = None) -> dict[str, Any]:
    """Rows of a bracket page: rounds from ``main[start]`` on, the ``slots`` places of that round from
    ``lo``; a match of a later round spans the rows of the matches that feed it."""
    box = box or _bracket_box
    grid: list[list[dict[str, Any]]] = [[] for _ in range(slots)]
    names = []
    for offset, column in enumerate(main[start:]):
        span = 2 ** offset
        if span > slots:
            break
        names.append(column["name"])
        by_place = {places.get(m.pk): m for m in column["matches"]}
        for k in range(slots // span):
            grid[k * span].append({"match": box(by_place.get(lo // span + k)), "span": span})
    font = 10 if slots <= 8 else 8 if slots <= 16 else 5.5
    return {"round_names": names, "grid": grid, "font_pt": font, "compact": slots > 16,
            "row_mm": min(40.0, round(150 / max(slots, 1), 2)) if slots <= 16 else None}


def _bracket_places(columns: list[dict[str, Any]]) -> dict[int, int]:
    """Each match's place from the top within its round, found from the final back along the
    winners' paths (place = 2 × the next match's place + the slot it feeds); byes leave gaps. The
    final is the match whose winner goes on outside these columns (the winners' final of a double
    elimination goes on to the grand final)."""
    ids = {m.pk for column in columns for m in column["matches"]}
    places: dict[int, int] = {}
    for column in reversed(columns):
        for m in column["matches"]:
            if m.next_match_id is None or m.next_match_id not in ids:
                places[m.pk] = 0
            elif m.next_match_id in places:
                places[m.pk] = 2 * places[m.next_match_id] + (m.next_slot or 0)
    return places


def _bracket_box(match: Match | None, sources: dict[tuple[int, int], str] | None = None,
                 mark: bool = False) -> dict[str, Any] | None:
    """A match as printed: both sides (name, seed, level, won). ``sources`` says where an empty
    side's entry comes from ("winner of W1-M2"); ``mark`` puts a ✔ by the winner's name."""
    if match is None:
        return None
    levels = (match.state or {}).get("levels") or [None, None]
    sides = []
    for side in (0, 1):
        entry = match.entry(side)
        sides.append({"name": entry.name if entry else "", "seed": entry.seed if entry else None,
                      "level": levels[side] if match.hands_played else None,
                      "won": match.winner_side == side,
                      "source": (sources or {}).get((match.pk, side), "") if entry is None else ""})
    return {"key": match.key, "table": match.table, "status": match.status, "sides": sides,
            "finished": match.status == Match.Status.FINISHED, "mark": mark}


def _bracket_sources(matches: Iterable[Match]) -> dict[tuple[int, int], str]:
    """(match, slot) → where its entry comes from, along the winners' and the losers' links."""
    sources: dict[tuple[int, int], str] = {}
    for m in matches:
        if m.next_match_id is not None:
            sources[(m.next_match_id, m.next_slot or 0)] = _("winner of %(key)s") % {"key": m.key}
        if m.loser_next_match_id is not None:
            sources[(m.loser_next_match_id, m.loser_next_slot or 0)] = _("loser of %(key)s") % {"key": m.key}
    return sources


def _losers_columns(columns: list[dict[str, Any]], box: Callable[[Match | None], dict[str, Any] | None],
                    size: int) -> list[dict[str, Any]]:
    """The losers' rounds as printed columns: ``count`` places (as in the full bracket of ``size``,
    byes included: losers' rounds 2r−1 and 2r have size / 2^(r+1) matches), each match at the place
    its key ``L{round}-M{place}`` gives (else in order)."""
    out = []
    for column in columns:
        boxes: dict[int, dict[str, Any] | None] = {}
        number = 0
        for index, m in enumerate(column["matches"]):
            found = LOSERS_KEY.match(m.key)
            if found:
                number, index = int(found[1]), int(found[2]) - 1
            boxes[index] = box(m)
        count = max(size >> ((number + 1) // 2 + 1), 1) if number else len(column["matches"])
        count = max(count, max(boxes, default=0) + 1)
        out.append({"name": column["name"], "count": count, "boxes": boxes})
    return out


LOSERS_KEY = re.compile(r"^L(\d+)-M(\d+)$")


def _column_page(columns: list[dict[str, Any]], rows: int, lo: int) -> dict[str, Any]:
    """Rows of a page of columns whose places halve from one column to another (or stay): the
    first column's places ``lo`` to ``lo + rows`` one row each, a later match spanning as many rows
    as first-column places it stands for; columns whose matches span more than the page are left out."""
    grid: list[list[dict[str, Any]]] = [[] for _ in range(rows)]
    names = []
    unit = columns[0]["count"] if columns else 1
    for column in columns:
        span = max(unit // column["count"], 1)
        if span > rows:
            break
        names.append(column["name"])
        for k in range(rows // span):
            grid[k * span].append({"match": column["boxes"].get(lo // span + k), "span": span})
    font = 10 if rows <= 8 else 8 if rows <= 16 else 5.5
    return {"round_names": names, "grid": grid, "font_pt": font, "compact": rows > 16,
            "row_mm": min(40.0, round(150 / max(rows, 1), 2)) if rows <= 16 else None}
