"""``/api/v1/docs/`` works offline: Swagger UI comes from the site's own static files, so with every request
to another host refused the page still lists the operations."""

from __future__ import annotations

import os
from typing import Any
from urllib.parse import urlsplit

import pytest

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]
SCREENSHOTS = os.environ.get("SCREENSHOTS_DIR", "")
LOCAL = {"127.0.0.1", "localhost"}


def test_the_api_docs_load_with_no_outside_network(page: Any, live_server: Any) -> None:
    refused: list[str] = []

    def only_local(route: Any) -> None:
        url = route.request.url
        if urlsplit(url).scheme in ("http", "https", "ws", "wss") and urlsplit(url).hostname not in LOCAL:
            refused.append(url)
            route.abort()
        else:
            route.continue_()

    page.context.route("**/*", only_local)
    page.goto(f"{live_server.url}/api/v1/docs/")
    page.locator(".opblock-summary-path", has_text="/api/v1/scoring/hand").first.wait_for()
    assert page.locator(".opblock").count() > 20
    assert "Shengji tournaments API" in page.locator(".info .title").inner_text()
    assert refused == []  # nothing even tried to leave the machine
    if SCREENSHOTS:
        page.screenshot(path=os.path.join(SCREENSHOTS, "api-docs.png"))
