"""Services queue Celery tasks by their registered names (tournaments.enqueue), never importing the task
module: the names match the tasks, eager runs find the task without anyone importing it, an unknown
name is an error (not a message sent to nowhere)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from kombu.exceptions import EncodeError

from config.celery_app import app
from tournaments import enqueue
from tournaments.tasks import PRINT_TIME_LIMIT, pdf_render_task, print_job_task

ROOT = Path(__file__).resolve().parents[2]


def test_the_names_are_those_the_tasks_register() -> None:
    assert print_job_task == enqueue.registered(enqueue.PRINT_JOB)  # the shared_task proxy compares through
    assert pdf_render_task == enqueue.registered(enqueue.PDF_RENDER)
    assert print_job_task.time_limit == PRINT_TIME_LIMIT


def test_an_unknown_name_is_refused_not_sent() -> None:
    with pytest.raises(LookupError, match=r"tournaments\.no_such_task"):
        enqueue.enqueue("tournaments.no_such_task", args=[1])


@pytest.mark.django_db
def test_in_process_a_task_runs_here_without_borrowing_a_broker_connection(monkeypatch: pytest.MonkeyPatch) -> None:
    def no_broker(*args: object, **kwargs: object) -> None:
        raise AssertionError("a broker connection was borrowed for an in-process run")

    monkeypatch.setattr(app, "producer_or_acquire", no_broker)
    monkeypatch.setattr(app, "connection_for_write", no_broker)
    assert enqueue.tasks_run_in_process()
    assert enqueue.enqueue(enqueue.PRINT_JOB, args=[987654]).get() == "missing"  # no such job


def test_in_process_the_arguments_must_be_what_a_broker_could_carry() -> None:
    with pytest.raises(EncodeError):
        enqueue.enqueue(enqueue.PRINT_JOB, args=[object()])


def test_in_process_the_task_is_found_and_run_without_importing_the_task_module() -> None:
    """A fresh web-like process that imported the services but never tournaments.tasks: enqueue finds
    the task through Celery's autodiscovery and runs it eagerly, in this process."""
    code = (
        "import sys, django; django.setup()\n"
        "from tournaments.services import printing\n"
        "printing.print_job_run = lambda *, job_id: f'ran {job_id}'  # no database needed\n"
        "from tournaments.enqueue import PRINT_JOB, enqueue\n"
        "assert 'tournaments.tasks' not in sys.modules, 'a service imported the task module'\n"
        "result = enqueue(PRINT_JOB, args=[42])\n"
        "assert 'tournaments.tasks' in sys.modules\n"
        "print(result.get())\n"
    )
    env = {**os.environ, "DJANGO_SETTINGS_MODULE": "config.settings.test", "CELERY_BROKER_URL": ""}
    done = subprocess.run([sys.executable, "-c", code], cwd=ROOT, env=env, capture_output=True, text=True,
                          timeout=120)
    assert done.returncode == 0, done.stderr[-2000:]
    assert done.stdout.strip().splitlines()[-1] == "ran 42"
