"""Models of the integration app, where Django loads them from: each area defines its own, and other apps
import them from here. Modules inside integration import from the area's own models module."""

from .access.models import PropertyMembership
from .ari.models import (
    AriCellChange,
    AriChangeSet,
    AriChangeSource,
    AriDirtyRange,
    AriImport,
    AriImportLine,
    AriImportStatus,
    ChannelAvailDay,
    ChannelRateDay,
    RatePlanDay,
    RoomTypeDay,
)
from .ari.models_avail import (
    AriHorizonCheck,
    AriHubDays,
    ChannelAvailRule,
    ChannelAvailRuleChange,
    ChannelLeadDays,
    PropertyCutoff,
    RatePlanDefault,
    RoomTypeDefault,
)
from .catalog.models import CatalogSnapshot, CodeMapping
from .channels.models import ChannelOpenRequest, PropertyChannel, SalesChannel
from .content.models import (
    Property,
    PropertyPhoto,
    PropertyTranslation,
    RatePlan,
    RatePlanModel,
    RatePlanModelTranslation,
    RoomType,
    RoomTypePhoto,
    RoomTypeTranslation,
)
from .drift.models import DriftCheck, DriftDifference
from .hub.models import HubConnection, HubSwitch
from .sync.models import ResourceKind, SyncAttempt, SyncState

__all__ = [
    "RoomTypeDefault",
    "RatePlanDefault",
    "PropertyCutoff",
    "ChannelLeadDays",
    "ChannelAvailRuleChange",
    "ChannelAvailRule",
    "AriHubDays",
    "AriHorizonCheck",
    "AriCellChange",
    "AriChangeSet",
    "AriChangeSource",
    "AriDirtyRange",
    "AriImport",
    "AriImportLine",
    "AriImportStatus",
    "CatalogSnapshot",
    "ChannelAvailDay",
    "ChannelOpenRequest",
    "ChannelRateDay",
    "CodeMapping",
    "DriftCheck",
    "DriftDifference",
    "HubConnection",
    "HubSwitch",
    "Property",
    "PropertyChannel",
    "PropertyMembership",
    "PropertyPhoto",
    "PropertyTranslation",
    "RatePlan",
    "RatePlanDay",
    "RatePlanModel",
    "RatePlanModelTranslation",
    "ResourceKind",
    "RoomType",
    "RoomTypeDay",
    "RoomTypePhoto",
    "RoomTypeTranslation",
    "SalesChannel",
    "SyncAttempt",
    "SyncState",
]
