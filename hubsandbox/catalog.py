"""The sandbox hub's code catalog (GET /gds/vendor/meta): the codes a vendor may use as tags.

Codes are lowercase ASCII segments joined by dots along the tree ("pension", "pension.pool_villa"),
unique within their group. Every node, parent or leaf, is a valid code for its group.
"""

from functools import cache

#: The Locale enum of the spec, in the spec's order.
LOCALES = ("ko-KR", "en-US", "zh-CN", "ja-JP", "vn-VN", "th-TH", "zh-TW")

# A node is (code, name, children); a leaf has no children. Names are Korean: the spec's catalog has one
# name per code, and GET /meta takes no parameter to ask for another language.
_Node = tuple[str, str, tuple["_Node", ...]]


def _node(code: str, name: str, *children: _Node) -> _Node:
    return (code, name, children)


CATALOG: dict[str, tuple[_Node, ...]] = {
    "classification": (
        _node(
            "hotel",
            "호텔",
            _node("hotel.tourist", "관광호텔"),
            _node("hotel.business", "비즈니스호텔"),
            _node("hotel.boutique", "부티크호텔"),
            _node("hotel.resort", "리조트호텔"),
        ),
        _node(
            "resort",
            "리조트·콘도",
            _node("resort.condominium", "콘도미니엄"),
            _node("resort.residence", "레지던스"),
        ),
        _node("motel", "모텔"),
        _node(
            "pension",
            "펜션",
            _node("pension.pool_villa", "풀빌라"),
            _node("pension.spa", "스파펜션"),
            _node("pension.kids", "키즈펜션"),
        ),
        _node(
            "hanok",
            "한옥",
            _node("hanok.stay", "한옥스테이"),
            _node("hanok.traditional_hotel", "한국전통호텔"),
        ),
        _node(
            "guesthouse",
            "게스트하우스",
            _node("guesthouse.hostel", "호스텔"),
            _node("guesthouse.homestay", "민박"),
        ),
        _node(
            "camping",
            "캠핑",
            _node("camping.auto", "오토캠핑"),
            _node("camping.glamping", "글램핑"),
            _node("camping.caravan", "카라반"),
        ),
    ),
    "property": (
        _node(
            "theme",
            "테마",
            _node("theme.family", "가족여행"),
            _node("theme.couple", "커플"),
            _node("theme.pet_friendly", "반려동물 동반"),
            _node("theme.workation", "워케이션"),
        ),
        _node(
            "location",
            "위치",
            _node("location.station", "역세권"),
            _node("location.beachfront", "해변 앞"),
            _node("location.downtown", "도심"),
            _node("location.airport", "공항 인근"),
        ),
        _node(
            "policy",
            "이용 정책",
            _node("policy.no_smoking", "전 객실 금연"),
            _node("policy.kids_welcome", "유아 동반 가능"),
            _node("policy.self_checkin", "셀프 체크인"),
        ),
    ),
    "facility": (
        _node(
            "parking",
            "주차장",
            _node("parking.free", "무료 주차"),
            _node("parking.valet", "발렛파킹"),
            _node("parking.ev_charger", "전기차 충전소"),
        ),
        _node(
            "pool",
            "수영장",
            _node("pool.indoor", "실내 수영장"),
            _node("pool.outdoor", "야외 수영장"),
            _node("pool.infinity", "인피니티풀"),
        ),
        _node(
            "wellness",
            "웰니스",
            _node("wellness.spa", "스파"),
            _node("wellness.sauna", "사우나"),
            _node("wellness.fitness", "피트니스센터"),
            _node("wellness.jjimjilbang", "찜질방"),
        ),
        _node(
            "dining",
            "식음 시설",
            _node("dining.restaurant", "레스토랑"),
            _node("dining.cafe", "카페"),
            _node("dining.bar", "바"),
            _node("dining.bbq", "바비큐장"),
        ),
        _node(
            "convenience",
            "편의 시설",
            _node("convenience.store", "편의점"),
            _node("convenience.laundry", "세탁실"),
            _node("convenience.kids_room", "키즈룸"),
            _node("convenience.karaoke", "노래방"),
        ),
    ),
    "service": (
        _node(
            "front",
            "프런트",
            _node("front.24h", "24시간 프런트"),
            _node("front.luggage", "수하물 보관"),
            _node("front.concierge", "컨시어지"),
        ),
        _node(
            "transport",
            "교통",
            _node("transport.airport_shuttle", "공항 셔틀"),
            _node("transport.station_pickup", "역 픽업"),
        ),
        _node(
            "meal",
            "식사",
            _node("meal.breakfast", "조식 제공"),
            _node("meal.room_service", "룸서비스"),
            _node("meal.bbq_set", "바비큐 세트"),
        ),
        _node("wifi", "무료 와이파이"),
        _node("housekeeping", "객실 청소"),
        _node("morning_call", "모닝콜"),
        _node("bike_rental", "자전거 대여"),
    ),
    "attraction": (
        _node(
            "beach",
            "해변",
            _node("beach.haeundae", "해운대해수욕장"),
            _node("beach.gyeongpo", "경포해변"),
            _node("beach.hyeopjae", "협재해수욕장"),
        ),
        _node(
            "mountain",
            "산",
            _node("mountain.seorak", "설악산"),
            _node("mountain.halla", "한라산"),
            _node("mountain.jiri", "지리산"),
        ),
        _node(
            "heritage",
            "문화유산",
            _node("heritage.gyeongbokgung", "경복궁"),
            _node("heritage.bulguksa", "불국사"),
            _node("heritage.jeonju_hanok_village", "전주한옥마을"),
        ),
        _node(
            "leisure",
            "레저",
            _node("leisure.ski_resort", "스키장"),
            _node("leisure.theme_park", "테마파크"),
            _node("leisure.golf", "골프장"),
        ),
        _node(
            "shopping",
            "쇼핑",
            _node("shopping.traditional_market", "전통시장"),
            _node("shopping.duty_free", "면세점"),
        ),
    ),
    "roomtype": (
        _node(
            "room",
            "객실 유형",
            _node("room.standard", "스탠다드"),
            _node("room.deluxe", "디럭스"),
            _node("room.suite", "스위트"),
            _node("room.family", "패밀리"),
            _node("room.ondol", "온돌"),
            _node("room.dormitory", "도미토리"),
        ),
        _node(
            "layout",
            "구조",
            _node("layout.duplex", "복층"),
            _node("layout.separate_bedroom", "침실 분리"),
            _node("layout.studio", "원룸"),
        ),
        _node(
            "feature",
            "특징",
            _node("feature.private_pool", "개별 수영장"),
            _node("feature.spa_bath", "스파 욕조"),
            _node("feature.terrace", "테라스"),
            _node("feature.private_bbq", "개별 바비큐"),
        ),
    ),
    "amenity": (
        _node(
            "bath",
            "욕실",
            _node("bath.bathtub", "욕조"),
            _node("bath.shower", "샤워부스"),
            _node("bath.toiletries", "어메니티"),
            _node("bath.bidet", "비데"),
            _node("bath.hair_dryer", "헤어드라이어"),
        ),
        _node(
            "appliance",
            "가전",
            _node("appliance.tv", "TV"),
            _node("appliance.refrigerator", "냉장고"),
            _node("appliance.air_conditioner", "에어컨"),
            _node("appliance.microwave", "전자레인지"),
            _node("appliance.washer", "세탁기"),
        ),
        _node(
            "kitchen",
            "주방",
            _node("kitchen.cooktop", "인덕션"),
            _node("kitchen.cookware", "취사도구"),
            _node("kitchen.coffee_machine", "커피머신"),
        ),
        _node("wifi", "와이파이"),
        _node("safe", "객실 금고"),
    ),
    "view": (
        _node(
            "nature",
            "자연 전망",
            _node("nature.ocean", "바다 전망"),
            _node("nature.mountain", "산 전망"),
            _node("nature.river", "강 전망"),
            _node("nature.lake", "호수 전망"),
            _node("nature.forest", "숲 전망"),
        ),
        _node(
            "urban",
            "도시 전망",
            _node("urban.city", "시티뷰"),
            _node("urban.landmark", "랜드마크 전망"),
            _node("urban.night", "야경"),
        ),
        _node("garden", "정원 전망"),
        _node("pool", "수영장 전망"),
        _node("courtyard", "한옥 마당 전망"),
    ),
}

#: The eight groups of the catalog, in the order of the spec's answer.
GROUPS = tuple(CATALOG)


def _render(node: _Node) -> dict:
    code, name, children = node
    rendered: dict[str, object] = {"code": code, "name": name}
    if children:
        rendered["children"] = [_render(child) for child in children]
    return rendered


def catalog_tree() -> dict[str, list[dict]]:
    """The catalog as the hub answers it."""
    return {group: [_render(node) for node in nodes] for group, nodes in CATALOG.items()}


def _codes(nodes: tuple[_Node, ...]):
    for code, _name, children in nodes:
        yield code
        yield from _codes(children)


@cache
def valid_codes(group: str) -> frozenset[str]:
    """Every code, parent or leaf, of one catalog group; what a tag list of that group may hold."""
    return frozenset(_codes(CATALOG[group]))
