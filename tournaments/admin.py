from django.contrib import admin

from tournaments.models import Player


@admin.register(Player)
class PlayerAdmin(admin.ModelAdmin):
    list_display = ["name", "club", "rating", "created_at"]
    search_fields = ["name", "club"]
