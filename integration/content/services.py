"""Writes of content, one function per use case."""

from django.contrib.auth.models import User
from django.db import transaction
from django.db.models import Model

from ..access.choices import MembershipRole
from ..access.services import membership_grant
from ..sync.services.outbox import sync_mark_changed
from .models import Property


@transaction.atomic
def content_saved(*, obj: Model, created: bool, user: User) -> None:
    """After a property, room type, rate plan model or rate plan was saved with its translations and
    photos: mark it for the hub in the same transaction. Whoever creates a property manages it."""
    if created and isinstance(obj, Property) and not user.is_superuser:
        membership_grant(user=user, property=obj, role=MembershipRole.MANAGER, by=user)
    sync_mark_changed(obj)
