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
    AriSeason,
    AriSeasonRange,
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
from .ari.models_prices import (
    ChannelCommission,
    ChannelPriceRule,
    PriceGuard,
    PriceRuleChange,
    PricingSettings,
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
from .hub.models import HubBudgetWindow, HubConnection, HubSwitch
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
    "AriSeason",
    "AriSeasonRange",
    "CatalogSnapshot",
    "ChannelAvailDay",
    "ChannelAvailRule",
    "ChannelAvailRuleChange",
    "ChannelCommission",
    "ChannelLeadDays",
    "ChannelOpenRequest",
    "ChannelPriceRule",
    "ChannelRateDay",
    "CodeMapping",
    "DriftCheck",
    "DriftDifference",
    "HubBudgetWindow",
    "HubConnection",
    "HubSwitch",
    "PriceGuard",
    "PriceRuleChange",
    "PricingSettings",
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
