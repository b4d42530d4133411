"""A small code catalog for tests: nesting three deep, parents and top-level leaves, names as the hub
gives them (Korean)."""

from integration.catalog.selectors import SNAPSHOT_LOCALE
from integration.models import CatalogSnapshot


def _node(code, name, *children):
    return (code, name, children)


TREE = {
    "classification": [
        _node("hotel", "호텔", _node("hotel.business", "비즈니스호텔")),
        _node("motel", "모텔"),
        _node("pension", "펜션", _node("pension.pool_villa", "풀빌라", _node("pension.pool_villa.private", "독채"))),
    ],
    "property": [_node("family", "가족여행")],
    "facility": [
        _node("pool", "수영장", _node("pool.outdoor", "야외 수영장")),
        _node("parking", "주차장"),
        _node("wifi", "와이파이"),
    ],
    "service": [_node("breakfast", "조식")],
    "attraction": [_node("beach", "해변")],
    "roomtype": [_node("ondol", "온돌")],
    "amenity": [_node("bathtub", "욕조")],
    "view": [_node("ocean", "바다 전망"), _node("garden", "정원 전망")],
}


def _render(nodes):
    rendered = []
    for code, name, children in nodes:
        node = {"code": code, "name": name}
        if children:
            node["children"] = _render(children)
        rendered.append(node)
    return rendered


def catalog_answer(tree=None):
    """The "data" object of GET /meta."""
    return {group: _render(nodes) for group, nodes in (tree or TREE).items()}


def store_catalog(tree=None):
    """Store the catalog as the latest snapshot and return it."""
    return CatalogSnapshot.objects.create(data={SNAPSHOT_LOCALE: catalog_answer(tree)})
