from django.apps import AppConfig


class ScoringConfig(AppConfig):
    verbose_name = "Scoring"
    default_auto_field = "django.db.models.BigAutoField"
    name = "scoring"
