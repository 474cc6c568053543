"""A bot seat no longer carries a made-up name ("bot (normal)"): at a casual table it has none (the page says
"Seat n" and the bot's level), at a tournament's it keeps its player's. Seats named the old way lose it."""

from django.db import migrations
from django.db.backends.base.schema import BaseDatabaseSchemaEditor
from django.db.migrations.state import StateApps


def forget_bot_names(apps: StateApps, schema_editor: BaseDatabaseSchemaEditor) -> None:
    seat = apps.get_model("online", "Seat")
    seat.objects.filter(bot__isnull=False, name__startswith="bot (").update(name="")


class Migration(migrations.Migration):
    dependencies = [("online", "0005_room_paused")]

    operations = [migrations.RunPython(forget_bot_names, migrations.RunPython.noop)]
