"""The second factor's pages in the admin (mounted by config.admin_site): setting up an authenticator
app with its QR code and recovery codes, and typing a code after the password."""

from django.contrib import messages
from django.shortcuts import redirect
from django.template.response import TemplateResponse
from django.urls import reverse
from django.utils import timezone
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from .forms import CodeForm
from .lockout import device_remember
from .selectors import (
    enrolment_qr_svg,
    enrolment_secret,
    second_factor_can_verify,
    second_factor_enrolled,
    second_factor_mandatory,
    second_factor_wait_seconds,
)
from .services import (
    enrolment_confirm,
    enrolment_device_ensure,
    recovery_codes_renew,
    second_factor_remove,
    second_factor_verify,
)

#: Where the recovery codes wait, between the POST that made them and the page that shows them once.
_CODES_SESSION_KEY = "accounts.recovery_codes"


def _next_url(request):
    """Where to go after the second factor: next= when it is a page of this site, else the dashboard."""
    target = request.POST.get("next") or request.GET.get("next") or ""
    if url_has_allowed_host_and_scheme(target, allowed_hosts={request.get_host()}, require_https=request.is_secure()):
        return target
    return reverse("admin:index")


def _render(request, site, template, title, **context):
    context = {**site.each_context(request), "title": title, "next": _next_url(request), **context}
    return TemplateResponse(request, f"admin/accounts/{template}", context)


def enrol_view(request, site):
    """GET: set up the app (QR code, key, a field for its first code), or, once set up, the recovery codes
    just made (shown once) and what can be done. POST: confirm the app, renew the codes, or turn it off."""
    user = request.user
    enrolled = second_factor_enrolled(user)
    if enrolled and not user.is_verified():
        # Set up already: this session proves it with a code first.
        return redirect(f"{reverse('admin:second_factor_verify')}?next={reverse('admin:second_factor')}")
    mandatory = second_factor_mandatory(user)
    action = request.POST.get("action") if request.method == "POST" else None
    if enrolled and action == "codes":
        request.session[_CODES_SESSION_KEY] = recovery_codes_renew(user=user)
        return redirect(f"{reverse('admin:second_factor')}?next={_next_url(request)}")
    if enrolled and action == "remove" and not mandatory:
        second_factor_remove(user=user)
        messages.success(request, _("Two-step login is off for your account."))
        return redirect("admin:index")
    if enrolled:
        return _render(
            request,
            site,
            "second_factor.html",
            _("Two-step login"),
            codes=request.session.pop(_CODES_SESSION_KEY, None),
            can_remove=not mandatory,
        )
    device = enrolment_device_ensure(user)
    form = CodeForm(request.POST if action == "confirm" else None)
    if form.is_bound and form.is_valid():
        codes = enrolment_confirm(request=request, device=device, token=form.cleaned_data["code"])
        if codes is not None:
            request.session[_CODES_SESSION_KEY] = codes
            return device_remember(redirect(f"{reverse('admin:second_factor')}?next={_next_url(request)}"), user)
        form.add_error(
            "code", _("That code does not match. Type the code the app shows now (check the time on your phone).")
        )
    return _render(
        request,
        site,
        "second_factor_enrol.html",
        _("Set up two-step login"),
        form=form,
        mandatory=mandatory,
        qr_svg=enrolment_qr_svg(device),
        secret=enrolment_secret(device),
    )


def verify_view(request, site):
    """The code after the password: from the app, or a recovery code; then on to where they were going."""
    if request.user.is_verified():
        return redirect(_next_url(request))
    if not second_factor_can_verify(request.user):
        return redirect(f"{reverse('admin:second_factor')}?next={_next_url(request)}")
    form = CodeForm(request.POST if request.method == "POST" else None)
    if form.is_bound and form.is_valid():
        if second_factor_verify(request=request, token=form.cleaned_data["code"]):
            return device_remember(redirect(_next_url(request)), request.user)
        wait = second_factor_wait_seconds(request.user, now=timezone.now())
        if wait:
            message = ngettext(
                "That code was not accepted. After a wrong code the next one must wait: in %(seconds)d second, "
                "type the code your app shows then, or one of your recovery codes.",
                "That code was not accepted. After wrong codes the next one must wait: in %(seconds)d seconds, "
                "type the code your app shows then, or one of your recovery codes.",
                wait,
            ) % {"seconds": wait}
        else:
            message = _("That code is not right: type the code your app shows now, or one of your recovery codes.")
        form.add_error("code", message)
    return _render(request, site, "second_factor_verify.html", _("Two-step login"), form=form)
