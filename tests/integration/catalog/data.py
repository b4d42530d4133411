"""A small code catalog for tests: nesting three deep, parents and top-level leaves, Korean and English."""

from integration.models import CatalogSnapshot


def _node(code, ko, en, *children):
    return (code, ko, en, children)


TREE = {
    "classification": [
        _node("hotel", "호텔", "Hotel", _node("hotel.business", "비즈니스호텔", "Business hotel")),
        _node("motel", "모텔", "Motel"),
        _node(
            "pension",
            "펜션",
            "Pension",
            _node("pension.pool_villa", "풀빌라", "Pool villa", _node("pension.pool_villa.private", "독채", "Private")),
        ),
    ],
    "property": [_node("family", "가족여행", "Family trip")],
    "facility": [
        _node("pool", "수영장", "Pool", _node("pool.outdoor", "야외 수영장", "Outdoor pool")),
        _node("parking", "주차장", "Parking"),
        _node("wifi", "와이파이", "Wi-Fi"),
    ],
    "service": [_node("breakfast", "조식", "Breakfast")],
    "attraction": [_node("beach", "해변", "Beach")],
    "roomtype": [_node("ondol", "온돌", "Ondol")],
    "amenity": [_node("bathtub", "욕조", "Bathtub")],
    "view": [_node("ocean", "바다 전망", "Ocean view"), _node("garden", "정원 전망", "Garden view")],
}


def _render(nodes, index):
    rendered = []
    for code, ko, en, children in nodes:
        node = {"code": code, "name": (ko, en)[index]}
        if children:
            node["children"] = _render(children, index)
        rendered.append(node)
    return rendered


def catalog_answer(locale="ko-KR", tree=None):
    """The "data" object of GET /meta for the locale."""
    index = 0 if locale == "ko-KR" else 1
    return {group: _render(nodes, index) for group, nodes in (tree or TREE).items()}


def store_catalog(tree=None):
    """Store the catalog as the latest snapshot and return it."""
    return CatalogSnapshot.objects.create(data={locale: catalog_answer(locale, tree) for locale in ("ko-KR", "en-US")})
