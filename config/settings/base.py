"""Settings shared by every mode.

The environment is read here and only here (django-environ). Every setting is listed in README.md.
"""

from pathlib import Path

import environ
from django.utils.translation import gettext_lazy as _

BASE_DIR = Path(__file__).resolve().parent.parent.parent

env = environ.Env()
# A local ``.env`` file is optional; real environment variables always win.
env.read_env(BASE_DIR / ".env", overwrite=False)

# Local-use defaults only; production.py refuses to start with this key.
INSECURE_SECRET_KEY = "django-insecure-local-only-do-not-use-in-production"
SECRET_KEY = env.str("SECRET_KEY", default=INSECURE_SECRET_KEY)
DEBUG = env.bool("DEBUG", default=False)
ALLOWED_HOSTS = env.list("ALLOWED_HOSTS", default=["127.0.0.1", "localhost", "[::1]", "testserver"])
CSRF_TRUSTED_ORIGINS = env.list("CSRF_TRUSTED_ORIGINS", default=[])
# The site's public address, for links printed on paper (QR codes on score sheets) made outside a request.
SITE_URL = env.str("SITE_URL", default="http://127.0.0.1:8000")

INSTALLED_APPS = [
    # First: `manage.py runserver` is then Channels' ASGI server (pages, API and WebSockets in one process).
    "daphne",
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "whitenoise.runserver_nostatic",
    "django.contrib.staticfiles",
    "rest_framework",
    "rest_framework.authtoken",
    "drf_spectacular",
    "drf_spectacular_sidecar",  # Swagger UI and Redoc served by the site (the API docs work offline)
    "django_htmx",
    "axes",
    "rules_web.apps.RulesWebConfig",
    "tournaments.apps.TournamentsConfig",
    "safety.apps.SafetyConfig",
    "channels",
    "online.apps.OnlineConfig",
]

MIDDLEWARE = [
    # First: refuses %00 in the address and bodies over the size limit before anything reads them.
    "safety.middleware.RequestGuardMiddleware",
    "django.middleware.security.SecurityMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.locale.LocaleMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "django_htmx.middleware.HtmxMiddleware",
    # Last: refuses logins from a username + address that failed too often.
    "axes.middleware.AxesMiddleware",
]

AUTHENTICATION_BACKENDS = [
    # Refuses every log-in from an address with LOGIN_ADDRESS_FAILURE_LIMIT failures (any user names).
    "safety.login_limit.AddressLimitBackend",
    "axes.backends.AxesStandaloneBackend",
    "django.contrib.auth.backends.ModelBackend",
]
# Login rate limits, two of them, refused with 429 for AXES_COOLOFF_MINUTES even with the right password:
# - AXES_FAILURE_LIMIT failures for one user name from one address lock that user name there (axes);
# - LOGIN_ADDRESS_FAILURE_LIMIT failures from one address, across all user names, lock the address
#   (safety.login_limit), so guessing many names does not help, while a venue behind one router is
#   not locked out by a few typos. Another address is not affected by either.
AXES_FAILURE_LIMIT = env.int("AXES_FAILURE_LIMIT", default=5)
AXES_COOLOFF_TIME = env.float("AXES_COOLOFF_MINUTES", default=15.0) / 60  # hours
AXES_LOCKOUT_PARAMETERS = [["username", "ip_address"]]
LOGIN_ADDRESS_FAILURE_LIMIT = env.int("LOGIN_ADDRESS_FAILURE_LIMIT", default=30)
# The client address: from TRUSTED_PROXY_HEADER (set by the proxy in front of the site, e.g.
# X-Forwarded-For; the entry TRUSTED_PROXY_COUNT places from the right), else REMOTE_ADDR. Without
# this behind a proxy, every visitor has the proxy's address and one attacker locks everyone out.
TRUSTED_PROXY_HEADER = env.str("TRUSTED_PROXY_HEADER", default="")
TRUSTED_PROXY_COUNT = env.int("TRUSTED_PROXY_COUNT", default=1)
AXES_CLIENT_IP_CALLABLE = "safety.client_ip.client_ip"
AXES_RESET_ON_SUCCESS = True
AXES_HTTP_RESPONSE_CODE = 429
AXES_LOCKOUT_TEMPLATE = "registration/locked_out.html"
AXES_VERBOSE = False

ROOT_URLCONF = "config.urls"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.debug",
                "django.template.context_processors.request",
                "django.template.context_processors.i18n",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
            ],
        },
    },
]

WSGI_APPLICATION = "config.wsgi.application"
ASGI_APPLICATION = "config.asgi.application"

# The embedded default is a SQLite file in the project folder.
DATABASES = {
    "default": env.db_url("DATABASE_URL", default=f"sqlite:///{BASE_DIR / 'db.sqlite3'}"),
}
DATABASES["default"]["ATOMIC_REQUESTS"] = False
if DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3":
    # Wait for a busy writer instead of failing at once; start write transactions immediately.
    DATABASES["default"].setdefault("OPTIONS", {}).update({"timeout": 20, "transaction_mode": "IMMEDIATE"})
else:
    DATABASES["default"]["CONN_MAX_AGE"] = env.int("CONN_MAX_AGE", default=60)
    DATABASES["default"]["CONN_HEALTH_CHECKS"] = True

DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]
LOGIN_URL = "login"
LOGIN_REDIRECT_URL = "home"
LOGOUT_REDIRECT_URL = "home"

# Internationalisation: 简体中文 and English, switcher on every page.
LANGUAGE_CODE = env.str("LANGUAGE_CODE", default="en")
LANGUAGES = [("en", _("English")), ("zh-hans", _("Simplified Chinese"))]
LOCALE_PATHS = [BASE_DIR / "locale"]
TIME_ZONE = env.str("TIME_ZONE", default="Asia/Shanghai")
USE_I18N = True
USE_TZ = True

STATIC_URL = "static/"
STATIC_ROOT = BASE_DIR / "staticfiles"
STATICFILES_DIRS = [BASE_DIR / "static"]
MEDIA_URL = "media/"
MEDIA_ROOT = Path(env.str("MEDIA_ROOT", default=str(BASE_DIR / "media")))
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {"BACKEND": "whitenoise.storage.CompressedManifestStaticFilesStorage"},
}

REST_FRAMEWORK = {
    "DEFAULT_SCHEMA_CLASS": "drf_spectacular.openapi.AutoSchema",
    "DEFAULT_AUTHENTICATION_CLASSES": [
        # Token first: an unauthenticated request then gets 401 with a WWW-Authenticate header.
        "rest_framework.authentication.TokenAuthentication",
        "rest_framework.authentication.SessionAuthentication",
    ],
    "DEFAULT_PERMISSION_CLASSES": ["rest_framework.permissions.IsAuthenticatedOrReadOnly"],
    "DEFAULT_PARSER_CLASSES": [
        "safety.parsers.DepthLimitedJSONParser",
        "rest_framework.parsers.FormParser",
        "rest_framework.parsers.MultiPartParser",
    ],
    "DEFAULT_PAGINATION_CLASS": "rest_framework.pagination.PageNumberPagination",
    "PAGE_SIZE": 100,
    "DEFAULT_RENDERER_CLASSES": ["rest_framework.renderers.JSONRenderer", "rest_framework.renderers.BrowsableAPIRenderer"],
    "EXCEPTION_HANDLER": "config.api.exception_handler",
}
SPECTACULAR_SETTINGS = {
    "TITLE": "Shengji tournaments API",
    "DESCRIPTION": "Tournaments, scoring and the rules referee for the 升级 (Shengji / Tractor) family.",
    "VERSION": "1.0.0",
    "SERVE_INCLUDE_SCHEMA": False,
    "COMPONENT_SPLIT_REQUEST": True,
    # /api/v1/docs/ loads Swagger UI from the site's static files, never from a CDN.
    "SWAGGER_UI_DIST": "SIDECAR",
    "SWAGGER_UI_FAVICON_HREF": "SIDECAR",
    "REDOC_DIST": "SIDECAR",
    # One name per choice set shared by several serializers.
    "ENUM_NAME_OVERRIDES": {
        "TournamentStatusEnum": "tournaments.models.Tournament.Status",
        "VariantEnum": "variants.VARIANT_KEYS",
        "SeedingEnum": ["manual", "rating", "random"],  # Stage.Seeding (a drift fails the schema test)
        "PlayedEnum": ["physical", "online"],  # tournaments.models.Played (where a stage is played)
    },
}

# Online play (docs/online.md): Channels on ASGI. Without CHANNEL_REDIS_URL the channel layer lives in the
# process's memory (one process: `make run`); with it (redis://…) several ASGI processes share the groups.
ASGI_APPLICATION = "config.asgi.application"
CHANNEL_REDIS_URL = env.str("CHANNEL_REDIS_URL", default="")
# channels-redis's Pub/Sub layer by default (one PUBLISH a message: about half the CPU of two web processes at
# 50–200 rooms in bench/online.py); false takes its list layer (a queue per channel kept in Redis).
CHANNEL_REDIS_PUBSUB = env.bool("CHANNEL_REDIS_PUBSUB", default=True)
CHANNEL_LAYERS = (
    {"default": {"BACKEND": "channels_redis.pubsub.RedisPubSubChannelLayer",
                 "CONFIG": {"hosts": [{"address": CHANNEL_REDIS_URL, "socket_connect_timeout": 2}]}}}
    if CHANNEL_REDIS_URL and CHANNEL_REDIS_PUBSUB else
    # socket_timeout above channels-redis's 5 s blocking read (BZPOPMIN): redis-py 8's default of 5 s made
    # the consumers' receive fail with "Timeout reading from …" after 5 quiet seconds, closing every socket.
    {"default": {"BACKEND": "channels_redis.core.RedisChannelLayer",
                 "CONFIG": {"hosts": [{"address": CHANNEL_REDIS_URL, "socket_timeout": 15,
                                       "socket_connect_timeout": 2}], "capacity": 1500, "expiry": 30}}}
    if CHANNEL_REDIS_URL else {"default": {"BACKEND": "online.layers.SweptInMemoryChannelLayer"}}
)
# A bot seat (or 托管) acts this many milliseconds after its turn comes, so people can follow the play.
ONLINE_BOT_DELAY_MS = env.int("ONLINE_BOT_DELAY_MS", default=700)
# A disconnected player's turn at a table without a clock waits this long (a reload, a tunnel) before 托管.
ONLINE_ABSENT_SECONDS = env.int("ONLINE_ABSENT_SECONDS", default=20)
# Dealing at a visible pace: milliseconds between two rounds of cards (one card to each seat).
ONLINE_DEAL_INTERVAL_MS = env.int("ONLINE_DEAL_INTERVAL_MS", default=150)
# Threads an ASGI process runs table sockets and ticks on (each holds a database connection); PostgreSQL
# only: on SQLite Channels' one sync thread is kept (online/threads.py). Four measured best at 200 rooms
# (bench/online.py: more threads only fight over the interpreter's lock; fewer wait on the database).
ONLINE_TABLE_THREADS = env.int("ONLINE_TABLE_THREADS", default=4)
# The ASGI process's garbage collector (config/collector.py): the code loaded at start is frozen out of the
# collector's walks and its youngest generation is collected after this many allocations (0: Python's own).
GC_GEN0_THRESHOLD = env.int("GC_GEN0_THRESHOLD", default=10_000)

# Celery: with no broker URL, tasks run in-process (eager) so the site works with no broker at all.
CELERY_BROKER_URL = env.str("CELERY_BROKER_URL", default="") or None
CELERY_RESULT_BACKEND = env.str("CELERY_RESULT_BACKEND", default="") or (
    CELERY_BROKER_URL if CELERY_BROKER_URL else None
)
CELERY_TASK_ALWAYS_EAGER = CELERY_BROKER_URL is None
CELERY_TASK_EAGER_PROPAGATES = True
CELERY_TASK_SERIALIZER = "json"
CELERY_RESULT_SERIALIZER = "json"
CELERY_ACCEPT_CONTENT = ["json"]
CELERY_TASK_TIME_LIMIT = env.int("CELERY_TASK_TIME_LIMIT", default=30 * 60)
CELERY_TASK_SOFT_TIME_LIMIT = env.int("CELERY_TASK_SOFT_TIME_LIMIT", default=25 * 60)
CELERY_TASK_ACKS_LATE = True
CELERY_TASK_REJECT_ON_WORKER_LOST = True
CELERY_WORKER_PREFETCH_MULTIPLIER = 1
CELERY_BROKER_CONNECTION_RETRY_ON_STARTUP = True
# Redis redelivers a message that was taken but not acknowledged after visibility_timeout seconds;
# with late acknowledgement that is how a job whose worker died is picked up again. It must be longer
# than the hard time limit (or a long job still running would be handed to a second worker).
CELERY_BROKER_TRANSPORT_OPTIONS = {
    "socket_connect_timeout": 3,
    "socket_timeout": 5,
    "visibility_timeout": CELERY_TASK_TIME_LIMIT + 5 * 60,
}
CELERY_RESULT_BACKEND_TRANSPORT_OPTIONS = {"socket_connect_timeout": 3, "socket_timeout": 5}
CELERY_TIMEZONE = TIME_ZONE
# Periodic clean-up (expired idempotency keys, later old print jobs); needs `celery beat` running,
# or cron `manage.py cleanup` instead.
CLEANUP_INTERVAL_MINUTES = env.int("CLEANUP_INTERVAL_MINUTES", default=60)
CELERY_BEAT_SCHEDULE = {
    "cleanup": {"task": "safety.cleanup", "schedule": CLEANUP_INTERVAL_MINUTES * 60.0},
    # Online play: tick the rooms whose stored clock or bot deadline passed (missed across a restart).
    "online-sweep": {"task": "online.sweep", "schedule": 5.0},
    # Online tournament matches: the stages' no-show rule (a bot or a forfeit for seats nobody took in time).
    "tournaments-online-no-shows": {"task": "tournaments.online_no_shows", "schedule": 30.0},
}
# On-demand PDFs: kept in the cache (per document, language and results stamp) for this many seconds;
# anonymous visitors may fetch this many PDFs a minute per address (429 with Retry-After beyond).
PDF_CACHE_SECONDS = env.int("PDF_CACHE_SECONDS", default=3600)
# While results keep changing, anonymous visitors get the latest render if younger than this many seconds.
PDF_ANON_MAX_AGE = env.int("PDF_ANON_MAX_AGE", default=60)
# Django's cache also carries each tournament's change stamp, which the live pages poll every second. The
# default (process memory) suits one process; with several web processes set CACHE_URL (redis://…) so
# they share the stamps.
CACHE_URL = env.str("CACHE_URL", default="")
if CACHE_URL:
    CACHES = {"default": {"BACKEND": "django.core.cache.backends.redis.RedisCache", "LOCATION": CACHE_URL}}
PDF_ANON_PER_MINUTE = env.int("PDF_ANON_PER_MINUTE", default=6)
# Anonymous visitors never wait for a render: it runs as a Celery task with a broker; without one, in a
# background thread of the web process (false: at once, in the request — the tests' setting).
PDF_RENDER_THREAD = env.bool("PDF_RENDER_THREAD", default=True)
# Opening a table's link /t/<token>/ grants that table to the browser's session for this many hours
# (the page is then /table/<id>/, without the token).
TABLE_GRANT_HOURS = env.float("TABLE_GRANT_HOURS", default=12.0)
# Finished and failed print jobs (and their PDF files) are deleted by the clean-up after this many days.
PRINT_JOB_KEEP_DAYS = env.float("PRINT_JOB_KEEP_DAYS", default=7.0)
# /healthz asks the workers to answer a ping for this many seconds (only with a broker).
HEALTH_WORKER_PING_TIMEOUT = env.float("HEALTH_WORKER_PING_TIMEOUT", default=1.0)

# Bad input: limits that answer 4xx instead of using up the server.
DATA_UPLOAD_MAX_MEMORY_SIZE = env.int("DATA_UPLOAD_MAX_MEMORY_SIZE", default=2_621_440)  # non-file bodies
FILE_UPLOAD_MAX_MEMORY_SIZE = env.int("FILE_UPLOAD_MAX_MEMORY_SIZE", default=2_621_440)  # larger go to disk
UPLOAD_MAX_BYTES = env.int("UPLOAD_MAX_BYTES", default=10 * 1024 * 1024)  # whole multipart body
JSON_MAX_DEPTH = 64

# Safe retries: how long idempotency keys are kept, and when a reservation whose request never
# finished (a killed process) counts as abandoned.
IDEMPOTENCY_KEY_TTL_HOURS = env.float("IDEMPOTENCY_KEY_TTL_HOURS", default=24.0)
IDEMPOTENCY_STALE_SECONDS = env.int("IDEMPOTENCY_STALE_SECONDS", default=600)

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "formatters": {"plain": {"format": "%(asctime)s %(levelname)s %(name)s: %(message)s"}},
    # Every handler masks table-link tokens and Authorization credentials (config.logging_filters).
    "filters": {"mask_secrets": {"()": "config.logging_filters.MaskSecretsFilter"}},
    "handlers": {"console": {"class": "logging.StreamHandler", "formatter": "plain", "filters": ["mask_secrets"]}},
    "root": {"handlers": ["console"], "level": env.str("LOG_LEVEL", default="INFO")},
    "loggers": {
        "django.db.backends": {"level": "WARNING"},
        # runserver's request lines: through the masking handler, not Django's own unfiltered one.
        "django.server": {"handlers": ["console"], "level": "INFO", "propagate": False},
    },
}
