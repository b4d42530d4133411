"""The vendor API's paths, exactly as decision 0010 names them. Numbers are matched as paths so that
any call under /bookings/ gets the JSON answer of decision 0012, even with a "/" in the number."""

from django.urls import path, register_converter

from .api import views


class AnyTextConverter:
    """Any non-empty text, "/" and line breaks included (Django's path converter stops at a line break)."""

    regex = r"[\s\S]+"

    def to_python(self, value):
        return value

    def to_url(self, value):
        return value


register_converter(AnyTextConverter, "booking_number")

urlpatterns = [
    path("bookings", views.BookingCreateView.as_view(), name="booking-create"),
    path("bookings/<booking_number:number>/confirm", views.BookingConfirmView.as_view(), name="booking-confirm"),
    path("bookings/<booking_number:number>/modify", views.BookingModifyView.as_view(), name="booking-modify"),
    path("bookings/<booking_number:number>/cancel", views.BookingCancelView.as_view(), name="booking-cancel"),
    path("bookings/<booking_number:number>", views.BookingDetailView.as_view(), name="booking-detail"),
    path("refund-policy", views.RefundPolicyView.as_view(), name="refund-policy"),
]
