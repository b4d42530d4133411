"""The vendor API's JSON parser: strict where Python's json is lenient, so that every odd body is a
ParseError (400 code 3000) and never a crash."""

import json
import math
from collections.abc import Mapping
from typing import IO, Any, NoReturn

from rest_framework.exceptions import ParseError
from rest_framework.parsers import BaseParser

from .limits import MAX_JSON_DEPTH


def _refuse_constant(name: str) -> NoReturn:
    raise ValueError(f"{name} is not JSON")


def _finite_float(text: str) -> float:
    value = float(text)
    if not math.isfinite(value):
        raise ValueError("number out of range")
    return value


def _unique_keys(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    # A key given twice is ambiguous (parsers differ on which one wins, and the hub signed both).
    result = dict(pairs)
    if len(result) != len(pairs):
        raise ValueError("duplicate key")
    return result


def _depth_exceeds(value: object, limit: int) -> bool:
    """Whether value nests arrays and objects deeper than limit (iterative: no recursion to exhaust)."""
    pending: list[tuple[object, int]] = [(value, 1)]
    while pending:
        item, depth = pending.pop()
        if isinstance(item, dict | list):
            if depth > limit:
                return True
            children = item.values() if isinstance(item, dict) else item
            pending.extend((child, depth + 1) for child in children if isinstance(child, dict | list))
    return False


class HubJSONParser(BaseParser):
    """RFC 8259 JSON in UTF-8 whatever charset the header names; refuses NaN and Infinity, numbers beyond
    a float, duplicate keys and nesting deeper than MAX_JSON_DEPTH (Python's json raises RecursionError
    near 1,000 levels; the body size limit keeps anything deeper from being read at all)."""

    media_type = "application/json"

    def parse(
        self, stream: IO[bytes], media_type: str | None = None, parser_context: Mapping[str, Any] | None = None
    ) -> Any:
        try:
            data = json.loads(
                stream.read().decode("utf-8"),
                parse_constant=_refuse_constant,
                parse_float=_finite_float,
                object_pairs_hook=_unique_keys,
            )
        except (ValueError, RecursionError) as error:  # UnicodeDecodeError and JSONDecodeError are ValueErrors
            raise ParseError(f"JSON parse error - {error}") from None
        if _depth_exceeds(data, MAX_JSON_DEPTH):
            raise ParseError("JSON nested too deep")
        return data
