"""factory_boy factories for the project's models."""

import factory
from django.contrib.auth import get_user_model

from integration.access.services import membership_grant
from integration.content.choices import RatePlanType
from integration.models import Property, RatePlan, RatePlanModel, RoomType

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


class RoomTypeFactory(factory.django.DjangoModelFactory):
    """A room type with sensible stay and occupancy limits."""

    class Meta:
        model = RoomType

    property = factory.SubFactory(PropertyFactory)
    vendor_id = factory.Sequence(lambda n: f"room-{n}")
    name = factory.Sequence(lambda n: f"Room {n}")
    min_stay = 1
    max_stay = 14
    standard_capacity = 2
    max_capacity = 4


class RatePlanModelFactory(factory.django.DjangoModelFactory):
    """A package rate plan model (pass type="standalone" for the property's one standalone)."""

    class Meta:
        model = RatePlanModel

    property = factory.SubFactory(PropertyFactory)
    vendor_id = factory.Sequence(lambda n: f"model-{n}")
    name = factory.Sequence(lambda n: f"Model {n}")
    type = RatePlanType.PACKAGE


class RatePlanFactory(factory.django.DjangoModelFactory):
    """A rate plan of a room type under a model of the same property."""

    class Meta:
        model = RatePlan

    room_type = factory.SubFactory(RoomTypeFactory)
    model = factory.SubFactory(RatePlanModelFactory, property=factory.SelfAttribute("..room_type.property"))
    property = factory.SelfAttribute("room_type.property")
    vendor_id = factory.Sequence(lambda n: f"plan-{n}")


def korean(obj, name=None, **fields):
    """Give obj (a property, room type or rate plan model) its required Korean translation."""
    return obj.translations.create(locale="ko-KR", name=name or f"{obj.name} (ko)", **fields)


def hub_content(prop):
    """A property's full content, as the hub needs it: Korean texts, a room type, the standalone model
    and a package model, and a rate plan for each model."""
    if not prop.translations.filter(locale="ko-KR").exists():
        korean(prop)
    room_type = RoomTypeFactory(property=prop)
    korean(room_type)
    standalone = RatePlanModelFactory(property=prop, type=RatePlanType.STANDALONE)
    package = RatePlanModelFactory(property=prop, breakfast=True)
    for model in (standalone, package):
        korean(model)
    plans = [RatePlanFactory(room_type=room_type, model=model) for model in (standalone, package)]
    return room_type, standalone, package, plans
