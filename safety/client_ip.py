"""The client's address, read from a trusted proxy's header when one is configured.

``TRUSTED_PROXY_HEADER`` (e.g. ``X-Forwarded-For``) names the header the proxy in front of the site
sets, and ``TRUSTED_PROXY_COUNT`` how many proxies append to it. The address is the entry that many
places from the right (the one the outermost trusted proxy saw), so addresses a client writes into
the header itself are ignored. Without a header setting, or when the header is missing or not an
address, ``REMOTE_ADDR`` is used. django-axes counts log-in failures per this address
(``AXES_CLIENT_IP_CALLABLE``).
"""

from __future__ import annotations

import ipaddress
from typing import Any

from django.conf import settings


def _valid(address: str) -> str | None:
    address = address.strip()
    if address.startswith("[") and "]" in address:  # [::1]:port
        address = address[1:address.index("]")]
    elif address.count(":") == 1:  # 1.2.3.4:port
        address = address.split(":", 1)[0]
    try:
        return str(ipaddress.ip_address(address))
    except ValueError:
        return None


def client_ip(request: Any) -> str:
    meta = getattr(request, "META", {})
    header = getattr(settings, "TRUSTED_PROXY_HEADER", "") or ""
    if header:
        meta_name = "HTTP_" + header.upper().replace("-", "_")
        value = meta.get(meta_name, "")
        if value:
            entries = [e for e in (part.strip() for part in value.split(",")) if e]
            count = max(1, int(getattr(settings, "TRUSTED_PROXY_COUNT", 1) or 1))
            if entries:
                found = _valid(entries[-count] if len(entries) >= count else entries[0])
                if found:
                    return found
    return _valid(meta.get("REMOTE_ADDR", "") or "") or "0.0.0.0"
