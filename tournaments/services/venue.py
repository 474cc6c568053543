"""The physical tables of a tournament and their permanent links (:class:`~tournaments.models.VenueTable`).

A table's link is created when a match or individual table first gets that table number (or when the
organizer adds tables before the first round, for the cards printed ahead); it stays valid for the
whole event. Revoking ends it (the old link then says so); reissuing revokes it and makes a new one.
"""

from __future__ import annotations

from collections.abc import Iterable

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from tournaments.errors import ServiceError
from tournaments.models import Match, Tournament, VenueTable
from tournaments.services.common import Actor, audit, require_organizer

MAX_TABLES = 500


def ensure_venue_tables(tournament: Tournament, numbers: Iterable[int | None]) -> list[VenueTable]:
    """A live link for each table number that has none yet (numbers already linked or revoked-and-not-
    reissued are left alone: a revoked table gets its new link only when the organizer reissues it)."""
    wanted = {int(n) for n in numbers if n}
    known = set(VenueTable.objects.filter(tournament=tournament, number__in=wanted).values_list("number", flat=True))
    return [VenueTable.objects.create(tournament=tournament, number=n) for n in sorted(wanted - known)]


def ensure_match_tables(tournament: Tournament) -> None:
    """A live link for every table number the tournament's matches use (called by the services that
    pair, draw or advance)."""
    ensure_venue_tables(tournament, Match.objects.filter(stage__tournament=tournament)
                        .exclude(table=None).values_list("table", flat=True).distinct())


def venue_tables_add(*, tournament: Tournament, count: int, actor: Actor) -> list[VenueTable]:
    """Tables 1..``count`` get a link (before the first round: cards printed once for the day)."""
    require_organizer(actor, tournament)
    if not isinstance(count, int) or not 1 <= count <= MAX_TABLES:
        raise ServiceError.one("count", _("The number of tables must be a whole number from 1 to %(n)s.") % {"n": MAX_TABLES})
    with transaction.atomic():
        Tournament.objects.select_for_update().filter(pk=tournament.pk).first()
        made = ensure_venue_tables(tournament, range(1, count + 1))
        audit(actor=actor, action="venue_tables.add", tournament=tournament, target=f"tournament:{tournament.pk}",
              data={"count": count, "created": [t.number for t in made]})
    return made


def _live(tournament: Tournament, number: int) -> VenueTable:
    table = (VenueTable.objects.select_for_update()
             .filter(tournament=tournament, number=number, revoked_at__isnull=True).first())
    if table is None:
        raise ServiceError.one("table", _("Table %(n)s has no live link to revoke.") % {"n": number})
    return table


def venue_table_revoke(*, tournament: Tournament, number: int, actor: Actor) -> VenueTable:
    """End a table's link at once (a lost or photographed card); the table gets a new one by reissuing."""
    require_organizer(actor, tournament)
    with transaction.atomic():
        table = _live(tournament, number)
        table.revoked_at = timezone.now()
        table.save(update_fields=["revoked_at", "updated_at"])
        audit(actor=actor, action="venue_table.revoke", tournament=tournament, target=f"table:{number}",
              data={"venue_table": table.pk})
    return table


def venue_table_reissue(*, tournament: Tournament, number: int, actor: Actor) -> VenueTable:
    """A new link for the table (the old one, if still live, is revoked); print its card again."""
    require_organizer(actor, tournament)
    with transaction.atomic():
        old = (VenueTable.objects.select_for_update().filter(tournament=tournament, number=number)
               .order_by("-id").first())
        if old is None:
            raise ServiceError.one("table", _("There is no table %(n)s in this tournament.")
                                   % {"n": number})
        if old.revoked_at is None:
            old.revoked_at = timezone.now()
            old.save(update_fields=["revoked_at", "updated_at"])
        new = VenueTable.objects.create(tournament=tournament, number=number)
        audit(actor=actor, action="venue_table.reissue", tournament=tournament, target=f"table:{number}",
              data={"revoked": old.pk, "venue_table": new.pk})
    return new
