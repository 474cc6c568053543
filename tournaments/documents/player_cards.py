"""Players' link cards (docs/online.md, "Tournament matches"): a card per player of an online event with the
player's private link and its QR code, printed once and handed out (organizers only: the links are secret)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from django.urls import reverse
from django.utils.translation import gettext as _

from tournaments.documents.base import Document, qr_data_uri
from tournaments.models import PlayerLink, Tournament
from tournaments.services.player_links import link_token


class PlayerCardsDocument(Document):
    """A card per player with a live link (the organizer's page makes them): the player's name, the
    tournament, and the private link with its QR code (it opens the player's online match at the right seat)."""

    kind = "player-cards"
    template_name = "tournaments/print/player_cards.html"
    title_zh = "选手链接卡"
    organizer_only = True

    def __init__(self, *, tournament: Tournament, **kwargs: Any) -> None:
        super().__init__(tournament=tournament, **kwargs)
        self.links = list(PlayerLink.objects.filter(tournament=tournament, revoked_at__isnull=True)
                          .select_related("player").order_by("player__name", "player_id"))

    @property
    def title(self) -> str:
        return _("Player link cards")

    def get_context(self, units: Sequence[Any] | None = None) -> dict[str, Any]:
        cards = []
        for link in self.links:
            url = self.base_url + reverse("player-link", args=[link_token(link)])
            cards.append({"name": link.player.name, "club": link.player.club, "link": url, "qr": qr_data_uri(url)})
        return {"cards": cards}
