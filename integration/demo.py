"""The demo data `make run` starts with: a realistic property and an admin who manages it."""

import secrets
from dataclasses import dataclass

from django.contrib.auth import get_user_model
from django.db import transaction

from .choices import MembershipRole
from .models import Property
from .services import membership_grant

DEMO_ADMIN_USERNAME = "admin"
DEMO_PROPERTY = {"vendor_id": "demo-seochon-hanok", "name": "서촌 한옥스테이"}


@dataclass(frozen=True)
class DemoSeedResult:
    """What demo_seed did; password is set only when it created the admin user."""

    property: Property
    admin_username: str
    admin_password: str | None


@transaction.atomic
def demo_seed():
    """Create the demo property and admin user where missing; running it again changes nothing."""
    demo_property, _ = Property.objects.get_or_create(
        vendor_id=DEMO_PROPERTY["vendor_id"], defaults={"name": DEMO_PROPERTY["name"]}
    )
    User = get_user_model()
    password = None
    admin = User.objects.filter(username=DEMO_ADMIN_USERNAME).first()
    if admin is None:
        password = secrets.token_urlsafe(12)
        admin = User.objects.create_superuser(username=DEMO_ADMIN_USERNAME, email="", password=password)
    membership_grant(user=admin, property=demo_property, role=MembershipRole.MANAGER)
    return DemoSeedResult(property=demo_property, admin_username=admin.username, admin_password=password)
