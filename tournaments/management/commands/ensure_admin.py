import secrets

from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand, CommandParser


class Command(BaseCommand):
    help = "Create an admin user if no superuser exists, and print its login."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--username", default="admin")
        parser.add_argument("--password", default=None, help="default: a random password, printed once")

    def handle(self, *args: object, **options: object) -> None:
        User = get_user_model()
        if User.objects.filter(is_superuser=True).exists():
            names = ", ".join(User.objects.filter(is_superuser=True).values_list("username", flat=True))
            self.stdout.write(f"An admin user already exists ({names}); not creating another.")
            return
        username = str(options["username"])
        password = str(options["password"] or secrets.token_urlsafe(12))
        User.objects.create_superuser(username=username, email="", password=password)
        self.stdout.write(self.style.SUCCESS(f"Admin user created. Log in as '{username}' with password '{password}'."))
