"""Production: a real secret key is required; secure cookies and headers."""

from django.core.exceptions import ImproperlyConfigured

from .base import *  # noqa: F403
from .base import INSECURE_SECRET_KEY, env

SECRET_KEY = env.str("SECRET_KEY", default="")
if not SECRET_KEY or SECRET_KEY == INSECURE_SECRET_KEY or len(SECRET_KEY) < 32:
    raise ImproperlyConfigured(
        "SECRET_KEY must be set to a real secret (at least 32 characters) in production settings."
    )
DEBUG = env.bool("DEBUG", default=False)
SESSION_COOKIE_SECURE = env.bool("SESSION_COOKIE_SECURE", default=True)
CSRF_COOKIE_SECURE = env.bool("CSRF_COOKIE_SECURE", default=True)
SECURE_CONTENT_TYPE_NOSNIFF = True
SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
SECURE_SSL_REDIRECT = env.bool("SECURE_SSL_REDIRECT", default=False)
SECURE_HSTS_SECONDS = env.int("SECURE_HSTS_SECONDS", default=0)

# Several web processes must share the cache: the live pages' change stamps, the per-address log-in
# counter and the PDF cache live there. Without CACHE_URL, a Redis broker doubles as the cache
# (its own key prefix); with neither, each process keeps its own (fine for a single process only).
if not CACHE_URL and (CELERY_BROKER_URL or "").startswith(("redis://", "rediss://")):  # noqa: F405
    CACHES = {"default": {"BACKEND": "django.core.cache.backends.redis.RedisCache",
                          "LOCATION": CELERY_BROKER_URL, "KEY_PREFIX": "cache"}}  # noqa: F405
