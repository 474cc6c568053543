"""A second, higher log-in limit per address, across user names.

django-axes locks a (user name, address) pair after ``AXES_FAILURE_LIMIT`` (5) failures. One
limit for the whole address would lock a venue behind one router out after five typos, so the
address gets its own counter here: after ``LOGIN_ADDRESS_FAILURE_LIMIT`` (30) failures from one
address — whatever the user names — every log-in from it is refused (429, the same page and JSON
answer as axes) for ``AXES_COOLOFF_MINUTES``. Other addresses are not affected. The address is
``safety.client_ip.client_ip`` (``TRUSTED_PROXY_HEADER`` behind a proxy).

The counter lives in the cache (one key per address, expiring with the cool-off); with several
processes the cache must be shared (Redis, the database cache) for the limit to hold across them.
A successful log-in does not reset it (an attacker's own account must not clear the count).
"""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.contrib.auth.signals import user_login_failed
from django.core.cache import cache
from django.core.exceptions import PermissionDenied
from django.dispatch import receiver

from safety.client_ip import client_ip

PREFIX = "login-address-failures:"


def limit() -> int:
    return int(getattr(settings, "LOGIN_ADDRESS_FAILURE_LIMIT", 30))


def cooloff_seconds() -> int:
    hours = getattr(settings, "AXES_COOLOFF_TIME", 0.25)
    return max(60, int(float(hours if isinstance(hours, int | float) else 0.25) * 3600))


def failures(address: str) -> int:
    return int(cache.get(PREFIX + address, 0))


def is_locked(request: Any) -> bool:
    return request is not None and failures(client_ip(request)) >= limit()


def _mark_locked(request: Any, credentials: dict[str, Any] | None) -> None:
    """What django-axes sets on a locked-out request: its middleware and the token view answer 429."""
    request.axes_locked_out = True
    request.axes_credentials = credentials or {}


@receiver(user_login_failed, dispatch_uid="safety.login_limit.count_failure")
def count_failure(sender: Any, credentials: dict[str, Any], request: Any = None, **kwargs: Any) -> None:
    if request is None:
        return
    key = PREFIX + client_ip(request)
    try:
        count = cache.incr(key)
    except ValueError:  # first failure of this address in the cool-off window
        cache.add(key, 0, cooloff_seconds())
        count = cache.incr(key)
    if count >= limit():
        _mark_locked(request, credentials)


class AddressLimitBackend:
    """First in ``AUTHENTICATION_BACKENDS``: refuses every log-in from an address over the limit."""

    def authenticate(self, request: Any, username: str | None = None, **kwargs: Any) -> Any:
        if is_locked(request):
            _mark_locked(request, {"username": username})
            raise PermissionDenied("too many failed log-ins from this address")
        return None

    def get_user(self, user_id: Any) -> Any:
        # Sessions name the first backend (``force_login`` too): read the user as ModelBackend does.
        from django.contrib.auth.backends import ModelBackend

        return ModelBackend().get_user(user_id)
