from typing import Any

from django.core.management.base import BaseCommand


class Command(BaseCommand):
    help = "Delete expired idempotency keys (and other expired rows); safe to run from cron at any time."

    def handle(self, *args: Any, **options: Any) -> None:
        from safety.cleanup import run_cleanup

        for name, count in run_cleanup().items():
            self.stdout.write(f"{name}: {count}")
