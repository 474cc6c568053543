from celery import shared_task


@shared_task(name="safety.cleanup", ignore_result=True, acks_late=True)
def cleanup_task() -> dict[str, int]:
    """The periodic clean-up (``safety.cleanup.run_cleanup``), scheduled by Celery beat."""
    from safety.cleanup import run_cleanup

    return run_cleanup()
