"""Models of the integration app: properties and who may manage them."""

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _

from .choices import MembershipRole


class Property(models.Model):
    """A lodging property of the vendor, known to the hub by its vendor id."""

    vendor_id = models.CharField(
        _("vendor property id"),
        max_length=40,
        unique=True,
        help_text=_("Our id for the property at the hub: at most 40 characters, never changed once sent."),
    )
    name = models.CharField(_("name"), max_length=200)
    created_at = models.DateTimeField(_("created at"), auto_now_add=True)
    updated_at = models.DateTimeField(_("updated at"), auto_now=True)

    class Meta:
        verbose_name = _("property")
        verbose_name_plural = _("properties")
        ordering = ["name"]

    def __str__(self):
        return f"{self.name} ({self.vendor_id})"


class PropertyMembership(models.Model):
    """A person's role at one property; it decides what of that property they see in the admin."""

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        verbose_name=_("user"),
        on_delete=models.CASCADE,
        related_name="property_memberships",
    )
    property = models.ForeignKey(
        Property,
        verbose_name=_("property"),
        on_delete=models.CASCADE,
        related_name="memberships",
    )
    role = models.CharField(_("role"), max_length=16, choices=MembershipRole.choices)
    created_at = models.DateTimeField(_("created at"), auto_now_add=True)

    class Meta:
        verbose_name = _("property membership")
        verbose_name_plural = _("property memberships")
        ordering = ["property__name", "user__username"]
        constraints = [
            models.UniqueConstraint(fields=["user", "property"], name="membership_one_role_per_property"),
            models.CheckConstraint(condition=models.Q(role__in=MembershipRole.values), name="membership_role_valid"),
        ]

    def __str__(self):
        return f"{self.user} @ {self.property.vendor_id}: {self.get_role_display()}"
