# Placeholder for the trick-entry migration another branch adds; dropped at merge.
from django.db import migrations


class Migration(migrations.Migration):
    dependencies = [("tournaments", "0001_initial")]

    operations: list = []
