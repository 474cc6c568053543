from django.apps import AppConfig


class TournamentsConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "tournaments"

    def ready(self) -> None:
        """Register this app's periodic clean-up steps with ``safety.cleanup`` (which imports nothing
        of this app): stale and old print jobs, old stored PDF renders. Connect the live pages' push to the
        services' after-commit signal (``services.live_push``, docs/tournaments.md "Live pages"). Own the rooms of
        online matches (``services.online_matches``, docs/online.md "Tournament matches")."""
        from safety import cleanup
        from tournaments.services.common import tournament_changed
        from tournaments.services.live_push import push_changes
        from tournaments.services.online_matches import register as register_room_owner
        from tournaments.services.pdf_cache import pdf_store_cleanup
        from tournaments.services.print_jobs import print_jobs_cleanup

        cleanup.register("print_jobs", print_jobs_cleanup)
        cleanup.register("pdf_renders", pdf_store_cleanup)
        tournament_changed.connect(push_changes, dispatch_uid="tournaments.live_push")
        register_room_owner()  # online rooms owned by a tournament's online match (online/owners.py)
