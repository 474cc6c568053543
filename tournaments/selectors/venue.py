"""Reads of the physical tables (:class:`~tournaments.models.VenueTable`): a table's link by its token,
what is played at the table now (or next, or last), and the tables the manage page lists."""

from __future__ import annotations

from dataclasses import dataclass, field

from tournaments.models import Match, Stage, Tournament, VenueTable

OPEN = (Match.Status.PLAYING, Match.Status.READY)


def venue_table_for_token(token: str) -> VenueTable | None:
    """The table whose link this is, live or revoked (a revoked link is answered with its own message)."""
    if not token:
        return None
    return VenueTable.objects.select_related("tournament").filter(token=token).first()


@dataclass
class TableNow:
    """What a table's link opens: ``current`` (played there now, or a result there waiting for the
    losing side's confirmation), else ``upcoming`` (drawn there, waiting for its entries) and ``last``."""

    current: Match | None = None
    upcoming: Match | None = None
    last: Match | None = None


def _at_table(venue: VenueTable) -> list[Match]:
    return list(Match.objects.select_related("round", "stage", "entry0__team", "entry0__player", "entry1__team",
                                             "entry1__player")
                .filter(stage__tournament_id=venue.tournament_id, table=venue.number))


def table_now(venue: VenueTable) -> TableNow:
    tournament = venue.tournament
    matches = _at_table(venue)
    if tournament.status == Tournament.Status.RUNNING:
        playing = sorted((m for m in matches if m.status in OPEN and m.stage.status == Stage.Status.RUNNING),
                         key=lambda m: (m.status != Match.Status.PLAYING, m.stage.number, m.round.number,
                                        m.position))
        if playing:
            return TableNow(current=playing[0])
    finished = sorted((m for m in matches if m.status == Match.Status.FINISHED),
                      key=lambda m: (m.finished_at is not None, m.finished_at, m.pk))
    last = finished[-1] if finished else None
    if last is not None and tournament.require_confirmation and last.confirmed_at is None:
        return TableNow(current=last)
    upcoming = sorted((m for m in matches if m.status == Match.Status.PENDING),
                      key=lambda m: (m.stage.number, m.round.number, m.position))
    return TableNow(upcoming=upcoming[0] if upcoming else None, last=last)


@dataclass
class VenueRow:
    number: int
    live: VenueTable | None
    revoked: list[VenueTable] = field(default_factory=list)


def venue_tables_of(tournament: Tournament) -> list[VenueRow]:
    """Every table of the tournament by number: its live link (if any) and its revoked ones."""
    rows: dict[int, VenueRow] = {}
    for table in VenueTable.objects.filter(tournament=tournament).order_by("number", "-id"):
        row = rows.setdefault(table.number, VenueRow(table.number, None))
        if table.revoked_at is None:
            row.live = table
        else:
            row.revoked.append(table)
    return list(rows.values())


def live_links(tournament: Tournament) -> dict[int, str]:
    """Table number → its live token (the table cards print them)."""
    return dict(VenueTable.objects.filter(tournament=tournament, revoked_at__isnull=True)
                .values_list("number", "token"))
