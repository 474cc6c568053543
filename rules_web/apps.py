from django.apps import AppConfig


class RulesWebConfig(AppConfig):
    verbose_name = "Rules engine and scoring (web)"
    default_auto_field = "django.db.models.BigAutoField"
    name = "rules_web"
