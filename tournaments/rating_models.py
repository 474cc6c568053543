"""Clubs and the ratings derived from every final match result (docs/ratings.md).

Kept apart from :mod:`tournaments.models` (which imports these classes and re-exports them), and
referring to its models by name only, so that neither module imports the other's code twice. Nothing
here is typed in by hand: :mod:`tournaments.services.ratings` derives every row from the stored
results, and a recompute from the same results gives the same rows.

* :class:`RatedMatch`: the facts one final match result gives the ratings (the sides' players, their
  ranks, the level gap), in time order (``played_at``, then the match id).
* :class:`RatingPool`: one ladder — the whole site or one club, for one variant family — with the
  point from which it waits to be recomputed (``dirty_*``) and the last match it has rated.
* :class:`PlayerRating`: a player's current rating in a pool (mean μ, uncertainty σ, the displayed
  conservative value, matches rated, the recent trend).
* :class:`RatingChange`: one row per player per rated match (before and after).
"""

from __future__ import annotations

from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy as _

from safety.validators import validate_display_name


class RatingFamily(models.TextChoices):
    """Variants whose results share one rating: the two partnership games (levels, partners) rate
    together; each individual game has its own ladder."""

    PARTNERSHIP = "partnership", _("Tractor and Chaodi (partnerships)")
    RED_FIVE = "red-five", _("Red five (红五)")
    YONGZHOU = "yongzhou", _("Yongzhou 300 (永州三百分)")


class Club(models.Model):
    """A club that runs tournaments week after week; its tournaments make its own ladders. The rating
    model's parameters are the club's (OpenSkill's Plackett–Luce defaults unless changed)."""

    name = models.CharField(_("name"), max_length=100, unique=True, validators=[validate_display_name])
    is_public = models.BooleanField(_("public ladder"), default=True,
                                    help_text=_("Show the club's ladder to everyone."))
    rating_mu = models.FloatField(_("initial mean (μ)"), default=25.0)
    rating_sigma = models.FloatField(_("initial uncertainty (σ)"), default=25.0 / 3.0)
    rating_beta = models.FloatField(_("performance spread (β)"), default=25.0 / 6.0)
    rating_tau = models.FloatField(_("drift per match (τ)"), default=25.0 / 300.0)
    rating_margin = models.FloatField(
        _("level margin"), default=0.0,
        help_text=_("Partnership matches: a win by more levels than this counts for more (0: off)."))
    created_at = models.DateTimeField(_("created at"), auto_now_add=True)
    updated_at = models.DateTimeField(_("updated at"), auto_now=True)

    class Meta:
        ordering = ["name", "id"]
        verbose_name = _("club")
        verbose_name_plural = _("clubs")
        constraints = [
            models.CheckConstraint(condition=~Q(name=""), name="club_name_not_empty"),
            models.CheckConstraint(condition=Q(rating_sigma__gt=0) & Q(rating_beta__gt=0) & Q(rating_tau__gte=0)
                                   & Q(rating_margin__gte=0), name="club_rating_options_valid"),
        ]

    def __str__(self) -> str:
        return self.name


class RatedMatch(models.Model):
    """What one final match result tells the ratings. ``sides``: the players of each side (a
    partnership: two sides of two; an individual table: one side per seat), ``ranks`` (1 is best,
    equal ranks for a tie), ``level_gap``: levels by which the first-ranked side won (partnerships)."""

    match = models.OneToOneField("tournaments.Match", on_delete=models.CASCADE, related_name="rated")
    club = models.ForeignKey(Club, on_delete=models.SET_NULL, null=True, blank=True, related_name="+")
    family = models.CharField(max_length=20, choices=RatingFamily.choices)
    played_at = models.DateTimeField()
    sides = models.JSONField()
    ranks = models.JSONField()
    level_gap = models.IntegerField(default=0)

    class Meta:
        ordering = ["played_at", "match_id"]
        indexes = [models.Index(fields=["family", "played_at", "match"], name="ratedmatch_order"),
                   models.Index(fields=["club", "family", "played_at", "match"], name="ratedmatch_club_order")]

    def __str__(self) -> str:
        return f"rated match {self.match_id}"


class RatingPool(models.Model):
    """One ladder: the site (``club`` empty) or one club, for one variant family. Rating writes lock
    its row. ``dirty_at``/``dirty_match``: the earliest result changed since it was last computed (a
    recompute from there is queued); ``last_at``/``last_match``: the latest match it has rated (a newer
    one is simply added)."""

    club = models.ForeignKey(Club, on_delete=models.CASCADE, null=True, blank=True, related_name="rating_pools")
    family = models.CharField(max_length=20, choices=RatingFamily.choices)
    dirty_at = models.DateTimeField(null=True, blank=True)
    dirty_match = models.BigIntegerField(null=True, blank=True)
    last_at = models.DateTimeField(null=True, blank=True)
    last_match = models.BigIntegerField(null=True, blank=True)
    computed_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["club", "family"]
        constraints = [
            models.UniqueConstraint(fields=["family"], condition=Q(club__isnull=True), name="ratingpool_site_once"),
            models.UniqueConstraint(fields=["club", "family"], condition=Q(club__isnull=False),
                                    name="ratingpool_club_once"),
        ]

    def __str__(self) -> str:
        return f"{self.club or 'site'} · {self.family}"


class PlayerRating(models.Model):
    """A player's current rating in one pool (derived: the last :class:`RatingChange`)."""

    pool = models.ForeignKey(RatingPool, on_delete=models.CASCADE, related_name="ratings")
    player = models.ForeignKey("tournaments.Player", on_delete=models.CASCADE, related_name="ratings")
    mu = models.FloatField(_("mean (μ)"))
    sigma = models.FloatField(_("uncertainty (σ)"))
    display = models.IntegerField(_("rating"), db_index=True)
    matches = models.PositiveIntegerField(_("matches rated"))
    trend = models.IntegerField(_("trend"), default=0)
    recent = models.JSONField(default=list)
    last_at = models.DateTimeField()
    last_match = models.BigIntegerField()

    class Meta:
        ordering = ["-display", "player_id"]
        constraints = [models.UniqueConstraint(fields=["pool", "player"], name="playerrating_once_per_pool")]

    def __str__(self) -> str:
        return f"{self.player_id}: {self.display}"


class RatingChange(models.Model):
    """One player's rating before and after one rated match, in one pool."""

    pool = models.ForeignKey(RatingPool, on_delete=models.CASCADE, related_name="changes")
    player = models.ForeignKey("tournaments.Player", on_delete=models.CASCADE, related_name="rating_changes")
    match = models.ForeignKey("tournaments.Match", on_delete=models.CASCADE, related_name="rating_changes")
    played_at = models.DateTimeField()
    side = models.PositiveSmallIntegerField()
    rank = models.PositiveSmallIntegerField()
    mu_before = models.FloatField()
    sigma_before = models.FloatField()
    mu_after = models.FloatField()
    sigma_after = models.FloatField()
    display_before = models.IntegerField()
    display_after = models.IntegerField()
    matches_after = models.PositiveIntegerField()

    class Meta:
        ordering = ["played_at", "match_id", "player_id"]
        indexes = [models.Index(fields=["pool", "player", "played_at", "match"], name="ratingchange_history"),
                   models.Index(fields=["pool", "played_at", "match"], name="ratingchange_order")]
        constraints = [models.UniqueConstraint(fields=["pool", "match", "player"], name="ratingchange_once")]

    def __str__(self) -> str:
        return f"{self.player_id} @ {self.match_id}: {self.display_before} → {self.display_after}"
