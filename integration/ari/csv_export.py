"""Exporting a property's rates and availability for a date range as a CSV file (the format:
integration.ari.csv_parse), and the lines of an import with errors as a file to correct."""

import re

from core.files.csv_files import CsvLines

from ..content.choices import RatePlanType
from .csv_parse import ARI_CSV_COLUMNS, ARI_CSV_IGNORED, KIND_AVAILABILITY, KIND_RATE, KIND_RATE_MODIFY
from .models import ChannelAvailDay, ChannelRateDay, RatePlanDay, RoomTypeDay
from .selectors.history import ari_import_lines


def ari_csv_export(prop, *, first, last):
    """The lines of the CSV file of prop's rates and availability from first to last (both included):
    the header, then every stored value (common, and each channel's own), grouped by room type and plan.

    A generator for a streaming response; four queries, however long the range."""
    writer = CsvLines()
    # A byte order mark, so that Excel opens the file as UTF-8.
    yield "\ufeff" + writer.line(ARI_CSV_COLUMNS)
    span = {"date__gte": first, "date__lte": last}
    for room_type, day, allotment in (
        RoomTypeDay.objects.filter(room_type__property=prop, **span)
        .order_by("room_type__name", "room_type_id", "date")
        .values_list("room_type__vendor_id", "date", "allotment")
        .iterator()
    ):
        yield writer.line((KIND_AVAILABILITY, room_type, "", "", day.isoformat(), allotment, ""))
    for room_type, channel_id, day, cap in (
        ChannelAvailDay.objects.filter(room_type__property=prop, cap__isnull=False, **span)
        .order_by("room_type__name", "room_type_id", "channel__channel_id", "date")
        .values_list("room_type__vendor_id", "channel__channel_id", "date", "cap")
        .iterator()
    ):
        yield writer.line((KIND_AVAILABILITY, room_type, "", channel_id, day.isoformat(), cap, ""))
    for room_type, plan, plan_type, day, rate, modify, business_day in (
        RatePlanDay.objects.filter(rate_plan__property=prop, **span)
        .order_by("rate_plan__room_type__name", "-rate_plan__model__type", "rate_plan__model__name", "date")
        .values_list(
            "rate_plan__room_type__vendor_id",
            "rate_plan__vendor_id",
            "rate_plan__model__type",
            "date",
            "rate",
            "rate_modify",
            "business_day",
        )
        .iterator()
    ):
        package = plan_type == RatePlanType.PACKAGE
        value = modify if package else rate
        kind = KIND_RATE_MODIFY if package else KIND_RATE
        yield writer.line(
            (kind, room_type, plan, "", day.isoformat(), "" if value is None else value, int(business_day))
        )
    for room_type, plan, plan_type, channel_id, day, rate, modify in (
        ChannelRateDay.objects.filter(rate_plan__property=prop, **span)
        .exclude(rate__isnull=True, rate_modify__isnull=True)
        .order_by(
            "rate_plan__room_type__name",
            "-rate_plan__model__type",
            "rate_plan__model__name",
            "channel__channel_id",
            "date",
        )
        .values_list(
            "rate_plan__room_type__vendor_id",
            "rate_plan__vendor_id",
            "rate_plan__model__type",
            "channel__channel_id",
            "date",
            "rate",
            "rate_modify",
        )
        .iterator()
    ):
        package = plan_type == RatePlanType.PACKAGE
        kind = KIND_RATE_MODIFY if package else KIND_RATE
        yield writer.line((kind, room_type, plan, channel_id, day.isoformat(), modify if package else rate, ""))


#: The columns of the error file: the file's own, then where the line was and what is wrong with it. An
#: import ignores the last two, so the corrected file uploads again as it is.
ARI_ERROR_COLUMNS = (*ARI_CSV_COLUMNS, *ARI_CSV_IGNORED)


_WHOLE_NUMBER = re.compile(r"[+-]?\d+")


def ari_import_error_file(ari_import):
    """The lines with errors as a CSV file (lines of text, streamed): the file's columns as written (a
    whole number as a number, so a spreadsheet keeps a negative difference a number), then source_line
    and error. Once corrected it uploads again as it is (an import ignores the last two columns)."""
    writer = CsvLines()
    yield "\ufeff" + writer.line(ARI_ERROR_COLUMNS)  # the BOM: spreadsheet programs then read Korean
    value = ARI_CSV_COLUMNS.index("value")
    for line in ari_import_lines(ari_import, errors=True).iterator(chunk_size=2000):
        cells = line.values()
        if _WHOLE_NUMBER.fullmatch(cells[value]):
            cells[value] = int(cells[value])
        yield writer.line([*cells, line.line, " ".join(line.details.splitlines())])
