"""``{% link_tools url label %}``: a long link (a table's scoring link, an invitation) as the link itself,
wrapped, with a copy button and a QR code to show on the screen (issue 28: no clipped input)."""

from __future__ import annotations

from typing import Any

from django import template

register = template.Library()


@register.inclusion_tag("includes/link_tools.html")
def link_tools(url: str, label: str = "", qr: bool = True) -> dict[str, Any]:
    from tournaments.documents.base import qr_data_uri

    return {"url": url, "label": label, "qr": qr_data_uri(url) if qr and url else ""}
