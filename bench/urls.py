"""The product's URLs, plus the booking benchmark's two reference views: the baseline, a minimal DRF view
inserting one row, and the vendor API's shell around that same insert."""

from django.db import connection
from django.urls import path
from rest_framework.response import Response
from rest_framework.views import APIView

from bookings.api.serializers import BookingCreateSerializer
from bookings.api.views import VendorApiView
from config.urls import urlpatterns as product_urlpatterns

BASELINE_TABLE = "bench_baseline"


class BaselineView(APIView):
    """Parse the JSON body and insert it as one row: the least a create on this stack can cost."""

    def post(self, request):
        _insert(request.body)
        return Response({"ok": True})


class ShellView(VendorApiView):
    """What every create pays before any booking logic: the vendor API's authentication (token,
    signature, replay check), the create body's validation and the call log, around the baseline's
    insert. The create can be no cheaper than this."""

    def post(self, request):
        self.validated(BookingCreateSerializer, request.data)
        _insert(request.body)
        return Response({"ok": True})


def _insert(body):
    with connection.cursor() as cursor:
        cursor.execute(f"INSERT INTO {BASELINE_TABLE} (body) VALUES (%s)", [body.decode()])  # noqa: S608


urlpatterns = [
    path("bench/baseline", BaselineView.as_view()),
    path("bench/shell", ShellView.as_view()),
    *product_urlpatterns,
]
