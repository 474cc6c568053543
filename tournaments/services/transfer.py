"""Moving tournaments in and out: CSV import of players and teams (with a preview and per-row
errors before anything is written), a whole tournament as JSON (export, and import back unchanged),
standings as CSV."""

from __future__ import annotations

import csv
import datetime as dt
import io
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

from django.core.exceptions import ValidationError
from django.db import DatabaseError, transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from safety import csv as safe_csv
from safety.validators import validate_display_name
from tournaments.errors import ServiceError
from tournaments.models import (
    Adjustment,
    Entry,
    HandRecord,
    Match,
    Player,
    Round,
    Stage,
    TableSeat,
    Team,
    Tournament,
)
from tournaments.services.common import Actor, audit, require_organizer
from tournaments.services.options import options_validate

EXPORT_FORMAT = "shengji-tournament"
EXPORT_VERSION = 1
MAX_CSV_BYTES = 2_000_000

PLAYER_COLUMNS = ("name", "club", "contact", "rating")
TEAM_COLUMNS = ("team", "player1", "player2", "club", "rating")


# --------------------------------------------------------------------------- CSV import


@dataclass
class CsvRow:
    line: int
    values: dict[str, Any]
    errors: list[str] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return not self.errors


@dataclass
class CsvPreview:
    kind: str
    rows: list[CsvRow]
    errors: list[str] = field(default_factory=list)  # errors of the file as a whole

    @property
    def ok(self) -> bool:
        return not self.errors and all(r.ok for r in self.rows) and bool(self.rows)

    @property
    def error_count(self) -> int:
        return len(self.errors) + sum(len(r.errors) for r in self.rows)


def _decode(data: bytes | str) -> str:
    if isinstance(data, str):
        return data.lstrip("\ufeff")
    if len(data) > MAX_CSV_BYTES:
        raise ServiceError.one("file", _("The file is too large (at most 2 MB)."))
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise ServiceError.one("file", _("The file is not UTF-8 text (save it as “CSV UTF-8”).")) from exc


def _rating(text: str, row: CsvRow) -> int | None:
    text = text.strip()
    if not text:
        return None
    try:
        return int(text)
    except ValueError:
        row.errors.append(_("rating: “%(v)s” is not a whole number.") % {"v": text})
        return None


NAME_COLUMNS = {"teams": ("team", "player1", "player2"), "players": ("name",)}


def _check_name(value: str, col: str, row: CsvRow) -> None:
    """A name cell through ``validate_display_name``; its error names the column (the row knows its line)."""
    if not value:
        return
    try:
        validate_display_name(value)
    except ValidationError as exc:
        row.errors.extend(f"{col}: {message}" for message in exc.messages)


def csv_preview(*, tournament: Tournament, data: bytes | str) -> CsvPreview:
    """Parse a CSV of players (individual variants: name, club, contact, rating) or teams
    (partnership variants: team, player1, player2, club, rating) and check every row. Writes nothing."""
    kind = "teams" if tournament.is_partnership else "players"
    columns = TEAM_COLUMNS if kind == "teams" else PLAYER_COLUMNS
    text = _decode(data)
    reader = csv.DictReader(io.StringIO(text))
    header = [h.strip().lower() for h in (reader.fieldnames or [])]
    preview = CsvPreview(kind=kind, rows=[])
    required = {"team", "player1", "player2"} if kind == "teams" else {"name"}
    missing = sorted(required - set(header))
    if missing:
        preview.errors.append(_("Missing column(s): %(cols)s. Expected columns: %(all)s.")
                              % {"cols": ", ".join(missing), "all": ", ".join(columns)})
        return preview
    unknown = sorted(set(header) - set(columns))
    if unknown:
        preview.errors.append(_("Unknown column(s): %(cols)s.") % {"cols": ", ".join(unknown)})
    seen: set[str] = set()
    existing_teams = set(tournament.entries.filter(team__isnull=False).values_list("team__name", flat=True))
    existing_players = set(tournament.entries.filter(player__isnull=False).values_list("player__name", flat=True))
    for line, raw in enumerate(reader, start=2):
        values = {(k or "").strip().lower(): " ".join((v or "").split()) for k, v in raw.items() if k}
        if not any(values.values()):
            continue
        row = CsvRow(line=line, values={})
        if kind == "teams":
            for col in ("team", "player1", "player2"):
                if not values.get(col):
                    row.errors.append(_("%(col)s: required.") % {"col": col})
            if values.get("player1") and values.get("player1") == values.get("player2"):
                row.errors.append(_("player2: a team needs two different players."))
            name = values.get("team", "")
            if name in existing_teams:
                row.errors.append(_("team: “%(n)s” is already entered.") % {"n": name})
        else:
            name = values.get("name", "")
            if not name:
                row.errors.append(_("name: required."))
            if name in existing_players:
                row.errors.append(_("name: “%(n)s” is already entered.") % {"n": name})
        for col in NAME_COLUMNS[kind]:
            _check_name(values.get(col, ""), col, row)
        for col in columns:
            if len(values.get(col, "")) > (200 if col == "contact" else 100):
                row.errors.append(_("%(col)s: too long.") % {"col": col})
        if name and name in seen:
            row.errors.append(_("“%(n)s” appears twice in the file.") % {"n": name})
        seen.add(name)
        row.values = {col: values.get(col, "") for col in columns}
        row.values["rating"] = _rating(values.get("rating", ""), row)
        preview.rows.append(row)
    if not preview.rows and not preview.errors:
        preview.errors.append(_("The file has no rows."))
    return preview


def csv_import(*, tournament: Tournament, data: bytes | str, actor: Actor) -> CsvPreview:
    """Import the CSV and enter every row in the tournament — all rows or none."""
    require_organizer(actor, tournament)
    with transaction.atomic():
        # Lock the tournament row, then check its state and the rows inside the lock: of two imports
        # sent at once, the second sees the first one's entries (and refuses the repeated names).
        tournament = Tournament.objects.select_for_update().get(pk=tournament.pk)
        if tournament.status not in (Tournament.Status.DRAFT, Tournament.Status.REGISTRATION):
            raise ServiceError.one("tournament", _("Entries can be imported only before the tournament starts."))
        preview = csv_preview(tournament=tournament, data=data)
        if not preview.ok:
            errors: dict[str, list[str]] = {}
            if preview.errors:
                errors["file"] = preview.errors
            for row in preview.rows:
                if row.errors:
                    errors[f"line {row.line}"] = row.errors
            raise ServiceError(errors or {"file": [_("Nothing to import.")]})
        for row in preview.rows:
            v = row.values
            if preview.kind == "teams":
                p1 = _player(v["player1"], v["club"], "", None)
                p2 = _player(v["player2"], v["club"], "", None)
                team = Team.objects.create(name=v["team"], player1=p1, player2=p2, club=v["club"], rating=v["rating"])
                Entry.objects.create(tournament=tournament, team=team)
            else:
                player = _player(v["name"], v["club"], v["contact"], v["rating"])
                Entry.objects.create(tournament=tournament, player=player)
        audit(actor=actor, action="entries.import", tournament=tournament, target=f"tournament:{tournament.pk}",
              data={"kind": preview.kind, "rows": len(preview.rows)})
    return preview


def _player(name: str, club: str, contact: str, rating: int | None) -> Player:
    """The existing player of this name and club, or a new one."""
    player = Player.objects.filter(name=name, club=club).order_by("id").first()
    if player is None:
        player = Player.objects.create(name=name, club=club, contact=contact, rating=rating)
    return player


# --------------------------------------------------------------------------- JSON export / import


def tournament_export(tournament: Tournament) -> dict[str, Any]:
    """The whole tournament as JSON-ready data, without database ids: references are local
    (``P1``, ``T1``, ``E1``, match keys), so the document can be imported elsewhere."""
    entries = list(tournament.entries.select_related("team__player1", "team__player2", "player").order_by("id"))
    players: dict[int, str] = {}
    player_rows: list[dict[str, Any]] = []
    teams: dict[int, str] = {}
    team_rows: list[dict[str, Any]] = []

    def player_ref(p: Player) -> str:
        if p.pk not in players:
            players[p.pk] = f"P{len(players) + 1}"
            player_rows.append({"ref": players[p.pk], "name": p.name, "club": p.club, "contact": p.contact,
                                "rating": p.rating})
        return players[p.pk]

    entry_refs: dict[int, str] = {}
    entry_rows = []
    for index, e in enumerate(entries, start=1):
        entry_refs[e.pk] = f"E{index}"
        row: dict[str, Any] = {"ref": f"E{index}", "team": None, "player": None, "seed": e.seed,
                               "status": e.status, "checked_in": e.checked_in_at is not None}
        if e.team_id:
            t = e.team
            assert t is not None
            if t.pk not in teams:
                teams[t.pk] = f"T{len(teams) + 1}"
                team_rows.append({"ref": teams[t.pk], "name": t.name, "player1": player_ref(t.player1),
                                  "player2": player_ref(t.player2), "club": t.club, "rating": t.rating})
            row["team"] = teams[t.pk]
        else:
            assert e.player is not None
            row["player"] = player_ref(e.player)
        entry_rows.append(row)

    def ref(entry_id: int | None) -> str | None:
        return entry_refs.get(entry_id) if entry_id else None

    stages = []
    for stage in tournament.stages.order_by("number"):
        matches = list(stage.matches.select_related("round", "next_match", "loser_next_match")
                       .prefetch_related("hands", "seats").order_by("position", "id"))
        stages.append({
            "number": stage.number, "name": stage.name, "format": stage.format, "status": stage.status,
            "seeding": stage.seeding, "random_seed": stage.random_seed, "third_place": stage.third_place,
            "grand_final": stage.grand_final, "played": stage.played, "rounds_planned": stage.rounds_planned,
            "hands_per_table": stage.hands_per_table, "tiebreaks": stage.tiebreaks, "qualifiers": stage.qualifiers,
            "source_stage": stage.source_stage.number if stage.source_stage else None, "settings": stage.settings,
            "rounds": [{"number": r.number, "name": r.name} for r in stage.rounds.order_by("number")],
            "matches": [{
                "key": m.key, "section": m.section, "round": m.round.number, "position": m.position, "table": m.table,
                "entry0": ref(m.entry0_id), "entry1": ref(m.entry1_id),
                "next_match": m.next_match.key if m.next_match else None, "next_slot": m.next_slot,
                "loser_next_match": m.loser_next_match.key if m.loser_next_match else None,
                "loser_next_slot": m.loser_next_slot, "status": m.status, "winner_side": m.winner_side,
                "is_draw": m.is_draw, "final_if_won_by": m.final_if_won_by, "state": m.state,
                "hands_played": m.hands_played, "time_called": m.time_called_at is not None,
                "confirmed": m.confirmed_at is not None,
                "seats": [{"seat": s.seat, "entry": ref(s.entry_id)} for s in sorted(m.seats.all(), key=lambda s: s.seat)],
                "hands": [{"number": h.number, "dealer": h.dealer, "trump": h.trump, "outcome": h.outcome,
                           "result": h.result, "entered_via": h.entered_via}
                          for h in sorted(m.hands.all(), key=lambda h: h.number)],
            } for m in matches],
        })
    adjustments = [{
        "kind": a.kind, "stage": a.match.stage.number if a.match else None, "match": a.match.key if a.match else None,
        "entry": ref(a.entry_id), "winner_side": a.winner_side, "value": a.value, "reason": a.reason,
    } for a in tournament.adjustments.select_related("match__stage").order_by("created_at", "id")]
    return {
        "format": EXPORT_FORMAT, "version": EXPORT_VERSION,
        "tournament": {
            "name": tournament.name, "variant": tournament.variant, "options": tournament.options,
            "decks": tournament.decks, "players_per_table": tournament.players_per_table,
            "starts_on": tournament.starts_on.isoformat() if tournament.starts_on else None,
            "ends_on": tournament.ends_on.isoformat() if tournament.ends_on else None,
            "venue": tournament.venue, "status": tournament.status, "is_public": tournament.is_public,
            "require_confirmation": tournament.require_confirmation,
        },
        "players": player_rows, "teams": team_rows, "entries": entry_rows, "stages": stages,
        "adjustments": adjustments,
    }


def _need(data: Mapping[str, Any], key: str, path: str, kind: type | tuple[type, ...]) -> Any:
    if key not in data:
        raise ServiceError.one(f"{path}.{key}" if path else key, _("Missing."))
    value = data[key]
    if not isinstance(value, kind):
        raise ServiceError.one(f"{path}.{key}" if path else key, _("Wrong type."))
    return value


def tournament_import(*, data: Any, owner: Any) -> Tournament:
    """Create a tournament from :func:`tournament_export` data (players and teams of the same name and
    club are reused). Everything or nothing is written; bad data names the field."""

    if not isinstance(data, Mapping):
        raise ServiceError.one("file", _("The document is not a JSON object."))
    if data.get("format") != EXPORT_FORMAT or data.get("version") != EXPORT_VERSION:
        raise ServiceError.one("format", _("Not a tournament export of this site (format %(f)s, version %(v)s).")
                               % {"f": EXPORT_FORMAT, "v": EXPORT_VERSION})
    info = _need(data, "tournament", "", Mapping)
    variant = _need(info, "variant", "tournament", str)
    options_validate(variant=variant, options=info.get("options") or {}, decks=info.get("decks", 2),
                     players=info.get("players_per_table", 4))
    try:
        with transaction.atomic():
            t = Tournament.objects.create(
                owner=owner, name=_need(info, "name", "tournament", str), variant=variant,
                options=info.get("options") or {}, decks=info.get("decks", 2),
                players_per_table=info.get("players_per_table", 4),
                starts_on=dt.date.fromisoformat(info["starts_on"]) if info.get("starts_on") else None,
                ends_on=dt.date.fromisoformat(info["ends_on"]) if info.get("ends_on") else None,
                venue=info.get("venue", ""), status=info.get("status", "draft"), is_public=info.get("is_public", True),
                require_confirmation=info.get("require_confirmation", False),
            )
            now = timezone.now()
            entries = _import_entries(data, t, now)
            stage_rows: dict[int, Stage] = {}
            for s in _need(data, "stages", "", list):
                stage = _import_stage(s, t, stage_rows, entries, now)
                stage_rows[stage.number] = stage
            for a in data.get("adjustments", []):
                match = None
                if a.get("match"):
                    match = Match.objects.get(stage=stage_rows[a["stage"]], key=a["match"])
                Adjustment.objects.create(tournament=t, match=match, entry_id=_entry_id(entries, a.get("entry")),
                                          kind=a["kind"], winner_side=a.get("winner_side"), value=a.get("value", 0),
                                          reason=a["reason"])
            audit(actor=Actor(owner), action="tournament.import", tournament=t, target=f"tournament:{t.pk}",
                  data={"name": t.name})
            return t
    except ServiceError:
        raise
    except (KeyError, TypeError, ValueError) as exc:
        raise ServiceError.one("file", _("The document is incomplete or malformed: %(e)s") % {"e": exc}) from exc
    except Exception as exc:  # integrity errors and the like: nothing was written

        if isinstance(exc, DatabaseError):
            raise ServiceError.one("file", _("The document contradicts itself: %(e)s") % {"e": exc}) from exc
        raise


def _import_entries(data: Mapping[str, Any], t: Tournament, now: dt.datetime) -> dict[str, Entry]:
    """The players and teams (reused when one of the same name, club and contact exists), then the
    tournament's entries; by the document's references."""
    players = {}
    for i, p in enumerate(_need(data, "players", "", list)):
        players[p["ref"]] = Player.objects.filter(name=p["name"], club=p.get("club", ""),
                                                  contact=p.get("contact", "")).order_by("id").first() \
            or Player.objects.create(name=p["name"], club=p.get("club", ""), contact=p.get("contact", ""),
                                     rating=p.get("rating"))
        if not isinstance(p.get("name"), str):
            raise ServiceError.one(f"players.{i}.name", _("Missing."))
    teams = {}
    for tm in _need(data, "teams", "", list):
        p1, p2 = players[tm["player1"]], players[tm["player2"]]
        teams[tm["ref"]] = Team.objects.filter(name=tm["name"], player1=p1, player2=p2).order_by("id").first() \
            or Team.objects.create(name=tm["name"], player1=p1, player2=p2, club=tm.get("club", ""),
                                   rating=tm.get("rating"))
    entries = {}
    for e in _need(data, "entries", "", list):
        entries[e["ref"]] = Entry.objects.create(
            tournament=t, team=teams[e["team"]] if e.get("team") else None,
            player=players[e["player"]] if e.get("player") else None, seed=e.get("seed"),
            status=e.get("status", "active"), checked_in_at=now if e.get("checked_in") else None)
    return entries


def _entry_id(entries: Mapping[str, Entry], ref: str | None) -> int | None:
    return entries[ref].pk if ref else None


def _import_stage(s: Mapping[str, Any], t: Tournament, stage_rows: dict[int, Stage], entries: Mapping[str, Entry],
                  now: dt.datetime) -> Stage:
    """One stage with its rounds and matches (their seats and hands), the matches' links last."""
    source = s.get("source_stage")
    stage = Stage.objects.create(
        tournament=t, number=s["number"], name=s.get("name", ""), format=s["format"], status=s["status"],
        seeding=s.get("seeding", "manual"), random_seed=s.get("random_seed"),
        third_place=s.get("third_place", False), grand_final=s.get("grand_final", "single"),
        played=str(s.get("played")) if s.get("played") in ("physical", "online") else "physical",
        rounds_planned=s.get("rounds_planned"), hands_per_table=s.get("hands_per_table"),
        tiebreaks=s.get("tiebreaks") or [], qualifiers=s.get("qualifiers"),
        source_stage=stage_rows.get(source) if source is not None else None, settings=s.get("settings") or {})
    rounds = {r["number"]: Round.objects.create(stage=stage, number=r["number"], name=r.get("name", ""))
              for r in s.get("rounds", [])}
    rows = {}
    for m in s.get("matches", []):
        rows[m["key"]] = Match.objects.create(
            stage=stage, round=rounds[m["round"]], key=m["key"], section=m.get("section", "main"),
            position=m.get("position", 0), table=m.get("table"), entry0_id=_entry_id(entries, m.get("entry0")),
            entry1_id=_entry_id(entries, m.get("entry1")), next_slot=m.get("next_slot"),
            loser_next_slot=m.get("loser_next_slot"), status=m["status"], winner_side=m.get("winner_side"),
            is_draw=m.get("is_draw", False), final_if_won_by=m.get("final_if_won_by"),
            state=m.get("state") or {}, hands_played=m.get("hands_played", 0),
            time_called_at=now if m.get("time_called") else None,
            confirmed_at=now if m.get("confirmed") else None,
            finished_at=now if m["status"] == "finished" else None)
        for seat in m.get("seats", []):
            TableSeat.objects.create(match=rows[m["key"]], seat=seat["seat"], entry=entries[seat["entry"]])
        HandRecord.objects.bulk_create([
            HandRecord(match=rows[m["key"]], number=h["number"], dealer=h["dealer"], trump=h.get("trump", ""),
                       outcome=h["outcome"], result=h.get("result") or {},
                       entered_via=h.get("entered_via", "system"))
            for h in m.get("hands", [])])
    for m in s.get("matches", []):
        row = rows[m["key"]]
        row.next_match = rows.get(m.get("next_match"))
        row.loser_next_match = rows.get(m.get("loser_next_match"))
        row.save(update_fields=["next_match", "loser_next_match"])
    return stage


TEXT_COLUMNS = frozenset({"name", "entry", "team", "player"})  # names: always text in a CSV


def standings_csv(rows: Iterable[Any], columns: list[tuple[str, str]]) -> str:
    """Standings as CSV text (UTF-8 with a BOM so spreadsheet programs read Chinese names right)."""
    out = io.StringIO()
    out.write("\ufeff")
    writer = safe_csv.writer(out)  # formula-looking cells are neutralised (CSV injection)
    writer.writerow([label for _key, label in columns])
    for row in rows:
        writer.writerow([safe_csv.text_cell(_cell(row, key)) if key in TEXT_COLUMNS else _cell(row, key)
                         for key, _label in columns])
    return out.getvalue()


def _cell(row: Any, key: str) -> Any:
    """A standings cell from a mapping, a row with values by key (``row[key]``) or an attribute."""
    if isinstance(row, Mapping):
        return row.get(key)
    if hasattr(row, key):
        return getattr(row, key)
    try:
        return row[key]
    except (TypeError, KeyError):
        return ""


def entry_check_in(*, entry: Entry, present: bool, actor: Actor) -> Entry:
    """Mark an entry present (or not) before a stage starts."""
    require_organizer(actor, entry.tournament)
    with transaction.atomic():
        entry.checked_in_at = timezone.now() if present else None
        entry.save(update_fields=["checked_in_at", "updated_at"])
        audit(actor=actor, action="entry.check_in" if present else "entry.check_out", tournament=entry.tournament,
              target=f"entry:{entry.pk}")
    return entry
