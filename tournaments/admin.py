from typing import Any

from django.contrib import admin
from django.db import transaction

from tournaments.models import Club, Player
from tournaments.services.ratings import ratings_club_changed

RATING_OPTIONS = ("rating_mu", "rating_sigma", "rating_beta", "rating_tau", "rating_margin")


@admin.register(Player)
class PlayerAdmin(admin.ModelAdmin):
    list_display = ["name", "club", "rating", "is_private", "created_at"]
    list_filter = ["is_private"]
    search_fields = ["name", "club"]


@admin.register(Club)
class ClubAdmin(admin.ModelAdmin):
    """Clubs and their rating options; changing an option recomputes the club's ladders (docs/ratings.md)."""

    list_display = ["name", "is_public", *RATING_OPTIONS]
    search_fields = ["name"]

    def save_model(self, request: Any, obj: Club, form: Any, change: bool) -> None:
        with transaction.atomic():
            super().save_model(request, obj, form, change)
            if change and any(name in form.changed_data for name in RATING_OPTIONS):
                ratings_club_changed(club=obj)
