"""Every read of the tournaments app: tournaments and matches (:mod:`.matches`), standings
(:mod:`.standings`), and what the pages show (:mod:`.pages`). The shared reads are re-exported here."""

from tournaments.labels import round_label
from tournaments.selectors.matches import (
    LEVELS,
    bracket_tree,
    current_tables,
    is_final,
    level_index,
    match_detail,
    matches_of,
    next_dealer_preview,
    seat_entries,
    seat_names,
    tournament_get_for_viewer,
    tournaments_current,
    tournaments_visible,
)
from tournaments.selectors.standings import (
    COLUMN_LABELS,
    StandingRow,
    StandingsTable,
    TableRow,
    elimination_standings,
    match_results,
    outstanding,
    stage_standings,
    table_results,
    tournament_standings,
)

__all__ = [
    "COLUMN_LABELS",
    "LEVELS",
    "StandingRow",
    "StandingsTable",
    "TableRow",
    "bracket_tree",
    "current_tables",
    "elimination_standings",
    "is_final",
    "level_index",
    "match_detail",
    "match_results",
    "matches_of",
    "next_dealer_preview",
    "outstanding",
    "round_label",
    "seat_entries",
    "seat_names",
    "stage_standings",
    "table_results",
    "tournament_get_for_viewer",
    "tournament_standings",
    "tournaments_current",
    "tournaments_visible",
]
