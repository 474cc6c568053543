"""Project-wide views."""

from drf_spectacular.utils import extend_schema
from rest_framework.permissions import AllowAny
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.reverse import reverse
from rest_framework.views import APIView


class ApiRootView(APIView):
    """The API root: links to the schema, the docs and every resource."""

    permission_classes = [AllowAny]

    @extend_schema(exclude=True)
    def get(self, request: Request) -> Response:
        from config.api_index import api_links

        links = {"schema": reverse("api-schema", request=request), "docs": reverse("api-docs", request=request)}
        links.update(api_links(request))
        return Response(links)
