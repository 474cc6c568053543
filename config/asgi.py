"""ASGI entry point: HTTP to Django, WebSockets (``ws/…``) to the Channels consumers (``config/routing.py``:
the live pages of tournaments, docs/tournaments.md "Live pages"; online play, docs/online.md). Once loaded
the process tunes its garbage collector for live tables (``config/collector.py``).

`make run` serves it through daphne's runserver; production runs it under gunicorn with uvicorn workers
(README, production). The lifespan startup re-arms online play's stored deadlines (``online/lifespan.py``)."""

import os

from django.core.asgi import get_asgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings.local")
# Django first: the consumers import models, which need the apps loaded.
django_asgi_app = get_asgi_application()

from channels.auth import AuthMiddlewareStack  # noqa: E402
from channels.routing import ProtocolTypeRouter, URLRouter  # noqa: E402
from channels.security.websocket import AllowedHostsOriginValidator  # noqa: E402

from config import collector  # noqa: E402
from config.routing import websocket_urlpatterns  # noqa: E402
from online.lifespan import lifespan  # noqa: E402

application = ProtocolTypeRouter({
    "http": django_asgi_app,
    "websocket": AllowedHostsOriginValidator(AuthMiddlewareStack(URLRouter(websocket_urlpatterns))),
    "lifespan": lifespan,  # a new process takes up the stored deadlines at once (online/lifespan.py)
})

collector.tune()  # the loaded site frozen out of the collector's walks (config/collector.py)
