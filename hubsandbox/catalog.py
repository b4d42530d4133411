"""The sandbox hub's code catalog (GET /gds/vendor/meta): the codes a vendor may use as tags.

Codes are lowercase ASCII segments joined by dots along the tree ("pension", "pension.pool_villa"),
unique within their group. Every node, parent or leaf, is a valid code for its group.
"""

from functools import cache

#: The Locale enum of the spec, in the spec's order.
LOCALES = ("ko-KR", "en-US", "zh-CN", "ja-JP", "vn-VN", "th-TH", "zh-TW")

# A node is (code, Korean name, English name, children); a leaf has no children.
_Node = tuple[str, str, str, tuple["_Node", ...]]


def _node(code: str, ko: str, en: str, *children: _Node) -> _Node:
    return (code, ko, en, children)


CATALOG: dict[str, tuple[_Node, ...]] = {
    "classification": (
        _node(
            "hotel",
            "호텔",
            "Hotel",
            _node("hotel.tourist", "관광호텔", "Tourist hotel"),
            _node("hotel.business", "비즈니스호텔", "Business hotel"),
            _node("hotel.boutique", "부티크호텔", "Boutique hotel"),
            _node("hotel.resort", "리조트호텔", "Resort hotel"),
        ),
        _node(
            "resort",
            "리조트·콘도",
            "Resort and condominium",
            _node("resort.condominium", "콘도미니엄", "Condominium"),
            _node("resort.residence", "레지던스", "Serviced residence"),
        ),
        _node("motel", "모텔", "Motel"),
        _node(
            "pension",
            "펜션",
            "Pension",
            _node("pension.pool_villa", "풀빌라", "Pool villa"),
            _node("pension.spa", "스파펜션", "Spa pension"),
            _node("pension.kids", "키즈펜션", "Kids pension"),
        ),
        _node(
            "hanok",
            "한옥",
            "Hanok",
            _node("hanok.stay", "한옥스테이", "Hanok stay"),
            _node("hanok.traditional_hotel", "한국전통호텔", "Korean traditional hotel"),
        ),
        _node(
            "guesthouse",
            "게스트하우스",
            "Guesthouse",
            _node("guesthouse.hostel", "호스텔", "Hostel"),
            _node("guesthouse.homestay", "민박", "Homestay"),
        ),
        _node(
            "camping",
            "캠핑",
            "Camping",
            _node("camping.auto", "오토캠핑", "Auto camping"),
            _node("camping.glamping", "글램핑", "Glamping"),
            _node("camping.caravan", "카라반", "Caravan"),
        ),
    ),
    "property": (
        _node(
            "theme",
            "테마",
            "Themes",
            _node("theme.family", "가족여행", "Family trip"),
            _node("theme.couple", "커플", "Couples"),
            _node("theme.pet_friendly", "반려동물 동반", "Pet friendly"),
            _node("theme.workation", "워케이션", "Workation"),
        ),
        _node(
            "location",
            "위치",
            "Location",
            _node("location.station", "역세권", "Near a station"),
            _node("location.beachfront", "해변 앞", "Beachfront"),
            _node("location.downtown", "도심", "Downtown"),
            _node("location.airport", "공항 인근", "Near the airport"),
        ),
        _node(
            "policy",
            "이용 정책",
            "Policies",
            _node("policy.no_smoking", "전 객실 금연", "Non-smoking throughout"),
            _node("policy.kids_welcome", "유아 동반 가능", "Children welcome"),
            _node("policy.self_checkin", "셀프 체크인", "Self check-in"),
        ),
    ),
    "facility": (
        _node(
            "parking",
            "주차장",
            "Parking",
            _node("parking.free", "무료 주차", "Free parking"),
            _node("parking.valet", "발렛파킹", "Valet parking"),
            _node("parking.ev_charger", "전기차 충전소", "EV charger"),
        ),
        _node(
            "pool",
            "수영장",
            "Swimming pool",
            _node("pool.indoor", "실내 수영장", "Indoor pool"),
            _node("pool.outdoor", "야외 수영장", "Outdoor pool"),
            _node("pool.infinity", "인피니티풀", "Infinity pool"),
        ),
        _node(
            "wellness",
            "웰니스",
            "Wellness",
            _node("wellness.spa", "스파", "Spa"),
            _node("wellness.sauna", "사우나", "Sauna"),
            _node("wellness.fitness", "피트니스센터", "Fitness centre"),
            _node("wellness.jjimjilbang", "찜질방", "Jjimjilbang"),
        ),
        _node(
            "dining",
            "식음 시설",
            "Dining",
            _node("dining.restaurant", "레스토랑", "Restaurant"),
            _node("dining.cafe", "카페", "Café"),
            _node("dining.bar", "바", "Bar"),
            _node("dining.bbq", "바비큐장", "Barbecue area"),
        ),
        _node(
            "convenience",
            "편의 시설",
            "Conveniences",
            _node("convenience.store", "편의점", "Convenience store"),
            _node("convenience.laundry", "세탁실", "Laundry room"),
            _node("convenience.kids_room", "키즈룸", "Kids' room"),
            _node("convenience.karaoke", "노래방", "Karaoke room"),
        ),
    ),
    "service": (
        _node(
            "front",
            "프런트",
            "Front desk",
            _node("front.24h", "24시간 프런트", "24-hour front desk"),
            _node("front.luggage", "수하물 보관", "Luggage storage"),
            _node("front.concierge", "컨시어지", "Concierge"),
        ),
        _node(
            "transport",
            "교통",
            "Transport",
            _node("transport.airport_shuttle", "공항 셔틀", "Airport shuttle"),
            _node("transport.station_pickup", "역 픽업", "Station pick-up"),
        ),
        _node(
            "meal",
            "식사",
            "Meals",
            _node("meal.breakfast", "조식 제공", "Breakfast served"),
            _node("meal.room_service", "룸서비스", "Room service"),
            _node("meal.bbq_set", "바비큐 세트", "Barbecue set"),
        ),
        _node("wifi", "무료 와이파이", "Free Wi-Fi"),
        _node("housekeeping", "객실 청소", "Housekeeping"),
        _node("morning_call", "모닝콜", "Wake-up call"),
        _node("bike_rental", "자전거 대여", "Bicycle rental"),
    ),
    "attraction": (
        _node(
            "beach",
            "해변",
            "Beaches",
            _node("beach.haeundae", "해운대해수욕장", "Haeundae Beach"),
            _node("beach.gyeongpo", "경포해변", "Gyeongpo Beach"),
            _node("beach.hyeopjae", "협재해수욕장", "Hyeopjae Beach"),
        ),
        _node(
            "mountain",
            "산",
            "Mountains",
            _node("mountain.seorak", "설악산", "Seoraksan"),
            _node("mountain.halla", "한라산", "Hallasan"),
            _node("mountain.jiri", "지리산", "Jirisan"),
        ),
        _node(
            "heritage",
            "문화유산",
            "Heritage",
            _node("heritage.gyeongbokgung", "경복궁", "Gyeongbokgung Palace"),
            _node("heritage.bulguksa", "불국사", "Bulguksa Temple"),
            _node("heritage.jeonju_hanok_village", "전주한옥마을", "Jeonju Hanok Village"),
        ),
        _node(
            "leisure",
            "레저",
            "Leisure",
            _node("leisure.ski_resort", "스키장", "Ski resort"),
            _node("leisure.theme_park", "테마파크", "Theme park"),
            _node("leisure.golf", "골프장", "Golf course"),
        ),
        _node(
            "shopping",
            "쇼핑",
            "Shopping",
            _node("shopping.traditional_market", "전통시장", "Traditional market"),
            _node("shopping.duty_free", "면세점", "Duty-free shop"),
        ),
    ),
    "roomtype": (
        _node(
            "room",
            "객실 유형",
            "Room types",
            _node("room.standard", "스탠다드", "Standard"),
            _node("room.deluxe", "디럭스", "Deluxe"),
            _node("room.suite", "스위트", "Suite"),
            _node("room.family", "패밀리", "Family"),
            _node("room.ondol", "온돌", "Ondol (floor heating)"),
            _node("room.dormitory", "도미토리", "Dormitory"),
        ),
        _node(
            "layout",
            "구조",
            "Layout",
            _node("layout.duplex", "복층", "Duplex"),
            _node("layout.separate_bedroom", "침실 분리", "Separate bedroom"),
            _node("layout.studio", "원룸", "Studio"),
        ),
        _node(
            "feature",
            "특징",
            "Features",
            _node("feature.private_pool", "개별 수영장", "Private pool"),
            _node("feature.spa_bath", "스파 욕조", "Spa bath"),
            _node("feature.terrace", "테라스", "Terrace"),
            _node("feature.private_bbq", "개별 바비큐", "Private barbecue"),
        ),
    ),
    "amenity": (
        _node(
            "bath",
            "욕실",
            "Bathroom",
            _node("bath.bathtub", "욕조", "Bathtub"),
            _node("bath.shower", "샤워부스", "Shower"),
            _node("bath.toiletries", "어메니티", "Toiletries"),
            _node("bath.bidet", "비데", "Bidet"),
            _node("bath.hair_dryer", "헤어드라이어", "Hair dryer"),
        ),
        _node(
            "appliance",
            "가전",
            "Appliances",
            _node("appliance.tv", "TV", "TV"),
            _node("appliance.refrigerator", "냉장고", "Refrigerator"),
            _node("appliance.air_conditioner", "에어컨", "Air conditioner"),
            _node("appliance.microwave", "전자레인지", "Microwave"),
            _node("appliance.washer", "세탁기", "Washing machine"),
        ),
        _node(
            "kitchen",
            "주방",
            "Kitchen",
            _node("kitchen.cooktop", "인덕션", "Induction cooktop"),
            _node("kitchen.cookware", "취사도구", "Cookware"),
            _node("kitchen.coffee_machine", "커피머신", "Coffee machine"),
        ),
        _node("wifi", "와이파이", "Wi-Fi"),
        _node("safe", "객실 금고", "In-room safe"),
    ),
    "view": (
        _node(
            "nature",
            "자연 전망",
            "Nature views",
            _node("nature.ocean", "바다 전망", "Ocean view"),
            _node("nature.mountain", "산 전망", "Mountain view"),
            _node("nature.river", "강 전망", "River view"),
            _node("nature.lake", "호수 전망", "Lake view"),
            _node("nature.forest", "숲 전망", "Forest view"),
        ),
        _node(
            "urban",
            "도시 전망",
            "City views",
            _node("urban.city", "시티뷰", "City view"),
            _node("urban.landmark", "랜드마크 전망", "Landmark view"),
            _node("urban.night", "야경", "Night view"),
        ),
        _node("garden", "정원 전망", "Garden view"),
        _node("pool", "수영장 전망", "Pool view"),
        _node("courtyard", "한옥 마당 전망", "Courtyard view"),
    ),
}

#: The eight groups of the catalog, in the order of the spec's answer.
GROUPS = tuple(CATALOG)


def _render(node: _Node, korean: bool) -> dict:
    code, ko, en, children = node
    rendered = {"code": code, "name": ko if korean else en}
    if children:
        rendered["children"] = [_render(child, korean) for child in children]
    return rendered


def catalog_tree(locale: str = "ko-KR") -> dict[str, list[dict]]:
    """The catalog as the hub answers it, names in Korean for ko-KR and in English for every other locale."""
    korean = locale == "ko-KR"
    return {group: [_render(node, korean) for node in nodes] for group, nodes in CATALOG.items()}


def _codes(nodes: tuple[_Node, ...]):
    for code, _ko, _en, children in nodes:
        yield code
        yield from _codes(children)


@cache
def valid_codes(group: str) -> frozenset[str]:
    """Every code, parent or leaf, of one catalog group; what a tag list of that group may hold."""
    return frozenset(_codes(CATALOG[group]))
