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
