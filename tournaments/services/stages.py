"""Starting a tournament and its stages in every format: the bracket of a knockout (fed by its entries or the
qualifiers of an earlier stage), a round robin, Swiss rounds and individual table rounds. Pairings and draws
come from the pure :mod:`tournaments.formats`; standings from :mod:`tournaments.selectors.standings`."""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from tournaments.errors import ServiceError
from tournaments.formats import FORMATS, pairing, tables
from tournaments.models import Entry, Match, Played, Round, Stage, TableSeat, Tournament
from tournaments.selectors.ratings import seeding_ratings
from tournaments.selectors.standings import match_results, outstanding, stage_standings
from tournaments.services.bracket import build_elimination, seeded_entries
from tournaments.services.common import Actor, audit, require_organizer
from tournaments.services.online_rooms import online_rooms_open
from tournaments.services.results import match_award
from tournaments.services.venue import ensure_match_tables

INDIVIDUAL_DEFAULT_HANDS = 8


def tournament_start(*, tournament: Tournament, actor: Actor, seeding: str = "manual",
                     random_seed: int | None = None, third_place: bool = False,
                     format: str = Stage.Format.SINGLE_ELIMINATION, grand_final: str = "single",
                     absent: str = "withdraw", played: str = Played.PHYSICAL) -> Stage:
    """Seed the active entries, build the elimination bracket, and set the tournament running.

    Check-in: once any entry has checked in, entries that have not are ``absent``: withdrawn
    before seeding (default), or kept in the bracket and given a forfeit loss in their first match."""
    require_organizer(actor, tournament)
    if seeding not in Stage.Seeding.values:
        raise ServiceError.one("seeding", _("Seeding is manual, rating or random."))
    if format not in (Stage.Format.SINGLE_ELIMINATION, Stage.Format.DOUBLE_ELIMINATION):
        raise ServiceError.one("format", _("Start an elimination here; other formats start as stages."))
    if grand_final not in ("single", "reset", "none"):
        raise ServiceError.one("grand_final", _("The grand final is single, reset or none."))
    check_played(played)
    with transaction.atomic():
        tournament = Tournament.objects.select_for_update().get(pk=tournament.pk)
        if tournament.status not in (Tournament.Status.DRAFT, Tournament.Status.REGISTRATION):
            raise ServiceError.one("status", _("The tournament has already started."))
        if not tournament.is_partnership:
            raise ServiceError.one("variant", _("Elimination brackets are for the partnership variants."))
        entries = list(tournament.entries.filter(status=Entry.Status.ACTIVE).select_related("team", "player"))
        if absent not in ("withdraw", "forfeit"):
            raise ServiceError.one("absent", _("Absent entries are withdrawn or forfeit."))
        missing = [e for e in entries if e.checked_in_at is None] if any(e.checked_in_at for e in entries) else []
        if missing and absent == "withdraw":
            Entry.objects.filter(pk__in=[e.pk for e in missing]).update(status=Entry.Status.WITHDRAWN, seed=None)
            entries = [e for e in entries if e.checked_in_at is not None]
            audit(actor=actor, action="entries.absent_withdrawn", tournament=tournament,
                  target=f"tournament:{tournament.pk}", data={"entries": [e.name for e in missing]})
        if tournament.options.get("hand_limit_tie") == "draw":
            raise ServiceError.one("options.hand_limit_tie", _("An elimination cannot end a match in a draw."))
        order, random_seed = seeded_entries(entries, seeding, random_seed)
        stage = Stage.objects.create(tournament=tournament, number=(tournament.stages.count() + 1),
                                     name="", status=Stage.Status.RUNNING, seeding=seeding,
                                     random_seed=random_seed, third_place=third_place, format=format,
                                     grand_final=grand_final, played=played)
        build_elimination(stage, order)
        tournament.status = Tournament.Status.RUNNING
        tournament.save(update_fields=["status", "updated_at"])
        if missing and absent == "forfeit":
            absent_ids = {e.pk for e in missing}
            for match in stage.matches.filter(status=Match.Status.READY).order_by("position"):
                sides = [side for side in (0, 1) if match.entry_id(side) in absent_ids]
                if len(sides) == 1:
                    match_award(match_id=match.pk, winner_side=1 - sides[0], kind="forfeit", actor=actor,
                                reason=_("Did not check in."))
                elif len(sides) == 2:
                    match_award(match_id=match.pk, winner_side=0, kind="forfeit", actor=actor,
                                reason=_("Neither side checked in; the higher seed goes on."))
        ensure_match_tables(tournament)
        online_rooms_open(tournament=tournament)  # the online matches' rooms
        audit(actor=actor, action="tournament.start", tournament=tournament, target=f"stage:{stage.pk}",
              data={"seeding": seeding, "random_seed": random_seed, "order": order, "third_place": third_place,
                    "format": format, "played": played})
        return stage


def stage_create(*, tournament: Tournament, actor: Actor, format: str, name: str = "", rounds: int | None = None,
                 hands_per_table: int | None = None, tiebreaks_order: Sequence[str] | None = None,
                 qualifiers: int | None = None, source_stage: Stage | None = None, third_place: bool = False,
                 grand_final: str = "single", seeding: str = "rating", played: str = Played.PHYSICAL) -> Stage:
    """Add a stage to a tournament (before it starts, or after the stage it qualifies from); ``played``:
    at the tables or online."""
    require_organizer(actor, tournament)
    check_played(played)
    spec = FORMATS.get(format)
    if spec is None or format not in Stage.Format.values:
        raise ServiceError.one("format", _("Unknown format."))
    if tournament.is_partnership and not spec.partnership:
        raise ServiceError.one("format", _("Partnership variants play elimination, Swiss or round robin stages."))
    if not tournament.is_partnership and spec.partnership:
        raise ServiceError.one("format", _("Red five and Yongzhou are played in individual table rounds."))
    if spec.counted_rounds and (rounds is None or not 1 <= rounds <= 50):
        raise ServiceError.one("rounds", _("Say how many rounds (1 to 50)."))
    individual = not spec.partnership
    if individual and hands_per_table is not None and not 1 <= hands_per_table <= 100:
        raise ServiceError.one("hands_per_table", _("Hands per table: 1 to 100."))
    allowed = spec.tiebreaks
    order = list(tiebreaks_order or [])
    bad = [t for t in order if t not in allowed]
    if bad or len(set(order)) != len(order):
        raise ServiceError.one("tiebreaks", _("Tiebreaks are an ordered list without repeats of: %(allowed)s.")
                               % {"allowed": ", ".join(allowed)})
    if qualifiers is not None and qualifiers < 2:
        raise ServiceError.one("qualifiers", _("At least two entries qualify."))
    if source_stage is not None and (source_stage.tournament_id != tournament.pk
                                     or not spec.elimination):
        raise ServiceError.one("source_stage", _("A knockout of this tournament qualifies from an earlier stage."))
    with transaction.atomic():
        stage = Stage.objects.create(
            tournament=tournament, number=tournament.stages.count() + 1,
            name=(name or "").strip(), format=format, seeding=seeding,
            rounds_planned=rounds if spec.counted_rounds else None,
            hands_per_table=(hands_per_table or INDIVIDUAL_DEFAULT_HANDS) if individual else None,
            tiebreaks=order, qualifiers=qualifiers, source_stage=source_stage, third_place=third_place,
            grand_final=grand_final, played=played,
        )
        audit(actor=actor, action="stage.create", tournament=tournament, target=f"stage:{stage.pk}",
              data={"format": format, "rounds": rounds, "tiebreaks": order, "qualifiers": qualifiers,
                    "played": played})
        return stage


def check_played(played: str) -> None:
    if played not in Played.values:
        raise ServiceError.one("played", _("A stage is played at the tables (physical) or online."))


def stage_played_set(*, stage: Stage, played: str, actor: Actor) -> Stage:
    """Where a stage is played from now on (not once it is finished). Matches already playing in a room
    finish there; the next ones follow the new setting."""
    require_organizer(actor, stage.tournament)
    check_played(played)
    with transaction.atomic():
        stage = Stage.objects.select_for_update().select_related("tournament").get(pk=stage.pk)
        if stage.status == Stage.Status.FINISHED:
            raise ServiceError.one("played", _("This stage is finished."))
        before = stage.played
        stage.played = played
        stage.save(update_fields=["played", "updated_at"])
        audit(actor=actor, action="stage.played", tournament=stage.tournament, target=f"stage:{stage.pk}",
              data={"before": before, "after": played})
        return stage


def _active_entries(tournament: Tournament) -> list[Entry]:
    entries = list(tournament.entries.filter(status=Entry.Status.ACTIVE).select_related("team", "player")
                   .order_by("seed", "id"))
    if any(e.checked_in_at for e in entries):
        absent = [e for e in entries if e.checked_in_at is None]
        Entry.objects.filter(pk__in=[e.pk for e in absent]).update(status=Entry.Status.WITHDRAWN)
        entries = [e for e in entries if e.checked_in_at is not None]
    return entries


def stage_start(*, stage: Stage, actor: Actor, random_seed: int | None = None) -> Stage:
    """Start a pending stage: round 1 of a Swiss, every round of a round robin, the first draw of
    table rounds, or the bracket of a knockout fed by the qualifiers of its source stage."""

    tournament = stage.tournament
    require_organizer(actor, tournament)
    with transaction.atomic():
        stage = Stage.objects.select_for_update().get(pk=stage.pk)
        tournament = Tournament.objects.select_for_update().get(pk=tournament.pk)
        if stage.status != Stage.Status.PENDING:
            raise ServiceError.one("stage", _("This stage has already started."))
        earlier = tournament.stages.filter(number__lt=stage.number).exclude(status=Stage.Status.FINISHED)
        if earlier.exists():
            raise ServiceError.one("stage", _("Finish the earlier stages first."))
        if random_seed is None:
            random_seed = random.SystemRandom().randrange(2**31)
        stage.random_seed = random_seed
        if stage.source_stage is not None:  # no query without a source stage
            order = qualified_entries(stage.source_stage)
        else:
            entries = _active_entries(tournament)
            if len(entries) < 2:
                raise ServiceError.one("entries", _("A stage needs at least two entries."))
            order = [e.pk for e in entries]
        _STAGE_STARTERS[FORMATS[stage.format].kind](stage, order, random_seed)
        stage.status = Stage.Status.RUNNING
        stage.save()
        if tournament.status != Tournament.Status.RUNNING:
            tournament.status = Tournament.Status.RUNNING
            tournament.save(update_fields=["status", "updated_at"])
        ensure_match_tables(tournament)
        online_rooms_open(tournament=tournament)  # the online matches' rooms
        audit(actor=actor, action="stage.start", tournament=tournament, target=f"stage:{stage.pk}",
              data={"format": stage.format, "random_seed": random_seed, "entries": order})
        return stage


def _start_elimination(stage: Stage, order: list[int], random_seed: int) -> None:
    if not stage.source_stage_id:
        order, _seed = seeded_entries(list(Entry.objects.filter(pk__in=order)), stage.seeding, random_seed)
    build_elimination(stage, order)


def _start_round_robin(stage: Stage, order: list[int], random_seed: int) -> None:
    _build_round_robin(stage, order)


def _start_swiss(stage: Stage, order: list[int], random_seed: int) -> None:
    _pair_swiss_round(stage, order, 1)


def _start_table_rounds(stage: Stage, order: list[int], random_seed: int) -> None:
    _draw_table_round(stage, order, 1)


# How a stage starts, by the kind of its format (``FORMATS[stage.format].kind``).
_STAGE_STARTERS: dict[str, Callable[[Stage, list[int], int], None]] = {
    "elimination": _start_elimination,
    "round_robin": _start_round_robin,
    "swiss": _start_swiss,
    "table_rounds": _start_table_rounds,
}


def qualified_entries(source: Stage) -> list[int]:
    """The top ``qualifiers`` of a finished stage, in rank order (ties at the cut by rank order)."""
    if source.status != Stage.Status.FINISHED:
        raise ServiceError.one("source_stage", _("The qualifying stage is not finished yet."))
    table = stage_standings(source)
    count = source.qualifiers or len(table.rows)
    chosen = pairing.qualifiers(table.rows, count, ties="order")
    return [entry.pk for entry in chosen.qualified]


def _new_round(stage: Stage, number: int) -> Round:
    # A code, shown in each visitor's language by selectors.round_label.
    return Round.objects.create(stage=stage, number=number, name=f"round:{number}")


def _build_round_robin(stage: Stage, order: list[int]) -> None:
    for rr in pairing.round_robin(order):
        rnd = _new_round(stage, rr.number)
        for board, (a, b) in enumerate(rr.pairings, start=1):
            Match.objects.create(stage=stage, round=rnd, key=f"RR{rr.number}-{board}", section="round_robin",
                                 position=board, table=board, entry0_id=a, entry1_id=b, status=Match.Status.READY)
        if rr.bye is not None:
            _bye(stage, rnd, rr.bye, len(rr.pairings) + 1, "RR")


def _bye(stage: Stage, rnd: Round, entry_id: int, position: int, prefix: str) -> None:
    now = timezone.now()
    Match.objects.create(stage=stage, round=rnd, key=f"{prefix}{rnd.number}-BYE", section="bye", position=position,
                         entry0_id=entry_id, status=Match.Status.BYE, winner_side=0, confirmed_at=now,
                         finished_at=now)


def _pair_swiss_round(stage: Stage, order: list[int], number: int) -> Round:
    results, byes = match_results(stage)
    # Within a score, the ratings from earlier results rank the entries (hand-typed ones for the unrated).
    ratings = seeding_ratings(stage.tournament, Entry.objects.filter(pk__in=order).select_related(
        "team__player1", "team__player2", "player"))
    standings = [row.entry.pk for row in stage_standings(stage).rows]
    entries = pairing.swiss_entries(order, results, byes=byes, ratings=ratings, standings=standings)
    paired = pairing.swiss_pairings(entries)
    rnd = _new_round(stage, number)
    for board, (a, b) in enumerate(paired.pairings, start=1):
        Match.objects.create(stage=stage, round=rnd, key=f"S{number}-{board}", section="swiss", position=board,
                             table=board, entry0_id=a, entry1_id=b, status=Match.Status.READY)
    if paired.bye is not None:
        _bye(stage, rnd, paired.bye, len(paired.pairings) + 1, "S")
    return rnd


def _lock_for_next_round(stage: Stage, *, format: str, override: bool, not_running: str, all_done: str,
                         waiting: str) -> tuple[Stage, int, list[Match]]:
    """Lock a running stage of ``format`` for its next round: answers the stage, the rounds done and
    the matches still without a final result (refused while there are some, unless ``override``)."""
    stage = Stage.objects.select_for_update().select_related("tournament").get(pk=stage.pk)
    if stage.format != format or stage.status != Stage.Status.RUNNING:
        raise ServiceError.one("stage", not_running)
    done = stage.rounds.count()
    if stage.rounds_planned is not None and done >= stage.rounds_planned:
        raise ServiceError.one("stage", all_done % {"n": stage.rounds_planned})
    open_matches = outstanding(stage)
    if open_matches and not override:
        raise ServiceError.one("stage", waiting % {"tables": ", ".join(m.key for m in open_matches)})
    return stage, done, open_matches


def swiss_next_round(*, stage: Stage, actor: Actor, override: bool = False) -> Round:
    """Pair the next Swiss round from the final results. Refused while results are outstanding,
    unless the organizer overrides (those matches then count as not played for this pairing)."""
    require_organizer(actor, stage.tournament)
    with transaction.atomic():
        stage, done, waiting = _lock_for_next_round(
            stage, format=Stage.Format.SWISS, override=override,
            not_running=_("This is not a running Swiss stage."),
            all_done=_("All %(n)s rounds have been paired."),
            waiting=_("Results are outstanding at: %(tables)s. Wait for them, or override."))
        order = [e.pk for e in stage.tournament.entries.filter(status=Entry.Status.ACTIVE).order_by("seed", "id")]
        rnd = _pair_swiss_round(stage, order, done + 1)
        ensure_match_tables(stage.tournament)
        online_rooms_open(tournament=stage.tournament)  # the online matches' rooms
        audit(actor=actor, action="swiss.pair", tournament=stage.tournament, target=f"stage:{stage.pk}",
              data={"round": rnd.number, "override": override, "outstanding": [m.key for m in waiting]})
        return rnd


# --------------------------------------------------------------------------- individual table rounds


def _previous_rounds(stage: Stage) -> list[tables.TableRound[int]]:
    rounds = []
    for rnd in stage.rounds.order_by("number").prefetch_related("matches__seats"):
        drawn = []
        sit_outs = list((rnd.stage.settings.get("sit_outs") or {}).get(str(rnd.number), []))
        for m in sorted(rnd.matches.all(), key=lambda m: m.position):
            seats = sorted(m.seats.all(), key=lambda s: s.seat)
            if seats:
                drawn.append(tables.Table(m.position, tuple(s.entry_id for s in seats),
                                          int((m.state or {}).get("first", 0))))
        rounds.append(tables.TableRound(tuple(drawn), tuple(sit_outs)))
    return rounds


def _draw_table_round(stage: Stage, order: list[int], number: int) -> Round:
    tournament = stage.tournament
    rng = random.Random(f"{stage.random_seed}:{number}")
    try:
        drawn = tables.draw_round(order, tournament.variant, rng=rng, previous=_previous_rounds(stage))
    except tables.DrawError as exc:
        raise ServiceError.one("entries", str(exc)) from exc
    rnd = _new_round(stage, number)
    for table in drawn.tables:
        m = Match.objects.create(stage=stage, round=rnd, key=f"T{number}-{table.number}", section="table",
                                 position=table.number, table=table.number, status=Match.Status.READY,
                                 state={"first": table.first, "dealer": table.first, "players": len(table.seats)})
        TableSeat.objects.bulk_create([TableSeat(match=m, seat=i, entry_id=e) for i, e in enumerate(table.seats)])
    settings = dict(stage.settings or {})
    settings.setdefault("sit_outs", {})[str(number)] = list(drawn.sit_outs)
    stage.settings = settings
    stage.save(update_fields=["settings", "updated_at"])
    return rnd


def table_round_draw(*, stage: Stage, actor: Actor, override: bool = False) -> Round:
    """Draw the next table round (red five, Yongzhou), avoiding repeated table-mates."""
    require_organizer(actor, stage.tournament)
    with transaction.atomic():
        stage, done, waiting = _lock_for_next_round(
            stage, format=Stage.Format.TABLE_ROUNDS, override=override,
            not_running=_("This is not a running stage of table rounds."),
            all_done=_("All %(n)s rounds have been drawn."),
            waiting=_("Tables still playing: %(tables)s."))
        order = [e.pk for e in stage.tournament.entries.filter(status=Entry.Status.ACTIVE).order_by("id")]
        rnd = _draw_table_round(stage, order, done + 1)
        ensure_match_tables(stage.tournament)
        online_rooms_open(tournament=stage.tournament)  # the online matches' rooms
        audit(actor=actor, action="tables.draw", tournament=stage.tournament, target=f"stage:{stage.pk}",
              data={"round": rnd.number, "override": override, "outstanding": [m.key for m in waiting]})
        return rnd




def stage_next_round(*, stage: Stage, actor: Actor, override: bool = False) -> Round:
    """The next round of a running stage: a table draw for individual table rounds, else the next
    Swiss pairing."""
    service = table_round_draw if stage.format == Stage.Format.TABLE_ROUNDS else swiss_next_round
    return service(stage=stage, actor=actor, override=override)
