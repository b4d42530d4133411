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
    "AriCellChange",
    "AriChangeSet",
    "AriChangeSource",
    "AriDirtyRange",
    "AriHorizonCheck",
    "AriHubDays",
    "AriImport",
    "AriImportLine",
    "AriImportStatus",
    "CatalogSnapshot",
    "ChannelAvailDay",
    "ChannelAvailRule",
    "ChannelAvailRuleChange",
    "ChannelLeadDays",
    "ChannelOpenRequest",
    "ChannelRateDay",
    "CodeMapping",
    "DriftCheck",
    "DriftDifference",
    "HubConnection",
    "HubSwitch",
    "Property",
    "PropertyChannel",
    "PropertyCutoff",
    "PropertyMembership",
    "PropertyPhoto",
    "PropertyTranslation",
    "RatePlan",
    "RatePlanDay",
    "RatePlanDefault",
    "RatePlanModel",
    "RatePlanModelTranslation",
    "ResourceKind",
    "RoomType",
    "RoomTypeDay",
    "RoomTypeDefault",
    "RoomTypePhoto",
    "RoomTypeTranslation",
    "SalesChannel",
    "SyncAttempt",
    "SyncState",
]
