"""Top-level URLs: pages (language-neutral paths, language from the switcher), admin, API, health."""

from django.contrib import admin
from django.contrib.auth import views as auth_views
from django.urls import URLPattern, URLResolver, include, path
from django.views.generic import TemplateView
from drf_spectacular.views import SpectacularAPIView, SpectacularSwaggerView

from config.health import healthz
from config.views import ApiRootView, ObtainTokenView

api_v1: list[URLPattern | URLResolver] = [
    path("", ApiRootView.as_view(), name="api-root"),
    path("schema/", SpectacularAPIView.as_view(), name="api-schema"),
    path("docs/", SpectacularSwaggerView.as_view(url_name="api-schema"), name="api-docs"),
    path("auth/token/", ObtainTokenView.as_view(), name="api-token"),
    path("", include("rules_web.api_urls")),
    path("", include("tournaments.api_urls")),
]

urlpatterns = [
    path("", TemplateView.as_view(template_name="home.html"), name="home"),
    path("healthz", healthz, name="healthz"),
    path("i18n/", include("django.conf.urls.i18n")),
    path("accounts/login/", auth_views.LoginView.as_view(), name="login"),
    path("accounts/logout/", auth_views.LogoutView.as_view(), name="logout"),
    path("admin/", admin.site.urls),
    path("api/v1/", include(api_v1)),
    path("play/", include("online.urls")),
    path("", include("rules_web.urls")),
    path("", include("tournaments.urls")),
    path("", include("tournaments.print_urls")),
]

handler400 = "config.views.bad_request"
handler403 = "config.views.permission_denied"
handler404 = "config.views.not_found"
handler500 = "config.views.server_error"
