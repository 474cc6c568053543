"""Settings load in each mode and read the environment as documented."""

import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]

PROBE = (
    "import django, json; from django.conf import settings; django.setup(); "
    "print(json.dumps({'engine': settings.DATABASES['default']['ENGINE'], "
    "'name': str(settings.DATABASES['default']['NAME']), 'eager': settings.CELERY_TASK_ALWAYS_EAGER, "
    "'debug': settings.DEBUG, 'tz': settings.TIME_ZONE, 'langs': [c for c, _ in settings.LANGUAGES], "
    "'layer': settings.CHANNEL_LAYERS['default']['BACKEND']}))"
)


def load(module: str, **env: str) -> subprocess.CompletedProcess[str]:
    clean = {k: v for k, v in os.environ.items()
             if k not in ("DATABASE_URL", "CELERY_BROKER_URL", "CELERY_RESULT_BACKEND", "SECRET_KEY", "DEBUG", "TIME_ZONE",
                          "CHANNEL_REDIS_URL", "CHANNEL_REDIS_PUBSUB")}
    clean.update(env)
    clean["DJANGO_SETTINGS_MODULE"] = f"config.settings.{module}"
    return subprocess.run([sys.executable, "-c", PROBE], cwd=ROOT, env=clean, capture_output=True, text=True, timeout=60)


@pytest.mark.parametrize("module", ["local", "test"])
def test_embedded_default_is_sqlite_in_project_folder_with_in_process_tasks(module: str) -> None:
    result = load(module)
    assert result.returncode == 0, result.stderr
    data = __import__("json").loads(result.stdout)
    assert data["engine"] == "django.db.backends.sqlite3"
    assert data["name"] == str(ROOT / "db.sqlite3")
    assert data["eager"] is True
    assert data["tz"] == "Asia/Shanghai"
    assert data["langs"] == ["en", "zh-hans"]


@pytest.mark.parametrize(("env", "layer"), [
    ({}, "online.layers.SweptInMemoryChannelLayer"),
    ({"CHANNEL_REDIS_URL": "redis://127.0.0.1:6379/2"}, "channels_redis.pubsub.RedisPubSubChannelLayer"),
    ({"CHANNEL_REDIS_URL": "redis://127.0.0.1:6379/2", "CHANNEL_REDIS_PUBSUB": "true"},
     "channels_redis.pubsub.RedisPubSubChannelLayer"),
    ({"CHANNEL_REDIS_URL": "redis://127.0.0.1:6379/2", "CHANNEL_REDIS_PUBSUB": "false"},
     "channels_redis.core.RedisChannelLayer"),
    ({"CHANNEL_REDIS_PUBSUB": "true"}, "online.layers.SweptInMemoryChannelLayer"),  # no Redis: in memory
])
def test_the_channel_layer_follows_the_environment(env: dict[str, str], layer: str) -> None:
    result = load("local", **env)
    assert result.returncode == 0, result.stderr
    assert __import__("json").loads(result.stdout)["layer"] == layer


def test_local_mode_debugs_by_default() -> None:
    assert __import__("json").loads(load("local").stdout)["debug"] is True


def test_database_url_and_broker_url_switch_to_real_services() -> None:
    result = load("local", DATABASE_URL="postgres://postgres@127.0.0.1:5432/test",
                  CELERY_BROKER_URL="redis://127.0.0.1:6379/0", TIME_ZONE="Europe/Paris")
    assert result.returncode == 0, result.stderr
    data = __import__("json").loads(result.stdout)
    assert data["engine"] == "django.db.backends.postgresql"
    assert data["name"] == "test"
    assert data["eager"] is False
    assert data["tz"] == "Europe/Paris"


def test_production_refuses_to_start_without_a_real_secret_key() -> None:
    result = load("production")
    assert result.returncode != 0
    assert "SECRET_KEY must be set" in result.stderr
    short = load("production", SECRET_KEY="short")
    assert short.returncode != 0


def test_production_starts_with_a_real_secret_key() -> None:
    result = load("production", SECRET_KEY="x" * 50)
    assert result.returncode == 0, result.stderr
    assert __import__("json").loads(result.stdout)["debug"] is False
