# Placeholder: the seat-naming branch brings the real 0003_seat_names; this one is dropped at the merge.

from django.db import migrations


class Migration(migrations.Migration):

    dependencies = [
        ('tournaments', '0002_trick_entry'),
    ]

    operations = []
