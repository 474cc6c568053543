from typing import Any

from django.core.management.base import BaseCommand


class Command(BaseCommand):
    help = ("Run every clean-up step: expired idempotency keys and the steps the apps register (old print "
            "jobs, stored PDF renders); safe to run from cron at any time.")

    def handle(self, *args: Any, **options: Any) -> None:
        from safety.cleanup import run_cleanup

        for name, count in run_cleanup().items():
            self.stdout.write(f"{name}: {count}")
