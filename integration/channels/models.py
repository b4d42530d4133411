"""Sales channels of the hub, each property's status and settings on them, and its requests to open one."""

import builtins
from typing import TYPE_CHECKING

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy as _

from ..content.models import Property
from ..hub.payloads import CHANNEL_CODE_MAX_LENGTH, CHANNEL_COMMENT_MAX_LENGTH
from .choices import ChannelStatus, ChannelType, RequestStatus
from .policy import CMS_SELLS_MAPPED_ONLY

if TYPE_CHECKING:
    from ..sync.models import SyncState

CODE_MAX_LENGTH = CHANNEL_CODE_MAX_LENGTH
COMMENT_MAX_LENGTH = CHANNEL_COMMENT_MAX_LENGTH


class SalesChannel(models.Model):
    """A sales channel of the hub (its id is the hub's), read from the hub's channel list; rates and
    availability may differ per channel."""

    Type = ChannelType

    channel_id = models.PositiveIntegerField(_("hub channel id"), unique=True)
    name = models.CharField(_("name"), max_length=100)
    channel_type = models.CharField(_("channel type"), max_length=3, choices=Type.choices, default=Type.HUB)
    #: False once the hub's list no longer names it: kept for the bookings and values that refer to it.
    listed = models.BooleanField(_("listed by the hub"), default=True)
    #: When the hub's list last named it; empty for a row made by hand before the list was read.
    refreshed_at = models.DateTimeField(_("read from the hub at"), null=True, blank=True)

    class Meta:
        verbose_name = _("sales channel")
        verbose_name_plural = _("sales channels")
        ordering = ["name"]
        constraints = [models.CheckConstraint(condition=Q(channel_id__gte=1), name="channel_id_positive")]

    def __str__(self):
        return f"{self.name} (#{self.channel_id})"

    @property
    def is_cms(self):
        return self.channel_type == ChannelType.CMS


class PropertyChannel(models.Model):
    """A property on one channel: its status as the hub last answered it, what it sells there (the sales
    settings: on_sale, and room types and rate plans switched off), and for a cms channel the channel's
    code of each room type and rate plan. Settings and mapping reach the hub through the outbox."""

    property = models.ForeignKey(
        Property, verbose_name=_("property"), on_delete=models.CASCADE, related_name="sales_channels"
    )
    channel = models.ForeignKey(
        SalesChannel, verbose_name=_("channel"), on_delete=models.CASCADE, related_name="properties"
    )
    status = models.CharField(
        _("status"), max_length=9, choices=ChannelStatus.choices, default=ChannelStatus.CLOSED, db_index=True
    )
    status_read_at = models.DateTimeField(_("status read at"), null=True, blank=True)
    on_sale = models.BooleanField(_("on sale"), default=False)
    #: {vendor room type id: false} for room types not sold on the channel; absent ones are sold.
    room_types = models.JSONField(_("room types on sale"), default=dict, blank=True)
    #: {vendor rate plan id: false} likewise.
    rate_plans = models.JSONField(_("rate plans on sale"), default=dict, blank=True)
    #: cms channels: {vendor room type id: channel code}.
    room_type_codes = models.JSONField(_("room type codes"), default=dict, blank=True)
    #: cms channels: {vendor rate plan id: channel code}.
    rate_plan_codes = models.JSONField(_("rate plan codes"), default=dict, blank=True)
    updated_at = models.DateTimeField(_("updated at"), auto_now=True)

    class Meta:
        verbose_name = _("channel of a property")
        verbose_name_plural = _("channels of properties")
        ordering = ["property", "channel__name"]
        constraints = [models.UniqueConstraint(fields=["property", "channel"], name="property_channel_unique")]

    def __str__(self):
        return f"{self.property} · {self.channel}"

    @builtins.property  # the field named property hides the builtin in this class body
    def is_open(self):
        return self.status == ChannelStatus.OPEN

    def sells_room_type(self, room_type):
        """Whether the channel sells this room type of the property: open, on sale, the room type not
        switched off, and on a cms channel mapped. (All a booking with no rate plan can be checked for.)"""
        room_type_id = room_type.vendor_id
        mapped = not (self.channel.is_cms and CMS_SELLS_MAPPED_ONLY) or room_type_id in self.room_type_codes
        return bool(self.is_open and self.on_sale and self.room_types.get(room_type_id, True) and mapped)

    def sells(self, rate_plan):
        """Whether the channel sells this rate plan of the property: its room type sold there (above),
        the plan not switched off, its model sold on this channel, and on a cms channel the plan mapped."""
        channels = rate_plan.model.channels
        rate_plan_id = rate_plan.vendor_id
        mapped = not (self.channel.is_cms and CMS_SELLS_MAPPED_ONLY) or rate_plan_id in self.rate_plan_codes
        return bool(
            self.sells_room_type(rate_plan.room_type)
            and self.rate_plans.get(rate_plan_id, True)
            and (not channels or self.channel.channel_id in channels)
            and mapped
        )


class ChannelOpenRequest(models.Model):
    """A manager's request to open a channel for a property, as sent, and the hub's review of it."""

    property = models.ForeignKey(
        Property, verbose_name=_("property"), on_delete=models.CASCADE, related_name="channel_requests"
    )
    channel = models.ForeignKey(
        SalesChannel, verbose_name=_("channel"), on_delete=models.CASCADE, related_name="open_requests"
    )
    comment = models.TextField(_("comment"), max_length=COMMENT_MAX_LENGTH, blank=True)
    cms_account_id = models.CharField(_("channel account id"), max_length=CODE_MAX_LENGTH, blank=True)
    cms_property_code = models.CharField(_("property code at the channel"), max_length=CODE_MAX_LENGTH, blank=True)
    hub_id = models.PositiveBigIntegerField(_("hub request id"), null=True, blank=True)
    #: Empty until the hub has accepted the request.
    status = models.CharField(_("review"), max_length=8, choices=RequestStatus.choices, blank=True)
    reason = models.TextField(_("reason"), blank=True)
    hub_created_at = models.DateTimeField(_("received by the hub at"), null=True, blank=True)
    hub_updated_at = models.DateTimeField(_("reviewed at"), null=True, blank=True)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        verbose_name=_("requested by"),
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
    )
    created_at = models.DateTimeField(_("created at"), auto_now_add=True)
    updated_at = models.DateTimeField(_("updated at"), auto_now=True)
    #: Not a field: the request's outbox row, set by channels.selectors for the channels page.
    sync_state: "SyncState | None"

    class Meta:
        verbose_name = _("channel open request")
        verbose_name_plural = _("channel open requests")
        ordering = ["-created_at", "-id"]
        constraints = [
            models.UniqueConstraint(
                fields=["hub_id"], condition=Q(hub_id__isnull=False), name="channel_request_hub_id_unique"
            )
        ]

    def __str__(self):
        return f"{self.channel} · {self.get_status_display() or '-'}"
