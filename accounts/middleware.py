"""No admin page before the second factor: a person who must pass one (accounts.services) and has
not in this session is sent to set it up or to type a code, and comes back to where they were going."""

from django.shortcuts import redirect
from django.urls import reverse
from django.utils.http import urlencode

from .selectors import second_factor_can_verify, second_factor_required

#: The admin's own pages a person reaches before the second factor (by URL name).
OPEN_PAGES = ("login", "logout", "second_factor", "second_factor_verify", "jsi18n")


class SecondFactorMiddleware:
    """After django-otp's OTPMiddleware (which tells whether the session passed a device)."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        admin_root = reverse("admin:index")
        if request.path.startswith(admin_root) and not request.user.is_verified():
            open_pages = {reverse(f"admin:{name}") for name in OPEN_PAGES}
            if request.path not in open_pages and second_factor_required(request.user):
                page = "admin:second_factor_verify" if second_factor_can_verify(request.user) else "admin:second_factor"
                return redirect(f"{reverse(page)}?{urlencode({'next': request.get_full_path()})}")
        return self.get_response(request)
