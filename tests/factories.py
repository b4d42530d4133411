"""factory_boy factories for the project's models."""

import factory
from django.contrib.auth import get_user_model

from integration.models import Property
from integration.services import membership_grant

PASSWORD = "correct-horse-battery-staple"


class UserFactory(factory.django.DjangoModelFactory):
    """A user who can log in with PASSWORD."""

    class Meta:
        model = get_user_model()
        skip_postgeneration_save = True

    username = factory.Sequence(lambda n: f"user{n}")
    email = factory.LazyAttribute(lambda user: f"{user.username}@example.com")
    password = factory.PostGenerationMethodCall("set_password", PASSWORD)

    @factory.post_generation
    def _save(obj, create, extracted, **kwargs):
        if create:
            obj.save()


class PropertyFactory(factory.django.DjangoModelFactory):
    """A property with a unique vendor id."""

    class Meta:
        model = Property

    vendor_id = factory.Sequence(lambda n: f"property-{n}")
    name = factory.Sequence(lambda n: f"Property {n}")


def member(prop, role, **user_fields):
    """A new user holding role at prop, made the way the product makes one (membership_grant)."""
    user = UserFactory(**user_fields)
    membership_grant(user=user, property=prop, role=role)
    user.refresh_from_db()
    return user
