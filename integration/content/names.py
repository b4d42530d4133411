"""The one rule for naming content to staff: in English, a room type's or rate plan model's en-US name
where it has one, else the name staff gave it (Korean); in Korean, always that name."""

from django.utils import translation

from .choices import Locale
from .models import RatePlan, RatePlanModel, RoomType

#: The hub locale whose names each interface language shows; other languages show the staff name.
_NAME_LOCALE = {"en": Locale.EN_US}


def display_name(obj):
    """How staff see a room type, rate plan model or rate plan (room type · model) in the active language;
    anything else by its name, or as it names itself.

    Reads obj.translations.all(): lists prefetch them ("translations", or "room_type__translations" and
    "model__translations" for rate plans) to stay at one query.
    """
    if isinstance(obj, RatePlan):
        return f"{display_name(obj.room_type)} · {display_name(obj.model)}"
    locale = _NAME_LOCALE.get((translation.get_language() or "").split("-")[0])
    if locale is not None and isinstance(obj, RoomType | RatePlanModel):
        for text in obj.translations.all():
            if text.locale == locale and text.name.strip():
                return text.name
    return getattr(obj, "name", None) or str(obj)


def display_label(obj):
    """A room type or rate plan named as display_name does, with its vendor id: how forms and cards that list
    a property's content tell two alike names apart."""
    return f"{display_name(obj)} ({obj.vendor_id})"


#: What to prefetch_related for display_name to read no more queries, by model of a list.
NAME_PREFETCHES = {
    RoomType: ("translations",),
    RatePlanModel: ("translations",),
    RatePlan: ("room_type__translations", "model__translations"),
}
