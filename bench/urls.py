"""The product's URLs, plus the booking benchmark's baseline: a minimal DRF view inserting one row."""

from django.db import connection
from django.urls import path
from rest_framework.response import Response
from rest_framework.views import APIView

from config.urls import urlpatterns as product_urlpatterns

BASELINE_TABLE = "bench_baseline"


class BaselineView(APIView):
    """Parse the JSON body and insert it as one row: the least a create on this stack can cost."""

    def post(self, request):
        with connection.cursor() as cursor:
            cursor.execute(f"INSERT INTO {BASELINE_TABLE} (body) VALUES (%s)", [request.body.decode()])  # noqa: S608
        return Response({"ok": True})


urlpatterns = [path("bench/baseline", BaselineView.as_view()), *product_urlpatterns]
