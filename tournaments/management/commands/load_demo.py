from django.core.management.base import BaseCommand

from tournaments.demo import load_demo


class Command(BaseCommand):
    help = "Load the demo data (idempotent: running it twice leaves the same data)."

    def handle(self, *args: object, **options: object) -> None:
        counts = load_demo()
        summary = ", ".join(f"{count} {name}" for name, count in counts.items())
        self.stdout.write(self.style.SUCCESS(f"Demo data loaded: {summary}."))
