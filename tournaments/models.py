"""Tournament data.

Raw facts are stored (hand records with the scorer's figures, adjustments); everything derived
(levels, who deals, winners, standings) is recomputed from them through :mod:`scoring`. The cached
match state on :class:`Match` is rewritten by the services in the same transaction as the facts.
Invariants are database constraints.
"""

from __future__ import annotations

import secrets

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils import translation
from django.utils.translation import gettext_lazy as _

import variants
from safety.validators import validate_display_name
from tournaments.labels import round_label
from tournaments.rating_models import Club
from tournaments.rating_models import PlayerRating as PlayerRating  # re-exported: the ratings' models
from tournaments.rating_models import RatedMatch as RatedMatch
from tournaments.rating_models import RatingChange as RatingChange
from tournaments.rating_models import RatingFamily as RatingFamily
from tournaments.rating_models import RatingPool as RatingPool


def new_token() -> str:
    return secrets.token_urlsafe(24)


class TimeStamped(models.Model):
    created_at = models.DateTimeField(_("created at"), auto_now_add=True)
    updated_at = models.DateTimeField(_("updated at"), auto_now=True)

    class Meta:
        abstract = True


class Variant(models.TextChoices):
    TRACTOR = "tractor", _("Tractor (拖拉机)")
    CHAODI = "chaodi", _("Chaodi (炒地皮)")
    RED_FIVE = "red-five", _("Red five (红五)")
    YONGZHOU = "yongzhou-300", _("Yongzhou 300 (永州三百分)")


PARTNERSHIP_VARIANTS = tuple(Variant(key) for key in variants.PARTNERSHIP_KEYS)


class Player(TimeStamped):
    """A person who plays. Names may be written in any script (王小明, Zoë, Ali)."""

    name = models.CharField(_("name"), max_length=100, validators=[validate_display_name])
    club = models.CharField(_("club"), max_length=100, blank=True)
    contact = models.CharField(_("contact"), max_length=200, blank=True)
    rating = models.IntegerField(_("rating"), null=True, blank=True)
    is_private = models.BooleanField(_("private"), default=False,
                                     help_text=_("Keep this player off the public ladders and rating pages."))

    class Meta:
        ordering = ["name", "id"]
        verbose_name = _("player")
        verbose_name_plural = _("players")
        constraints = [
            models.CheckConstraint(condition=~Q(name=""), name="player_name_not_empty"),
        ]

    def __str__(self) -> str:
        return self.name


class Team(TimeStamped):
    """Two partners for the partnership variants. They sit opposite each other (seats s and s+2)."""

    name = models.CharField(_("name"), max_length=100, validators=[validate_display_name])
    player1 = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="+", verbose_name=_("player 1"))
    player2 = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="+", verbose_name=_("player 2"))
    club = models.CharField(_("club"), max_length=100, blank=True)
    rating = models.IntegerField(_("rating"), null=True, blank=True)

    class Meta:
        ordering = ["name", "id"]
        verbose_name = _("team")
        verbose_name_plural = _("teams")
        constraints = [
            models.CheckConstraint(condition=~Q(player1=models.F("player2")), name="team_two_different_players"),
            models.CheckConstraint(condition=~Q(name=""), name="team_name_not_empty"),
        ]

    def __str__(self) -> str:
        return self.name


class Tournament(TimeStamped):
    class Status(models.TextChoices):
        DRAFT = "draft", _("draft")
        REGISTRATION = "registration", _("registration")
        RUNNING = "running", _("running")
        FINISHED = "finished", _("finished")

    class SeatNames(models.TextChoices):
        NUMBERS = "numbers", _("numbers (1–4)")
        COMPASS = "compass", _("winds (East, South, West, North)")

    name = models.CharField(_("name"), max_length=200, validators=[validate_display_name])
    variant = models.CharField(_("variant"), max_length=20, choices=Variant.choices, default=Variant.TRACTOR)
    options = models.JSONField(_("rule options"), default=dict, blank=True,
                               help_text=_("Overrides of the variant's rule options, by option name."))
    decks = models.PositiveSmallIntegerField(_("decks (red five)"), default=2)
    players_per_table = models.PositiveSmallIntegerField(_("players per table (Yongzhou)"), default=4)
    starts_on = models.DateField(_("starts on"), null=True, blank=True)
    ends_on = models.DateField(_("ends on"), null=True, blank=True)
    venue = models.CharField(_("venue"), max_length=200, blank=True)
    status = models.CharField(_("status"), max_length=20, choices=Status.choices, default=Status.DRAFT)
    is_public = models.BooleanField(_("public"), default=True)
    seat_names = models.CharField(
        _("seat names"), max_length=10, choices=SeatNames.choices, default=SeatNames.NUMBERS,
        help_text=_("How seats are called on pages, sheets and messages; the API keeps seats 0-based."))
    club = models.ForeignKey(Club, on_delete=models.SET_NULL, null=True, blank=True, related_name="tournaments",
                             verbose_name=_("club"), help_text=_("Its results count for the club's ladder too."))
    rate_awarded = models.BooleanField(
        _("rate awarded results"), default=False,
        help_text=_("Count results awarded by the organizer for the ratings (forfeits and byes never count)."))
    require_confirmation = models.BooleanField(
        _("results need confirmation"), default=False,
        help_text=_("A result becomes final when the other side (or an organizer) confirms it."))
    owner = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="owned_tournaments",
                              verbose_name=_("owner"))
    organizers = models.ManyToManyField(settings.AUTH_USER_MODEL, blank=True, related_name="organized_tournaments",
                                        verbose_name=_("co-organizers"))
    scorers = models.ManyToManyField(settings.AUTH_USER_MODEL, blank=True, related_name="scored_tournaments",
                                     verbose_name=_("scorers"))

    class Meta:
        ordering = ["-starts_on", "-id"]
        verbose_name = _("tournament")
        verbose_name_plural = _("tournaments")
        constraints = [
            models.CheckConstraint(condition=Q(status__in=["draft", "registration", "running", "finished"]),
                                   name="tournament_status_valid"),
            models.CheckConstraint(condition=Q(variant__in=list(variants.VARIANT_KEYS)),
                                   name="tournament_variant_valid"),
            models.CheckConstraint(condition=Q(decks__in=[2, 3]), name="tournament_decks_2_or_3"),
            models.CheckConstraint(condition=Q(players_per_table__in=[3, 4]), name="tournament_players_3_or_4"),
            models.CheckConstraint(condition=Q(ends_on__isnull=True) | Q(starts_on__isnull=True)
                                   | Q(ends_on__gte=models.F("starts_on")), name="tournament_ends_after_start"),
            models.CheckConstraint(condition=~Q(name=""), name="tournament_name_not_empty"),
        ]

    def __str__(self) -> str:
        return self.name

    @property
    def is_partnership(self) -> bool:
        return self.variant in PARTNERSHIP_VARIANTS

    @property
    def spec(self) -> variants.Variant:
        """The rule variant as data (:mod:`variants`): ask it instead of comparing ``variant`` with names."""
        return variants.get(self.variant)


class Entry(TimeStamped):
    """A team (partnership variants) or a player (individual variants) entered in a tournament."""

    class Status(models.TextChoices):
        ACTIVE = "active", _("active")
        WITHDRAWN = "withdrawn", _("withdrawn")

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="entries")
    team = models.ForeignKey(Team, on_delete=models.PROTECT, null=True, blank=True, related_name="entries")
    player = models.ForeignKey(Player, on_delete=models.PROTECT, null=True, blank=True, related_name="entries")
    seed = models.PositiveIntegerField(_("seed"), null=True, blank=True)
    status = models.CharField(_("status"), max_length=20, choices=Status.choices, default=Status.ACTIVE)
    checked_in_at = models.DateTimeField(_("checked in at"), null=True, blank=True)

    class Meta:
        ordering = ["seed", "id"]
        verbose_name = _("entry")
        verbose_name_plural = _("entries")
        constraints = [
            models.CheckConstraint(condition=(Q(team__isnull=False) & Q(player__isnull=True))
                                   | (Q(team__isnull=True) & Q(player__isnull=False)), name="entry_team_xor_player"),
            models.UniqueConstraint(fields=["tournament", "team"], name="entry_team_once"),
            models.UniqueConstraint(fields=["tournament", "player"], name="entry_player_once"),
            models.UniqueConstraint(fields=["tournament", "seed"], name="entry_seed_unique"),
            models.CheckConstraint(condition=Q(seed__isnull=True) | Q(seed__gte=1), name="entry_seed_positive"),
        ]

    def __str__(self) -> str:
        return self.name

    @property
    def name(self) -> str:
        return self.team.name if self.team_id else self.player.name  # type: ignore[union-attr]

    @property
    def rating(self) -> int | None:
        return self.team.rating if self.team_id else self.player.rating  # type: ignore[union-attr]


class Played(models.TextChoices):
    """Where a stage (or one match) is played: at the venue's tables (hands entered by scorers) or online
    (the match owns a room of :mod:`online`; each hand the engine played is recorded at once)."""

    PHYSICAL = "physical", _("at the tables")
    ONLINE = "online", _("online")


class Stage(TimeStamped):
    """A phase of a tournament played in one format (seed 003: single elimination)."""

    class Format(models.TextChoices):
        SINGLE_ELIMINATION = "single_elimination", _("single elimination")
        DOUBLE_ELIMINATION = "double_elimination", _("double elimination")
        SWISS = "swiss", _("Swiss")
        ROUND_ROBIN = "round_robin", _("round robin")
        TABLE_ROUNDS = "table_rounds", _("individual table rounds")

    class Status(models.TextChoices):
        PENDING = "pending", _("pending")
        RUNNING = "running", _("running")
        FINISHED = "finished", _("finished")

    class Seeding(models.TextChoices):
        MANUAL = "manual", _("manual")
        RATING = "rating", _("by rating")
        RANDOM = "random", _("random")

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="stages")
    number = models.PositiveSmallIntegerField(_("number"), default=1)
    name = models.CharField(_("name"), max_length=100, blank=True)
    format = models.CharField(_("format"), max_length=30, choices=Format.choices, default=Format.SINGLE_ELIMINATION)
    status = models.CharField(_("status"), max_length=20, choices=Status.choices, default=Status.PENDING)
    seeding = models.CharField(_("seeding"), max_length=20, choices=Seeding.choices, default=Seeding.MANUAL)
    random_seed = models.BigIntegerField(_("random seed"), null=True, blank=True)
    third_place = models.BooleanField(_("third-place match"), default=False)
    grand_final = models.CharField(_("grand final (double elimination)"), max_length=10, default="single",
                                   choices=[("single", _("a single match")), ("reset", _("with a reset")),
                                            ("none", _("none"))])
    rounds_planned = models.PositiveSmallIntegerField(_("rounds (Swiss, table rounds)"), null=True, blank=True)
    hands_per_table = models.PositiveSmallIntegerField(_("hands per table (table rounds)"), null=True, blank=True)
    tiebreaks = models.JSONField(_("tiebreaks, in order"), default=list, blank=True)
    qualifiers = models.PositiveSmallIntegerField(_("entries qualifying for the next stage"), null=True, blank=True)
    source_stage = models.ForeignKey("self", on_delete=models.SET_NULL, null=True, blank=True, related_name="+",
                                     verbose_name=_("qualified from"))
    settings = models.JSONField(_("settings"), default=dict, blank=True)
    played = models.CharField(_("played"), max_length=10, choices=Played.choices, default=Played.PHYSICAL,
                              help_text=_("At the venue's tables, or online: each match is played in an online "
                                          "room reached by the players' private links."))

    class Meta:
        ordering = ["tournament", "number"]
        constraints = [
            models.CheckConstraint(condition=Q(played__in=["physical", "online"]), name="stage_played_valid"),
            models.UniqueConstraint(fields=["tournament", "number"], name="stage_number_unique"),
            models.CheckConstraint(condition=Q(status__in=["pending", "running", "finished"]), name="stage_status_valid"),
        ]

    def __str__(self) -> str:
        """The stage's own name, else its format in the visitor's language."""
        return self.name or str(self.get_format_display()).capitalize()

    @property
    def format_note(self) -> str:
        """The format beside the stage's name ("Knockout" → "single elimination"); "" when the name
        already says it (no name, or the format's own name in either language), so a page never reads
        "Swiss Swiss" / "瑞士制 瑞士制"."""
        if not self.name.strip():
            return ""
        shown = str(self.get_format_display())
        with translation.override("en"):
            english = str(self.get_format_display())
        with translation.override("zh-hans"):
            chinese = str(self.get_format_display())
        same = {shown.casefold(), english.casefold(), chinese.casefold(), self.format.replace("_", " ")}
        return "" if self.name.strip().casefold() in same else shown


class Round(TimeStamped):
    stage = models.ForeignKey(Stage, on_delete=models.CASCADE, related_name="rounds")
    number = models.PositiveSmallIntegerField(_("number"))
    name = models.CharField(_("name"), max_length=100, blank=True)

    class Meta:
        ordering = ["stage", "number"]
        constraints = [models.UniqueConstraint(fields=["stage", "number"], name="round_number_unique")]

    def __str__(self) -> str:
        return round_label(self.name) if self.name else f"{self.number}"


class Match(TimeStamped):
    """Two sides at one physical table (partnership variants), hand after hand.

    Side 0 sits in seats 0 and 2, side 1 in seats 1 and 3 (RULES.md §1: seats in play order).
    ``state`` caches the match state computed from the hand records (levels, dealer, a_failures);
    ``version`` increases with every write so that stale writes are refused (409).
    """

    class Status(models.TextChoices):
        PENDING = "pending", _("waiting for entries")
        READY = "ready", _("ready")
        PLAYING = "playing", _("playing")
        FINISHED = "finished", _("finished")
        BYE = "bye", _("bye")
        VOID = "void", _("not needed")

    stage = models.ForeignKey(Stage, on_delete=models.CASCADE, related_name="matches")
    round = models.ForeignKey(Round, on_delete=models.CASCADE, related_name="matches")
    key = models.CharField(_("bracket key"), max_length=20)
    section = models.CharField(_("section"), max_length=20, default="main")
    position = models.PositiveIntegerField(_("position in round"), default=0)
    table = models.PositiveIntegerField(_("table"), null=True, blank=True)
    entry0 = models.ForeignKey(Entry, on_delete=models.PROTECT, null=True, blank=True, related_name="+",
                               verbose_name=_("side 0"))
    entry1 = models.ForeignKey(Entry, on_delete=models.PROTECT, null=True, blank=True, related_name="+",
                               verbose_name=_("side 1"))
    next_match = models.ForeignKey("self", on_delete=models.SET_NULL, null=True, blank=True, related_name="+")
    next_slot = models.PositiveSmallIntegerField(null=True, blank=True)
    loser_next_match = models.ForeignKey("self", on_delete=models.SET_NULL, null=True, blank=True, related_name="+")
    loser_next_slot = models.PositiveSmallIntegerField(null=True, blank=True)
    status = models.CharField(_("status"), max_length=20, choices=Status.choices, default=Status.PENDING)
    winner_side = models.PositiveSmallIntegerField(_("winning side"), null=True, blank=True)
    is_draw = models.BooleanField(_("draw"), default=False)
    final_if_won_by = models.PositiveSmallIntegerField(null=True, blank=True,
                                                       help_text=_("grand final: the event ends if this slot wins"))
    state = models.JSONField(_("match state"), default=dict, blank=True)
    hands_played = models.PositiveIntegerField(_("hands played"), default=0)
    version = models.PositiveIntegerField(_("version"), default=1)
    scorer_token = models.CharField(_("scorer link token"), max_length=64, default=new_token, unique=True)
    started_at = models.DateTimeField(null=True, blank=True)
    finished_at = models.DateTimeField(null=True, blank=True)
    time_called_at = models.DateTimeField(_("time called at"), null=True, blank=True)
    confirmed_at = models.DateTimeField(_("result confirmed at"), null=True, blank=True)
    confirmed_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True,
                                     related_name="+")
    played = models.CharField(_("played"), max_length=10, blank=True, default="",
                              choices=[("", _("as its stage")), *Played.choices],
                              help_text=_("Empty: where its stage is played."))

    class Meta:
        ordering = ["stage", "round__number", "position"]
        verbose_name = _("match")
        verbose_name_plural = _("matches")
        constraints = [
            models.UniqueConstraint(fields=["stage", "key"], name="match_key_unique"),
            models.CheckConstraint(condition=Q(winner_side__isnull=True) | Q(winner_side__in=[0, 1]),
                                   name="match_winner_side_valid"),
            models.CheckConstraint(condition=Q(next_slot__isnull=True) | Q(next_slot__in=[0, 1]),
                                   name="match_next_slot_valid"),
            models.CheckConstraint(condition=Q(loser_next_slot__isnull=True) | Q(loser_next_slot__in=[0, 1]),
                                   name="match_loser_next_slot_valid"),
            models.CheckConstraint(condition=~Q(status="finished") | Q(winner_side__isnull=False) | Q(is_draw=True)
                                   | Q(entry0__isnull=True, entry1__isnull=True),
                                   name="match_finished_has_winner"),
            models.CheckConstraint(condition=Q(is_draw=False) | Q(winner_side__isnull=True), name="match_draw_no_winner"),
            models.CheckConstraint(condition=Q(entry0__isnull=True) | Q(entry1__isnull=True)
                                   | ~Q(entry0=models.F("entry1")), name="match_two_different_entries"),
            models.CheckConstraint(condition=Q(status__in=["pending", "ready", "playing", "finished", "bye", "void"]),
                                   name="match_status_valid"),
            models.CheckConstraint(condition=Q(played__in=["", "physical", "online"]), name="match_played_valid"),
        ]

    def __str__(self) -> str:
        return f"{self.key}: {self.entry0 or '—'} v {self.entry1 or '—'}"

    def entry(self, side: int) -> Entry | None:
        return self.entry0 if side == 0 else self.entry1

    def entry_id(self, side: int) -> int | None:
        """The entry id of a side without loading the entry."""
        return self.entry0_id if side == 0 else self.entry1_id

    @property
    def winner(self) -> Entry | None:
        return None if self.winner_side is None else self.entry(self.winner_side)

    @property
    def loser(self) -> Entry | None:
        return None if self.winner_side is None else self.entry(1 - self.winner_side)

    @property
    def is_online(self) -> bool:
        """Whether it is played online: its own ``played``, else its stage's (reads the stage)."""
        return (self.played or self.stage.played) == Played.ONLINE

    @property
    def is_live(self) -> bool:
        """Whether its live page (``match-live``) has something to follow: the match is at its table
        (ready or playing); the bracket, the tables and the match page link to it then."""
        return self.status in (self.Status.READY, self.Status.PLAYING)


class HandRecord(TimeStamped):
    """One hand as the scorer entered it: the raw figures of RULES.md §7 and the computed result."""

    class Via(models.TextChoices):
        LOGIN = "login", _("signed-in user")
        TOKEN = "token", _("table link")
        API = "api", _("API")
        SYSTEM = "system", _("system")
        ONLINE = "online", _("played online")

    match = models.ForeignKey(Match, on_delete=models.CASCADE, related_name="hands")
    number = models.PositiveIntegerField(_("hand number"))
    dealer = models.PositiveSmallIntegerField(_("dealer seat"))
    trump = models.CharField(_("trump"), max_length=2, blank=True, help_text=_("S, H, C, D, or empty for no trump"))
    outcome = models.JSONField(_("figures"))
    result = models.JSONField(_("computed result"), default=dict)
    entered_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True,
                                   related_name="+")
    entered_via = models.CharField(max_length=10, choices=Via.choices, default=Via.LOGIN)
    trick_log = models.JSONField(_("trick log"), null=True, blank=True,
                                 help_text=_("A hand entered trick by trick: its shengji-record/1 record and flags."))

    class Meta:
        ordering = ["match", "number"]
        constraints = [
            models.UniqueConstraint(fields=["match", "number"], name="hand_number_unique_per_match"),
            models.CheckConstraint(condition=Q(number__gte=1), name="hand_number_positive"),
            models.CheckConstraint(condition=Q(dealer__lte=3), name="hand_dealer_seat_valid"),
            models.CheckConstraint(condition=Q(trump__in=["", "S", "H", "C", "D"]), name="hand_trump_valid"),
        ]

    def __str__(self) -> str:
        return f"hand {self.number} of {self.match_id}"


class TrickDraft(TimeStamped):
    """A hand being entered trick by trick (the next hand of a match or individual table), kept on the
    server so that it survives a reload or a change of device. ``facts`` are the entered hand facts
    (``gameplay.record.HandFacts`` JSON, without what the match already fixes), ``tricks`` the entered
    tricks (lists of ``shengji-hand/1`` play events); ``version`` increases with every write so that two
    devices cannot both write (409). Finishing the hand turns it into a :class:`HandRecord`."""

    match = models.OneToOneField(Match, on_delete=models.CASCADE, related_name="trick_draft")
    number = models.PositiveIntegerField(_("hand number"))
    facts = models.JSONField(_("hand facts"), default=dict)
    tricks = models.JSONField(_("tricks"), default=list)
    version = models.PositiveIntegerField(_("version"), default=1)
    updated_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True,
                                   related_name="+")
    updated_via = models.CharField(max_length=10, default="login")

    class Meta:
        verbose_name = _("hand being entered")
        constraints = [models.CheckConstraint(condition=Q(number__gte=1), name="trickdraft_number_positive")]

    def __str__(self) -> str:
        return f"hand {self.number} of {self.match_id} (trick entry)"


class Adjustment(TimeStamped):
    """A director's decision recorded apart from the hands: penalty, forfeit or awarded result."""

    class Kind(models.TextChoices):
        PENALTY = "penalty", _("penalty")
        FORFEIT = "forfeit", _("forfeit")
        AWARDED = "awarded", _("awarded result")

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="adjustments")
    match = models.ForeignKey(Match, on_delete=models.CASCADE, null=True, blank=True, related_name="adjustments")
    entry = models.ForeignKey(Entry, on_delete=models.CASCADE, null=True, blank=True, related_name="adjustments")
    kind = models.CharField(_("kind"), max_length=20, choices=Kind.choices)
    winner_side = models.PositiveSmallIntegerField(_("awarded to side"), null=True, blank=True)
    value = models.IntegerField(_("value"), default=0, help_text=_("Levels or points, by kind."))
    reason = models.TextField(_("reason"))
    created_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, related_name="+")

    class Meta:
        ordering = ["created_at", "id"]
        constraints = [
            models.CheckConstraint(condition=~Q(reason=""), name="adjustment_reason_required"),
            models.CheckConstraint(condition=Q(winner_side__isnull=True) | Q(winner_side__in=[0, 1]),
                                   name="adjustment_winner_side_valid"),
            models.CheckConstraint(condition=~Q(kind__in=["forfeit", "awarded"]) | Q(match__isnull=False),
                                   name="adjustment_result_needs_match"),
        ]

    def __str__(self) -> str:
        return f"{self.get_kind_display()}: {self.reason}"


class AuditEntry(models.Model):
    """Every write, who made it and what it was. Append-only."""

    created_at = models.DateTimeField(auto_now_add=True, db_index=True)
    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, null=True, blank=True, related_name="audit")
    actor = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="+")
    via = models.CharField(max_length=10, default="login")
    action = models.CharField(max_length=50)
    target = models.CharField(max_length=100, blank=True)
    data = models.JSONField(default=dict, blank=True)

    class Meta:
        ordering = ["-created_at", "-id"]
        verbose_name = _("audit entry")
        verbose_name_plural = _("audit log")

    def __str__(self) -> str:
        return f"{self.created_at:%Y-%m-%d %H:%M} {self.action} {self.target}"


class TableSeat(models.Model):
    """A player's seat at an individual-variant table (red five, Yongzhou): seats 0..N−1 in play order."""

    match = models.ForeignKey(Match, on_delete=models.CASCADE, related_name="seats")
    seat = models.PositiveSmallIntegerField(_("seat"))
    entry = models.ForeignKey(Entry, on_delete=models.PROTECT, related_name="seats")

    class Meta:
        ordering = ["match", "seat"]
        constraints = [
            models.UniqueConstraint(fields=["match", "seat"], name="table_seat_unique"),
            models.UniqueConstraint(fields=["match", "entry"], name="table_entry_once"),
            models.CheckConstraint(condition=Q(seat__lte=3), name="table_seat_valid"),
        ]

    def __str__(self) -> str:
        return f"{self.match_id} seat {self.seat}: {self.entry}"


class VenueTable(TimeStamped):
    """A physical table of a tournament and its permanent link (``/v/<token>/``, printed as a QR code on
    the table card): for the whole event it opens whatever match or individual table is played there now
    (:attr:`Match.table` is the number). Revoking keeps the row, so that the old link says it was
    revoked; reissuing revokes it and adds a new row with a new token for the same number."""

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="venue_tables")
    number = models.PositiveIntegerField(_("table"))
    token = models.CharField(_("table link token"), max_length=64, default=new_token, unique=True)
    revoked_at = models.DateTimeField(_("revoked at"), null=True, blank=True)

    class Meta:
        ordering = ["tournament", "number", "-id"]
        verbose_name = _("venue table")
        verbose_name_plural = _("venue tables")
        constraints = [
            models.UniqueConstraint(fields=["tournament", "number"], condition=Q(revoked_at__isnull=True),
                                    name="venue_table_one_live_link"),
            models.CheckConstraint(condition=Q(number__gte=1), name="venue_table_number_positive"),
        ]

    def __str__(self) -> str:
        return f"{self.tournament_id} table {self.number}"


class PrintJob(TimeStamped):
    """A document rendered to PDF, on demand or in bulk by a Celery task; the file is kept."""

    class Status(models.TextChoices):
        QUEUED = "queued", _("queued")
        RUNNING = "running", _("running")
        DONE = "done", _("done")
        FAILED = "failed", _("failed")

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="print_jobs")
    kind = models.CharField(_("document"), max_length=40)
    params = models.JSONField(default=dict, blank=True)
    title = models.CharField(_("title"), max_length=200, blank=True)
    status = models.CharField(_("status"), max_length=10, choices=Status.choices, default=Status.QUEUED)
    progress = models.PositiveIntegerField(_("done"), default=0)
    total = models.PositiveIntegerField(_("total"), default=0)
    file = models.FileField(_("file"), upload_to="prints/%Y/%m/", null=True, blank=True)
    pages = models.PositiveIntegerField(_("pages"), default=0)
    error = models.TextField(_("error"), blank=True)
    task_id = models.CharField(max_length=64, blank=True)
    created_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True,
                                   related_name="+")
    finished_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created_at", "-id"]
        constraints = [
            models.CheckConstraint(condition=Q(status__in=["queued", "running", "done", "failed"]),
                                   name="printjob_status_valid"),
            models.CheckConstraint(condition=Q(progress__lte=models.F("total")) | Q(total=0),
                                   name="printjob_progress_within_total"),
        ]

    def __str__(self) -> str:
        return self.title or self.kind


class Invitation(models.Model):
    """A link that makes its holder a scorer or a co-organizer of one tournament.

    Only a hash of the link's token is stored. The token itself is an HMAC of ``nonce`` under the site's
    secret key (:func:`tournaments.services.staff.invitation_token`), so the organizer can copy the link
    again while it is pending, and the database alone does not give it away."""

    class Role(models.TextChoices):
        SCORER = "scorer", _("scorer")
        ORGANIZER = "organizer", _("co-organizer")

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="invitations",
                                   verbose_name=_("tournament"))
    role = models.CharField(_("role"), max_length=10, choices=Role.choices, default=Role.SCORER)
    nonce = models.CharField(max_length=64, default=new_token, editable=False)
    token_hash = models.CharField(max_length=64, unique=True, editable=False)
    created_at = models.DateTimeField(_("created at"), auto_now_add=True)
    expires_at = models.DateTimeField(_("expires at"))
    created_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True,
                                   related_name="+", verbose_name=_("invited by"))
    accepted_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True,
                                    related_name="+", verbose_name=_("accepted by"))
    accepted_at = models.DateTimeField(_("accepted at"), null=True, blank=True)
    revoked_at = models.DateTimeField(_("revoked at"), null=True, blank=True)

    class Meta:
        ordering = ["-created_at", "-id"]
        verbose_name = _("invitation")
        verbose_name_plural = _("invitations")
        constraints = [
            models.CheckConstraint(condition=Q(role__in=["scorer", "organizer"]), name="invitation_role_valid"),
            models.CheckConstraint(condition=Q(accepted_at__isnull=True) | Q(revoked_at__isnull=True),
                                   name="invitation_not_accepted_and_revoked"),
        ]

    def __str__(self) -> str:
        return f"{self.tournament} · {self.get_role_display()}"


class PlayerLink(models.Model):
    """A player's private link (``/p/<token>/``, as Tabbycat's private URLs): it opens the player's current
    online match at the player's seat, or says what is next. Only a hash of the token is stored; the token
    is an HMAC of ``nonce`` under the site's secret key (:func:`tournaments.services.player_links.link_token`),
    so the organizer can copy the link again and the database alone does not give it away. Revoking keeps
    the row (the old link says it was revoked); reissuing revokes it and adds a new row."""

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="player_links")
    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="links", verbose_name=_("player"))
    nonce = models.CharField(max_length=64, default=new_token, editable=False)
    token_hash = models.CharField(max_length=64, unique=True, editable=False)
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True,
                             related_name="player_links", verbose_name=_("account"),
                             help_text=_("The player's own account: signed in, the player needs no link."))
    created_at = models.DateTimeField(_("created at"), auto_now_add=True)
    revoked_at = models.DateTimeField(_("revoked at"), null=True, blank=True)

    class Meta:
        ordering = ["tournament", "player__name", "-id"]
        verbose_name = _("player link")
        verbose_name_plural = _("player links")
        constraints = [
            models.UniqueConstraint(fields=["tournament", "player"], condition=Q(revoked_at__isnull=True),
                                    name="player_link_one_live"),
        ]

    def __str__(self) -> str:
        return f"{self.tournament_id} player {self.player_id}"


class OnlineSeatChange(models.Model):
    """A director's replacement of a seat of an online match (``tournaments.services.online_director``): the
    seat is played by a substitute ``player`` (through the player's private link) or by a ``bot`` (player
    null); the match's own player then no longer holds it. One per seat: the newest replacement."""

    match = models.ForeignKey(Match, on_delete=models.CASCADE, related_name="online_seat_changes")
    seat = models.PositiveSmallIntegerField()
    player = models.ForeignKey(Player, on_delete=models.PROTECT, null=True, blank=True, related_name="+",
                               verbose_name=_("substitute"))
    bot = models.CharField(max_length=12, blank=True, default="")
    created_at = models.DateTimeField(auto_now=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["match", "seat"], name="online_seat_change_once"),
            models.CheckConstraint(condition=(Q(player__isnull=False) & Q(bot="")) | (Q(player__isnull=True) & ~Q(bot="")),
                                   name="online_seat_change_player_or_bot"),
            models.CheckConstraint(condition=Q(seat__lte=5), name="online_seat_change_seat"),
        ]

    def __str__(self) -> str:
        return f"match {self.match_id} seat {self.seat}"
