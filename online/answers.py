"""What the online services answer (online/services.py): a refusal (:class:`OnlineError`, its ``code`` as
docs/online.md's error table, bilingual ``message``, the ``field`` at fault) and the results of a write.
Re-exported by :mod:`online.services`."""

from __future__ import annotations

from dataclasses import dataclass

from gameplay.errors import GameplayError
from online.models import Room, Seat

__all__ = ["Answer", "Connected", "Created", "Joined", "OnlineError"]


class OnlineError(Exception):
    """A refused request: ``code`` (docs/online.md's table), bilingual ``message``, the ``field`` at fault."""

    def __init__(self, code: str, en: str, zh: str, *, field: str | None = None) -> None:
        super().__init__(en)
        self.code = code
        self.message = {"en": en, "zh-hans": zh}
        self.field = field

    @classmethod
    def refused(cls, err: GameplayError) -> OnlineError:
        return cls("refused", err.message("en"), err.message("zh-hans"))


@dataclass(frozen=True)
class Answer:
    version: int
    repeated: bool = False


@dataclass(frozen=True)
class Created:
    room: Room
    host_token: str
    seat: Seat | None
    seat_token: str | None


@dataclass(frozen=True)
class Joined:
    room: Room
    seat: Seat
    token: str


@dataclass(frozen=True)
class Connected:
    room: Room
    seat: int | None
    host: bool
    replaced: str
    """The channel of the connection this one replaced ("" if none)."""
