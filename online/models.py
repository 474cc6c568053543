"""Rooms, seats, the stored log of each hand and the action ids already answered (docs/online.md).

The stored hand log (:attr:`RoomHand.log`, ``shengji-hand/1``) is the truth: the engine's hand is rebuilt
from it (:mod:`online.services`). Secrets (host and seat tokens) are stored as SHA-256 digests only.
Invariants are database constraints.
"""

from __future__ import annotations

import hashlib
import secrets

from django.conf import settings
from django.db import models
from django.db.models import Q

BOT_KINDS = ("easy", "normal", "strong", "heuristic", "random")
"""The bots a seat may be given (``gameplay.bots.BOTS``): the three levels, ``heuristic`` (the former name of
``normal``, kept for stored rooms and clients) and ``random``."""


def new_secret() -> str:
    """A fresh secret token (seat or host), 32 URL-safe characters."""
    return secrets.token_urlsafe(24)


def digest(token: str) -> str:
    """What is stored of a secret token: its SHA-256 in hex (a lookup key; the token is never stored)."""
    return hashlib.sha256(token.encode("utf-8")).hexdigest()


class Room(models.Model):
    class Status(models.TextChoices):
        WAITING = "waiting", "waiting"
        PLAYING = "playing", "playing"
        FINISHED = "finished", "finished"

    class Seating(models.TextChoices):
        CHOICE = "choice", "choice"
        RANDOM = "random", "random"

    code = models.CharField(max_length=12, unique=True)
    variant = models.CharField(max_length=32)
    options = models.JSONField(default=dict, blank=True)
    decks = models.PositiveSmallIntegerField()
    players = models.PositiveSmallIntegerField()
    clock = models.PositiveSmallIntegerField(null=True, blank=True)
    """Seconds per action, or null: no clock."""
    seating = models.CharField(max_length=8, choices=Seating.choices, default=Seating.CHOICE)
    hands_limit = models.PositiveSmallIntegerField(null=True, blank=True)
    """Hands of a match of the individual variants (red five, yongzhou-300); null for the level variants."""
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.WAITING)
    version = models.PositiveIntegerField(default=0)
    host_digest = models.CharField(max_length=64)
    match = models.JSONField(default=dict, blank=True)
    """Where the match stands: level variants ``{"state": MatchState JSON, "hands": n, "winner": side}``;
    individual ones ``{"totals": [...], "hands": n, "dealer": seat}``."""
    deadline = models.DateTimeField(null=True, blank=True)
    deadline_version = models.PositiveIntegerField(null=True, blank=True)
    """The version the deadline was set for: a tick for another version does nothing."""
    deadline_kind = models.CharField(max_length=8, blank=True, default="")
    """What happens at the deadline: "deal" (the next round of cards), "bot" (a bot seat or 托管 acts),
    "clock" (a player's clock: a bot acts for the seat, which becomes 托管); "" with no deadline."""
    deadline_seat = models.PositiveSmallIntegerField(null=True, blank=True)
    watchers = models.PositiveIntegerField(default=0)
    spectator_delay = models.BooleanField(default=False)
    """Spectators see the table one trick behind (the trick being played hidden until it is over); seats never."""
    paused = models.BooleanField(default=False)
    """Paused by its host (a tournament's director, ``room_pause``): no action is accepted, no deadline runs."""
    owner_kind = models.CharField(max_length=20, blank=True, default="")
    """Who owns the room (:mod:`online.owners`: e.g. "match", a tournament's online match); "" for a casual room."""
    owner_id = models.PositiveBigIntegerField(null=True, blank=True)
    """The owner's id, told to its hooks (the room knows nothing else of it)."""
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        constraints = [
            models.CheckConstraint(condition=Q(owner_kind="", owner_id__isnull=True)
                                   | (~Q(owner_kind="") & Q(owner_id__isnull=False)), name="online_room_owner_pair"),
            models.CheckConstraint(condition=Q(status__in=["waiting", "playing", "finished"]), name="online_room_status"),
            models.CheckConstraint(condition=Q(seating__in=["choice", "random"]), name="online_room_seating"),
            models.CheckConstraint(condition=Q(players__gte=3) & Q(players__lte=6), name="online_room_players"),
            models.CheckConstraint(condition=Q(decks__gte=1) & Q(decks__lte=4), name="online_room_decks"),
            models.CheckConstraint(condition=Q(clock__isnull=True) | Q(clock__gte=5), name="online_room_clock"),
            models.CheckConstraint(condition=Q(deadline__isnull=True, deadline_version__isnull=True)
                                   | Q(deadline__isnull=False, deadline_version__isnull=False),
                                   name="online_room_deadline_pair"),
            models.CheckConstraint(condition=~Q(code=""), name="online_room_code"),
            models.CheckConstraint(condition=Q(deadline_kind__in=["", "deal", "bot", "clock"]),
                                   name="online_room_deadline_kind"),
        ]
        indexes = [models.Index(fields=["deadline"], name="online_room_deadline"),
                   models.Index(fields=["owner_kind", "owner_id"], name="online_room_owner")]

    def __str__(self) -> str:
        return f"room {self.code} ({self.variant})"


class Seat(models.Model):
    room = models.ForeignKey(Room, on_delete=models.CASCADE, related_name="seats")
    seat = models.PositiveSmallIntegerField()
    name = models.CharField(max_length=40, blank=True, default="")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL,
                             related_name="online_seats")
    token_digest = models.CharField(max_length=64, blank=True, default="")
    """SHA-256 of the seat token; "" while nobody holds the seat."""
    bot = models.CharField(max_length=12, null=True, blank=True)  # noqa: DJ001 (null: no bot, as in the protocol)
    auto = models.BooleanField(default=False)
    """托管: a bot plays for the absent or timed-out player until the player acts again."""
    ready = models.BooleanField(default=False)
    connected = models.PositiveSmallIntegerField(default=0)
    channel = models.CharField(max_length=200, blank=True, default="")
    """The channel name of the newest connection of this seat (older ones are replaced)."""
    last_seen = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["room", "seat"]
        constraints = [
            models.UniqueConstraint(fields=["room", "seat"], name="online_seat_unique"),
            models.UniqueConstraint(fields=["room", "token_digest"], condition=~Q(token_digest=""),
                                    name="online_seat_token_unique"),
            models.CheckConstraint(condition=Q(bot__isnull=True) | Q(bot__in=list(BOT_KINDS)), name="online_seat_bot"),
            models.CheckConstraint(condition=Q(bot__isnull=True) | Q(token_digest=""), name="online_seat_bot_or_person"),
            models.CheckConstraint(condition=Q(seat__lte=5), name="online_seat_number"),
        ]

    def __str__(self) -> str:
        return f"{self.room.code} seat {self.seat}"

    @property
    def taken(self) -> bool:
        return bool(self.token_digest) or self.bot is not None


class RoomHand(models.Model):
    room = models.ForeignKey(Room, on_delete=models.CASCADE, related_name="hands")
    number = models.PositiveIntegerField()
    """1, 2, … within the room (across rematches)."""
    match_number = models.PositiveIntegerField(default=1)
    log = models.JSONField()
    """The ``shengji-hand/1`` log: config and every event so far (it grows per action)."""
    finished = models.BooleanField(default=False)
    outcome = models.JSONField(null=True, blank=True)
    result = models.JSONField(null=True, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["room", "number"]
        constraints = [
            models.UniqueConstraint(fields=["room", "number"], name="online_hand_unique"),
            models.CheckConstraint(condition=Q(number__gte=1), name="online_hand_number"),
            models.CheckConstraint(condition=Q(finished=False) | Q(result__isnull=False), name="online_hand_result"),
        ]

    def __str__(self) -> str:
        return f"{self.room.code} hand {self.number}"


class RoomAction(models.Model):
    """An accepted action id with its answer: a resent id is answered again, nothing changes."""

    room = models.ForeignKey(Room, on_delete=models.CASCADE, related_name="actions")
    seat = models.SmallIntegerField()
    """The acting seat; -1 for the host acting as host (bot seats)."""
    action_id = models.CharField(max_length=64)
    version = models.PositiveIntegerField()
    """The room's version after the action."""
    answer = models.JSONField(default=dict)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["room", "seat", "action_id"], name="online_action_once"),
            models.CheckConstraint(condition=Q(seat__gte=-1) & Q(seat__lte=5), name="online_action_seat"),
        ]

    def __str__(self) -> str:
        return f"action {self.action_id} of seat {self.seat}"
