"""Ratings from every final match result (docs/ratings.md): the facts of each result, the pools (the
site and each club, per variant family), an incremental update per finished match and a recompute from
a point in time.

When: after the commit of every write to a tournament (:class:`tournaments.services.common.Changed`
calls :func:`ratings_sync` with the matches written to), so a rating never holds up or fails the write
of a result. :func:`ratings_sync` derives the facts of those matches again and compares them with the
stored :class:`~tournaments.models.RatedMatch` rows: a new result later than everything a pool has
rated is added at once (a few queries); any other change — a correction, an undo, a result confirmed
out of order, a deleted tournament, changed club options — marks the pool dirty from that point and
queues :func:`ratings_pool_recompute` (a Celery task, by name; in-process without a broker), which
replays the pool's stored facts from there. Every rating write locks the site pool of its family first
(then the club pools), so updates of one family happen one after the other.

Which results: a match finished and confirmed (its result final) with two sides (partnerships: the two
partners of each team, ranked by the winner, a draw ties) or three or four seated players (individual
tables: ranked by their totals, game points or net). Byes and forfeits are not rated; a result awarded
by the organizer only when the tournament's ``rate_awarded`` says so.
"""

from __future__ import annotations

import datetime as dt
import logging
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from django.db import connection, transaction
from django.db.models import F, Q, Window
from django.db.models.functions import RowNumber
from django.utils import timezone

from tournaments.enqueue import RATINGS_RECOMPUTE, BrokerUnavailable, enqueue
from tournaments.formats.ratings import (
    TREND_MATCHES,
    Change,
    Ledger,
    ModelOptions,
    Skill,
    skill_from_history,
)
from tournaments.models import (
    Club,
    Match,
    PlayerRating,
    RatedMatch,
    RatingChange,
    RatingFamily,
    RatingPool,
    Stage,
    Tournament,
)
from tournaments.services.rating_facts import (
    Fact,
    db_json,
    db_time,
    derive_facts,
    facts_now_and_stored,
    table_name,
)
from tournaments.services.rating_store import (
    CHANGE_COLUMNS,
    Statements,
    change_values,
    insert_rows,
    insert_small,
    pools_marked_statement,
    upsert_ratings,
    upsert_statement,
)

logger = logging.getLogger(__name__)

BATCH = 2000
# "Dirty from the beginning": a recompute of the whole pool (changed options, a rebuild).
BEGINNING = (dt.datetime(1970, 1, 1, tzinfo=dt.UTC), 0)


def options_of(club: Club | None) -> ModelOptions:
    """The model's parameters of a pool: the club's, or OpenSkill's defaults for the site's ladders."""
    if club is None:
        return ModelOptions()
    return ModelOptions(mu=club.rating_mu, sigma=club.rating_sigma, beta=club.rating_beta, tau=club.rating_tau,
                        margin=club.rating_margin)


# --------------------------------------------------------------------------- facts


# --------------------------------------------------------------------------- pools


def key_at_or_after(at: dt.datetime, match_id: int, *, at_field: str = "played_at",
                    match_field: str = "match_id") -> Q:
    """Rows at or after the point (``at``, ``match_id``) in rating order."""
    return Q(**{f"{at_field}__gt": at}) | Q(**{at_field: at, f"{match_field}__gte": match_id})


def pool_get(club_id: int | None, family: str) -> RatingPool:
    if club_id is None:
        pool, _created = RatingPool.objects.get_or_create(club__isnull=True, family=family)
    else:
        pool, _created = RatingPool.objects.get_or_create(club_id=club_id, family=family)
    return pool


def pools_locked(keys: Iterable[tuple[int | None, str]],
                 held: Mapping[tuple[int | None, str], RatingPool] | None = None,
                 ) -> dict[tuple[int | None, str], RatingPool]:
    """The pools of ``keys`` (created when missing) with their clubs, locked in one statement: the site
    pools of their families too, in the order of their ids, so that every writer takes them in the same
    order (a writer takes the site pools first). ``held``: pools this transaction already locked."""
    held = dict(held or {})
    wanted = (set(keys) | {(None, family) for _club, family in keys}) - held.keys()
    if not wanted:
        return held

    def lock() -> dict[tuple[int | None, str], RatingPool]:
        which = Q(pk__in=[])
        for club, family in wanted:
            which |= Q(club__isnull=True, family=family) if club is None else Q(club_id=club, family=family)
        rows = RatingPool.objects.filter(which).select_related("club").select_for_update(of=("self",))
        return {(p.club_id, p.family): p for p in rows.order_by("pk")}

    found = lock()
    if len(found) < len(wanted):
        for club, family in wanted - found.keys():
            pool_get(club, family)
        found = lock()
    return {**held, **found}


POOL_COLUMNS = ("id", "club_id", "family", "dirty_at", "dirty_match", "last_at", "last_match", "computed_at")
CLUB_COLUMNS = ("name", "is_public", "rating_mu", "rating_sigma", "rating_beta", "rating_tau", "rating_margin")


def _pools_of_matches_locked(match_ids: Sequence[int]) -> dict[tuple[int | None, str], RatingPool]:
    """Every site pool and the pools of the clubs that ``match_ids`` count for (their tournaments' clubs
    now, and the clubs of their stored facts), with their clubs, locked in one hand-written statement
    in the order of their ids (the incremental update's hot path: the ORM's query cost more to build)."""
    marks = ", ".join(["%s"] * len(match_ids))
    lock = " FOR UPDATE OF p" if connection.features.has_select_for_update_of else ""
    sql = f"""
        SELECT {", ".join(f"p.{c}" for c in POOL_COLUMNS)}, {", ".join(f"c.{c}" for c in CLUB_COLUMNS)}
        FROM {table_name(RatingPool)} p LEFT JOIN {table_name(Club)} c ON c.id = p.club_id
        WHERE p.club_id IS NULL
           OR p.club_id IN (SELECT t.club_id FROM {table_name(Match)} m
                            JOIN {table_name(Stage)} s ON s.id = m.stage_id
                            JOIN {table_name(Tournament)} t ON t.id = s.tournament_id WHERE m.id IN ({marks}))
           OR p.club_id IN (SELECT r.club_id FROM {table_name(RatedMatch)} r WHERE r.match_id IN ({marks}))
        ORDER BY p.id{lock}"""
    with connection.cursor() as cursor:
        cursor.execute(sql, [*match_ids, *match_ids])
        found = {}
        for values in cursor.fetchall():
            pool = RatingPool(**dict(zip(POOL_COLUMNS, values, strict=False)))
            pool.dirty_at, pool.last_at, pool.computed_at = (db_time(pool.dirty_at), db_time(pool.last_at),
                                                             db_time(pool.computed_at))
            if pool.club_id is not None:
                pool.club = Club(id=pool.club_id, **dict(zip(CLUB_COLUMNS, values[len(POOL_COLUMNS):], strict=True)))
            found[(pool.club_id, pool.family)] = pool
    if all((None, family) in found for family in RatingFamily.values):
        return found
    return pools_locked([(None, family) for family in RatingFamily.values], held=found)


def pools_of(fact: Fact) -> list[tuple[int | None, str]]:
    return [(None, fact.family)] + ([(fact.club_id, fact.family)] if fact.club_id else [])


def pool_facts(pool: RatingPool) -> Any:
    """The stored facts a pool rates: the family's, of the club's tournaments for a club pool."""
    rows = RatedMatch.objects.filter(family=pool.family)
    return rows.filter(club_id=pool.club_id) if pool.club_id else rows


def pool_options(pool: RatingPool) -> ModelOptions:
    return options_of(pool.club)


def skill_of(rating: PlayerRating) -> Skill:
    return Skill(rating.mu, rating.sigma, rating.matches, tuple(int(d) for d in rating.recent))


def _set_rating(row: PlayerRating, skill: Skill, last: tuple[dt.datetime, int]) -> PlayerRating:
    row.mu, row.sigma, row.display, row.matches = skill.mu, skill.sigma, skill.display, skill.matches
    row.trend, row.recent = skill.trend, list(skill.recent)
    row.last_at, row.last_match = last
    return row


def store_ratings(pool: RatingPool, ledger: Ledger, last: Mapping[int, tuple[dt.datetime, int]],
                  existing: Mapping[int, PlayerRating], players: Iterable[int]) -> None:
    """Write the ledger's skills of ``players`` into the pool's :class:`PlayerRating` rows (``existing``:
    those already stored), new and changed ones in one upsert per batch; a player left without a rated
    match loses the row."""
    upsert, gone = [], []
    for player in players:
        skill = ledger.skill(player)
        row = existing.get(player)
        if skill is None or skill.matches == 0:
            if row is not None:
                gone.append(row.pk)
            continue
        at = last[player] if row is None else (last.get(player) or (row.last_at, row.last_match))
        upsert.append(_set_rating(PlayerRating(pool=pool, player_id=player), skill, at))
    upsert_ratings(upsert)
    for start in range(0, len(gone), 500):
        PlayerRating.objects.filter(pk__in=gone[start:start + 500]).delete()


def _stored_skills(appends: Sequence[tuple[RatingPool, Sequence[Fact]]]) -> dict[tuple[int, int], Skill]:
    """The stored skills of the players of each pool's facts, by (pool id, player): one statement."""
    pools = sorted({pool.pk for pool, _facts in appends})
    players = sorted({p for _pool, facts in appends for f in facts for side in f.sides for p in side})
    sql = (f"SELECT pool_id, player_id, mu, sigma, matches, recent FROM {table_name(PlayerRating)} "
           f"WHERE pool_id IN ({', '.join(['%s'] * len(pools))}) AND player_id IN ({', '.join(['%s'] * len(players))})")
    with connection.cursor() as cursor:
        cursor.execute(sql, [*pools, *players])
        return {(pool, player): Skill(mu, sigma, matches, tuple(int(d) for d in db_json(recent)))
                for pool, player, mu, sigma, matches, recent in cursor.fetchall()}


def pools_append(appends: Sequence[tuple[RatingPool, Sequence[Fact]]], writes: Statements | None = None) -> None:
    """The incremental update: rate each pool's ``facts`` (all later than everything the pool has rated)
    on top of the stored ratings of their players — one read, and the writes (the history rows, the
    ratings' upsert, the pools' latest match; after ``writes`` already gathered) in one statement on
    PostgreSQL."""
    stored = _stored_skills(appends)
    history: list[tuple[Any, ...]] = []
    upsert = []
    for pool, facts in appends:
        ledger = Ledger(pool_options(pool), {p: skill for (pool_id, p), skill in stored.items() if pool_id == pool.pk})
        last: dict[int, tuple[dt.datetime, int]] = {}
        for fact in sorted(facts, key=lambda f: f.key):
            history.extend(change_values(pool, ledger.play(fact.game())))
            last.update(dict.fromkeys((p for side in fact.sides for p in side), fact.key))
        upsert += [_set_rating(PlayerRating(pool=pool, player_id=p), skill, last[p])
                   for p in sorted(last) if (skill := ledger.skill(p))]
    writes = writes or Statements()
    for start in range(0, len(history), 400):
        writes.add(*insert_small(RatingChange, CHANGE_COLUMNS, history[start:start + 400]))
    for start in range(0, len(upsert), 200):
        writes.add(*upsert_statement(upsert[start:start + 200]))
    marks = []
    for pool, facts in appends:
        pool.last_at, pool.last_match = max(f.key for f in facts)
        marks.append((pool, pool.last_at, pool.last_match))
    writes.add(*pools_marked_statement(marks, timezone.now()))
    writes.run()


def _history_before(pool: RatingPool, players_qs: Any, at: dt.datetime, match_id: int,
                    options: ModelOptions) -> tuple[dict[int, Skill], dict[int, tuple[dt.datetime, int]]]:
    """Each player's skill just before the point, from the last few history rows before it, and the
    player's last rated match before it."""
    rows = (RatingChange.objects.filter(pool=pool, player_id__in=players_qs)
            .exclude(key_at_or_after(at, match_id))
            .annotate(nth=Window(RowNumber(), partition_by=[F("player_id")],
                                 order_by=[F("played_at").desc(), F("match_id").desc()]))
            .filter(nth__lte=TREND_MATCHES + 1)
            .values_list("player_id", "nth", "mu_after", "sigma_after", "matches_after", "display_after",
                         "played_at", "match_id"))
    by_player: dict[int, list[tuple[Any, ...]]] = {}
    for player, *item in rows:
        by_player.setdefault(player, []).append(tuple(item))
    skills, last = {}, {}
    for player, items in by_player.items():
        items.sort(key=lambda item: item[0])
        _nth, mu, sigma, matches, _display, played_at, match = items[0]
        displays = [item[4] for item in reversed(items)]
        skills[player] = skill_from_history(displays, mu, sigma, matches, options.initial_display)
        last[player] = (played_at, match)
    return skills, last


def pool_recompute(pool: RatingPool, at: dt.datetime, match_id: int) -> int:
    """Recompute a (locked) pool from the point (``at``, ``match_id``): the history from there is
    replaced by a replay of the stored facts, starting from each player's rating just before it.
    Answers the number of matches replayed."""
    options = pool_options(pool)
    facts = [Fact.of_row(r) for r in pool_facts(pool).filter(key_at_or_after(at, match_id))
             .order_by("played_at", "match_id").values("match_id", "club_id", "family", "played_at", "sides", "ranks",
                                                       "level_gap")]
    from_start = (at, match_id) <= BEGINNING
    existing: dict[int, PlayerRating] = {}
    if from_start:
        PlayerRating.objects.filter(pool=pool).delete()
        RatingChange.objects.filter(pool=pool).delete()
        ledger = Ledger(options)
        touched: set[int] = set()
        last_before: dict[int, tuple[dt.datetime, int]] = {}
    else:
        existing = {r.player_id: r for r in PlayerRating.objects.filter(pool=pool)}
        moved = PlayerRating.objects.filter(pool=pool).filter(
            key_at_or_after(at, match_id, at_field="last_at", match_field="last_match"))
        touched = set(moved.values_list("player_id", flat=True))
        start = {p: skill_of(r) for p, r in existing.items() if p not in touched}
        before, last_before = _history_before(pool, moved.values("player_id"), at, match_id, options)
        start.update(before)
        RatingChange.objects.filter(pool=pool).filter(key_at_or_after(at, match_id)).delete()
        ledger = Ledger(options, start)
    changes: list[Change] = []
    last: dict[int, tuple[dt.datetime, int]] = {} if from_start else dict(last_before)
    for fact in facts:
        changes.extend(ledger.play(fact.game()))
        for side in fact.sides:
            for player in side:
                last[player] = fact.key
                touched.add(player)
        if len(changes) >= 4 * BATCH:
            insert_rows(RatingChange, CHANGE_COLUMNS, change_values(pool, changes))
            changes = []
    insert_rows(RatingChange, CHANGE_COLUMNS, change_values(pool, changes))
    store_ratings(pool, ledger, last, existing, touched)
    newest = pool_facts(pool).order_by("-played_at", "-match_id").values_list("played_at", "match_id").first()
    pool.last_at, pool.last_match = newest if newest else (None, None)
    pool.computed_at = timezone.now()
    pool.save(update_fields=["last_at", "last_match", "computed_at"])
    return len(facts)


def _mark_dirty(pool: RatingPool, key: tuple[dt.datetime, int]) -> None:
    if pool.dirty_at is None or key < (pool.dirty_at, pool.dirty_match or 0):
        pool.dirty_at, pool.dirty_match = key
        pool.save(update_fields=["dirty_at", "dirty_match"])


def queue_recompute(pool_ids: Iterable[int]) -> None:
    """After the commit, queue the recompute of each dirty pool (run at once without a broker). A
    broker that is down leaves the pool dirty: the next rating write or ``manage.py ratings`` retries."""
    def send() -> None:
        for pool_id in sorted(set(pool_ids)):
            try:
                enqueue(RATINGS_RECOMPUTE, args=[pool_id])
            except BrokerUnavailable as exc:
                logger.warning("ratings of pool %s not recomputed now (%s); it stays marked", pool_id, exc)
            except Exception:  # the recompute itself failed (run in-process): the mark stays for a retry
                logger.exception("ratings of pool %s not recomputed; it stays marked", pool_id)
    transaction.on_commit(send)


# --------------------------------------------------------------------------- the services


RATED_COLUMNS = ("match", "club", "family", "played_at", "sides", "ranks", "level_gap")


def _rated_values(fact: Fact) -> tuple[Any, ...]:
    return (fact.match_id, fact.club_id, fact.family, fact.played_at, [list(x) for x in fact.sides],
            list(fact.ranks), fact.level_gap)


def _changed_facts(match_ids: Sequence[int], writes: Statements) -> list[tuple[Fact | None, Fact | None]]:
    """(stored, derived now) for each of ``match_ids`` whose rated facts changed; the stored rows are
    rewritten to the derived facts (new rows: added to ``writes``)."""
    derived, stored = facts_now_and_stored(match_ids)
    pairs = [(stored.get(m), derived.get(m)) for m in match_ids if stored.get(m) != derived.get(m)]
    gone = [old.match_id for old, new in pairs if old is not None and new is None]
    if gone:
        RatedMatch.objects.filter(match_id__in=gone).delete()
    for old, new in pairs:
        if new is not None and old is not None:
            RatedMatch.objects.filter(match_id=new.match_id).update(
                club_id=new.club_id, family=new.family, played_at=new.played_at, sides=[list(s) for s in new.sides],
                ranks=list(new.ranks), level_gap=new.level_gap)
    added = [_rated_values(new) for old, new in pairs if new is not None and old is None]
    for start in range(0, len(added), 200):
        writes.add(*insert_small(RatedMatch, RATED_COLUMNS, added[start:start + 200], json_columns=(4, 5)))
    return pairs


def _may_count(match_ids: Sequence[int]) -> bool:
    """Whether any of ``match_ids`` has a final result or was rated: one query, no lock — most writes
    (a hand of a match still in play) stop here."""
    marks = ", ".join(["%s"] * len(match_ids))
    sql = (f"SELECT 1 FROM {table_name(Match)} WHERE id IN ({marks}) AND status = %s AND confirmed_at IS NOT NULL "
           f"UNION ALL SELECT 1 FROM {table_name(RatedMatch)} WHERE match_id IN ({marks}) LIMIT 1")
    with connection.cursor() as cursor:
        cursor.execute(sql, [*match_ids, str(Match.Status.FINISHED), *match_ids])
        return cursor.fetchone() is not None


def ratings_sync(*, match_ids: Iterable[int]) -> list[int]:
    """Bring the ratings up to date with the results of ``match_ids`` (after they were written): new
    results later than everything rated are added at once; any other change marks the pools dirty from
    its point and queues their recompute. Answers the ids of the pools queued for a recompute."""
    ids = sorted({int(m) for m in match_ids})
    if not ids or not _may_count(ids):
        return []
    with transaction.atomic():
        held = _pools_of_matches_locked(ids)  # the site pools (one writer at a time) and the clubs' concerned
        writes = Statements()  # the new facts' rows: written with the ratings (one statement on PostgreSQL)
        pairs = _changed_facts(ids, writes)
        if not pairs:
            return []
        by_pool: dict[tuple[int | None, str], list[tuple[Fact | None, Fact | None]]] = {}
        for old, new in pairs:
            for fact in (old, new):
                if fact is not None:
                    for key in pools_of(fact):
                        by_pool.setdefault(key, [])
                        if (old, new) not in by_pool[key]:
                            by_pool[key].append((old, new))
        pools = pools_locked(list(by_pool), held=held)
        dirty, appends = [], []
        for key, changes in by_pool.items():
            pool = pools[key]
            mine = [(o if o is not None and key in pools_of(o) else None, n if n is not None and key in pools_of(n)
                     else None) for o, n in changes]
            added = [n for o, n in mine if o is None and n is not None]
            last = (pool.last_at, pool.last_match or 0) if pool.last_at else None
            if (pool.dirty_at is None and len(added) == len(mine)
                    and (last is None or min(f.key for f in added) > last)):
                appends.append((pool, added))
                continue
            _mark_dirty(pool, min(f.key for pair in mine for f in pair if f is not None))
            dirty.append(pool.pk)
        if appends:
            pools_append(appends, writes)
        writes.run()
        queue_recompute(dirty)
        return dirty


def ratings_pool_recompute(*, pool_id: int) -> int:
    """Recompute a dirty pool from the earliest change marked (the Celery task's service). Answers the
    number of matches replayed (0 when nothing was marked)."""
    with transaction.atomic():
        pool = RatingPool.objects.get(pk=pool_id)
        pool = pools_locked([(pool.club_id, pool.family)])[(pool.club_id, pool.family)]
        if pool.dirty_at is None:
            return 0
        replayed = pool_recompute(pool, pool.dirty_at, int(pool.dirty_match or 0))
        pool.dirty_at = pool.dirty_match = None
        pool.save(update_fields=["dirty_at", "dirty_match"])
        return replayed


def ratings_club_changed(*, club: Club) -> list[int]:
    """A club's rating options changed: its ladders are recomputed from the beginning."""
    with transaction.atomic():
        keys = [(club.pk, family) for family in RatingFamily.values]
        pools = pools_locked(keys)
        ids = []
        for key in keys:
            _mark_dirty(pools[key], BEGINNING)
            ids.append(pools[key].pk)
        queue_recompute(ids)
        return ids


def ratings_forget(*, match_ids: Iterable[int]) -> list[int]:
    """Matches about to be deleted (a deleted tournament): their facts go, and their pools are
    recomputed from the earliest of them, after the commit. Call it in the deleting transaction."""
    rows = list(RatedMatch.objects.filter(match_id__in=list(match_ids)))
    if not rows:
        return []
    facts = [Fact.of_row(r) for r in rows]
    pools = pools_locked([key for fact in facts for key in pools_of(fact)])
    for fact in facts:
        for key in pools_of(fact):
            _mark_dirty(pools[key], fact.key)
    RatedMatch.objects.filter(pk__in=[r.pk for r in rows]).delete()
    ids = sorted({pools[key].pk for fact in facts for key in pools_of(fact)})
    queue_recompute(ids)
    return ids


def ratings_rebuild() -> int:
    """Everything again from the stored results: the facts of every match derived anew, every pool
    recomputed from the beginning (``manage.py ratings --rebuild``; the tests compare it with the
    incremental figures). Answers the number of rated matches."""
    with transaction.atomic():
        pools_locked([(None, family) for family in RatingFamily.values])
        facts = derive_facts()
        RatedMatch.objects.all().delete()
        insert_rows(RatedMatch, ("match", "club", "family", "played_at", "sides", "ranks", "level_gap"),
                    ((f.match_id, f.club_id, f.family, f.played_at, [list(x) for x in f.sides], list(f.ranks),
                      f.level_gap) for f in sorted(facts.values(), key=lambda f: f.key)), json_columns=(4, 5))
        keys = {key for fact in facts.values() for key in pools_of(fact)}
        keys |= set(RatingPool.objects.values_list("club_id", "family"))
        pools = pools_locked(list(keys))
        for pool in pools.values():
            pool_recompute(pool, *BEGINNING)
            pool.dirty_at = pool.dirty_match = None
            pool.save(update_fields=["dirty_at", "dirty_match"])
        return len(facts)


def ratings_sync_quietly(match_ids: Sequence[int]) -> None:
    """:func:`ratings_sync`, called after the commit of a write to results: a failure is logged and
    never undoes the write (the next sync, or ``manage.py ratings``, catches up)."""
    if not match_ids:
        return
    try:
        ratings_sync(match_ids=match_ids)
    except Exception:
        logger.exception("ratings not updated for matches %s", list(match_ids))


def ratings_after_commit(match_ids: Iterable[int]) -> None:
    """:func:`ratings_sync_quietly` once the current transaction commits (for writes that change what
    many matches count for, e.g. a tournament's club)."""
    ids = sorted(set(match_ids))
    if ids:
        transaction.on_commit(lambda: ratings_sync_quietly(ids))
