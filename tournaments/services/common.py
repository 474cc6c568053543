"""What every service shares: the actor and the audit log."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from tournaments.models import AuditEntry, Tournament


@dataclass(frozen=True)
class Actor:
    """Who writes: a user (or None for a table link), and how they came in."""

    user: Any = None
    via: str = "login"

    @property
    def user_or_none(self) -> Any:
        return self.user if getattr(self.user, "is_authenticated", False) else None


SYSTEM = Actor(None, "system")


def audit(*, actor: Actor, action: str, tournament: Tournament | None, target: str = "",
          data: Mapping[str, Any] | None = None) -> None:
    AuditEntry.objects.create(tournament=tournament, actor=actor.user_or_none, via=actor.via, action=action,
                              target=target, data=dict(data or {}))
