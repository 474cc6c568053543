from django.apps import AppConfig


class OnlineConfig(AppConfig):
    name = "online"
    verbose_name = "Online play"
    default_auto_field = "django.db.models.BigAutoField"
