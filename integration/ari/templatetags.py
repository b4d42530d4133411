"""The cells of the rates and availability grid, rendered in Python: a month of 30 rate plans is about
two thousand cells, and the cell answer of an inline edit renders the same HTML (render_ari_cells)."""

from django import template
from django.utils.formats import date_format
from django.utils.html import format_html, format_html_join
from django.utils.timezone import localtime
from django.utils.translation import gettext as _

register = template.Library()


def krw(value, *, signed=False):
    """A whole number with thousands separators ("120,000"; signed: "+20,000"); "—" for None."""
    if value is None:
        return "—"
    return f"{value:+,}" if signed else f"{value:,}"


register.filter("krw", krw)


def ari_date(day):
    """A day as every rates screen shows it (grid, editor, previews, history): the language's own date
    format ("2026년 12월 4일", "Dec. 4, 2026")."""
    return date_format(day, "DATE_FORMAT")


def ari_dates(start, end):
    """A range of days in the same format, one day as itself."""
    return ari_date(start) if start == end else f"{ari_date(start)} ~ {ari_date(end)}"


def ari_when(moment):
    """A time a change was made, in the same language's format with the time of day."""
    return date_format(localtime(moment), "DATETIME_FORMAT")


register.filter("ari_date", ari_date)
register.filter("ari_when", ari_when)


def _day_classes(day):
    classes = []
    if day.saturday:
        classes.append("vh-sat")
    if day.sunday:
        classes.append("vh-sun")
    if day.today:
        classes.append("vh-today")
    if not day.editable:
        classes.append("vh-out")
    return classes


@register.simple_tag
def ari_day_classes(day):
    """The classes that mark a column: weekend, today, outside the hub's window."""
    return " ".join(_day_classes(day))


def _cell(cell_id, classes, content, *, title="", editable=False, data=None):
    attributes = {"id": cell_id, "class": " ".join(["vh-cell", *classes] + (["vh-editable"] if editable else []))}
    if title:
        attributes["title"] = title
    if editable:
        attributes["tabindex"] = "0"
        attributes.update({f"data-{key}": "" if value is None else value for key, value in (data or {}).items()})
    return format_html("<td {}>{}</td>", format_html_join(" ", '{}="{}"', attributes.items()), content)


def cell_id(prefix, target, day):
    """The id of a cell: its row (prefix and target) and its date. The editor reads the row and the date
    of an editable cell from it: rp = rate plan, al = rooms to sell, cap = a channel's cap."""
    return cell_key(prefix, target.pk, day.date)


def cell_key(prefix, target_id, date):
    """cell_id from the row's id and the date."""
    return f"c-{prefix}-{target_id}-{date.isoformat()}"


def _unsent(cell, classes, title):
    """A day changed since the hub last took it is underlined, and says so."""
    if not cell.unsent:
        return title
    classes.append("vh-unsent")
    note = _("Not yet at the hub")
    return f"{title} · {note}" if title else note


def hub_badge(standing, *, log_url=""):
    """Where a row stands with the hub (HubStanding): a badge; for a failure or a retry, the hub's reason
    and a link to the row's exchanges with the hub (log_url: the attempt log, for those who may read it)."""
    link = reason = ""
    if standing.reason:
        reason = format_html('<small class="vh-hub-reason" title="{}">{}</small>', standing.reason, standing.reason)
    if log_url and standing.state_id and standing.status in (standing.FAILED, standing.RETRYING):
        link = format_html(
            ' <a class="vh-hub-log" href="{}?state__id__exact={}">{}</a>', log_url, standing.state_id, _("Details")
        )
    return format_html(
        '<span class="sync-badge vh-hub-badge vh-hub-{}">{}</span>{}{}', standing.status, standing.label, link, reason
    )


@register.simple_tag
def ari_hub(standing, prefix, target_id, log_url=""):
    """The hub standing of a grid row (prefix as in cell_id), in the box the calendar's refresh replaces."""
    return format_html(
        '<span class="vh-hub" id="hub-{}-{}" data-hub-status="{}">{}</span>',
        prefix,
        target_id,
        standing.status,
        hub_badge(standing, log_url=log_url),
    )


def _rate_shown(cell, channel, classes):
    """Which price a rate plan's cell shows: (shown, stored, value to edit, title); on a channel, its own
    price or the common one (the class saying which added to classes)."""
    if channel is None:
        return cell.price, cell.stored, cell.price, "" if cell.stored is not None else _("No rate")
    if cell.override is not None:
        classes.append("vh-override")
        return cell.override_price, cell.override, cell.override_price, _("This channel's own price")
    if cell.ruled is not None:
        classes.append("vh-ruled")
        return cell.ruled, cell.stored, None, _("This channel's price rule makes it of the common rate")
    classes.append("vh-inherited")
    title = _("The common price: this channel has none of its own")
    return cell.price, cell.stored, cell.override_price, title


def rate_cell(cell, *, channel=None, can_edit=False):
    """A rate plan's cell: the price guests pay (a package's difference in small print) and whether the
    day sells; on a channel, the channel's own price, or the common one greyed."""
    classes = _day_classes(cell.day)
    editable = can_edit and cell.day.editable
    if not cell.open:
        classes.append("vh-closed")
    closed = format_html('<small class="vh-closed-mark">{}</small>', _("closed")) if not cell.open else ""
    shown, stored, value, title = _rate_shown(cell, channel, classes)
    if shown is None:
        classes.append("vh-empty")
    diff = ""
    if cell.package and stored is not None:
        diff = format_html('<small class="vh-diff">{}</small>', krw(stored, signed=True))
        title = _package_title(cell, stored, classes)
    if not cell.open:
        title = f"{title} · {_('Closed for sale')}" if title else _("Closed for sale")
    title = _unsent(cell, classes, title)
    data = {"value": value}
    if channel is None:
        data["open"] = "1" if cell.open else "0"
    if cell.package:
        data["base"] = cell.base
    content = format_html('<span class="vh-v">{}</span>{}{}', krw(shown), diff, closed)
    return _cell(cell_id("rp", cell.rate_plan, cell.day), classes, content, title=title, editable=editable, data=data)


def _package_title(cell, stored, classes):
    """The title of a package's cell: its standalone rate and difference (or that it has no standalone
    rate, its class added to classes)."""
    if cell.base is None:
        classes.append("vh-nobase")
        return _("The standalone plan has no rate on this day.")
    return _("Standalone rate %(base)s, difference %(diff)s") % {
        "base": krw(cell.base),
        "diff": krw(stored, signed=True),
    }


def allotment_cell(cell, *, channel=None, can_edit=False):
    """The rooms to sell (a channel: its cap, "—" for none)."""
    editable = can_edit and cell.day.editable
    classes = _day_classes(cell.day)
    if channel is not None:
        value = cell.cap
        title = _("Cap on this channel") if value is not None else _("No cap: the channel sells every room left")
        prefix = "cap"
    else:
        value = cell.allotment
        title = ""
        prefix = "al"
    if value is None:
        classes.append("vh-empty")
    title = _unsent(cell, classes, title)
    data = {"value": value}
    content = format_html('<span class="vh-v">{}</span>', krw(value))
    return _cell(cell_id(prefix, cell.room_type, cell.day), classes, content, title=title, editable=editable, data=data)


def booked_cell(cell):
    """Rooms that bookings hold (pending) and have taken (confirmed)."""
    title = _("held %(held)s, taken %(taken)s") % {"held": cell.held, "taken": cell.taken}
    content = format_html('<span class="vh-v">{}</span>', cell.booked if cell.allotment is not None else "—")
    return _cell(cell_id("bk", cell.room_type, cell.day), _day_classes(cell.day), content, title=title)


def available_cell(cell, *, channel=None):
    """Rooms left to sell (a channel: what it may sell, under its cap)."""
    value = cell.available if channel is None else cell.channel_sells
    classes = _day_classes(cell.day)
    if value == 0:
        classes.append("vh-soldout")
    content = format_html('<span class="vh-v">{}</span>', krw(value))
    return _cell(cell_id("av", cell.room_type, cell.day), classes, content)


register.simple_tag(rate_cell, name="ari_rate_cell")
register.simple_tag(allotment_cell, name="ari_allotment_cell")
register.simple_tag(booked_cell, name="ari_booked_cell")
register.simple_tag(available_cell, name="ari_available_cell")


def render_ari_cells(grid, *, can_edit):
    """{cell id: HTML} for every cell of a grid (the answer to an inline edit: one day of one room type)."""
    channel = grid.channel
    cells = {}
    for block in grid.room_types:
        for cell in block.avail_cells:
            cells[cell_id("al" if channel is None else "cap", cell.room_type, cell.day)] = allotment_cell(
                cell, channel=channel, can_edit=can_edit
            )
            cells[cell_id("av", cell.room_type, cell.day)] = available_cell(cell, channel=channel)
            if channel is None:
                cells[cell_id("bk", cell.room_type, cell.day)] = booked_cell(cell)
        for row in block.rate_plans:
            for cell in row.cells:
                cells[cell_id("rp", cell.rate_plan, cell.day)] = rate_cell(cell, channel=channel, can_edit=can_edit)
    return {key: str(html) for key, html in cells.items()}
