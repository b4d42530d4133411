"""Who may manage which property: a person's role per property."""

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _

from ..content.models import Property
from .choices import MembershipRole


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
