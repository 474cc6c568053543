"""The web edge of the rules engine (``gameplay``) and the scoring core (``scoring``).

Pages (referee, calculator, replay), their REST APIs, forms, the ``simulate`` command and its Celery
task. The cores below it are pure Python; everything Django about them lives here.
"""
