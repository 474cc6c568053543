from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class SafetyConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "safety"
    verbose_name = _("Safety")

    def ready(self) -> None:
        from safety import login_limit  # noqa: F401 - connects the failed log-in counter
