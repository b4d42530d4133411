"""The CSV files we write and read back (code mappings, rates and availability, the settlement report):
one writer that no spreadsheet runs as formulas, and one set of rules for what makes an uploaded file
unusable as a whole, whatever its rows mean."""

import csv
import io
from dataclasses import dataclass

from django.core.exceptions import ValidationError
from django.utils.translation import gettext as _

#: The first characters that make a spreadsheet read a cell as a formula (OWASP, "CSV injection").
FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")


def csv_cell(value):
    """A cell as written: text that a spreadsheet would run as a formula gets a leading apostrophe, which
    spreadsheets show as text; numbers (int, Decimal) stay numbers, so a negative rate is still -5000."""
    if isinstance(value, str) and value.startswith(FORMULA_STARTS):
        return "'" + value
    return value


def csv_cell_read(value):
    """A text cell as we wrote it, read back: without the apostrophe csv_cell put before a formula start."""
    if value.startswith("'") and value[1:].startswith(FORMULA_STARTS):
        return value[1:]
    return value


class _Echo:
    """A file-like object whose write returns the line, for csv.writer in a streaming response."""

    def write(self, value):
        return value


class CsvLines:
    """Writes rows as lines of text for a streaming response: every text cell quoted and neutralised
    (csv_cell), numbers bare. The only CSV writer of the project."""

    def __init__(self):
        self._writer = csv.writer(_Echo(), quoting=csv.QUOTE_NONNUMERIC)

    def line(self, cells):
        """One row as a line of the file (None is an empty cell)."""
        return self._writer.writerow([csv_cell(cell) for cell in cells])


@dataclass(frozen=True)
class CsvRecord:
    """One non-blank line: its number, its cells by column (stripped; "" when missing), and any values
    beyond the header's columns."""

    line: int
    cells: dict
    extra: list


#: Records read between two calls of csv_records' progress.
PROGRESS_RECORDS = 10_000


def csv_records(content, *, columns, required, max_bytes, ignored=(), first_only=False, progress=None):
    """The records of a UTF-8 CSV file (bytes or text) whose header names columns (in any order; the
    required ones at least; the ignored ones may be there too, and are dropped). Raises ValidationError
    when the file as a whole is unusable: too large, not UTF-8 text, not CSV, a wrong header, or no rows.
    first_only: read up to the first record only (a quick check of a large file, whose rows a job reads);
    progress(share of the text read), when given, is called every PROGRESS_RECORDS records."""
    content = _csv_text(content, max_bytes=max_bytes)
    text = io.StringIO(content, newline="")
    reader = csv.reader(text)
    try:
        header = _csv_header(reader, columns=columns, required=required, ignored=ignored)
        records = []
        for record in _csv_rows(reader, header=header, columns=columns):
            records.append(record)
            if first_only:
                break
            if progress is not None and not len(records) % PROGRESS_RECORDS:
                progress(text.tell() / len(content))
    except csv.Error as error:
        raise ValidationError(
            _("This is not a readable CSV file (line %(line)s: %(error)s).")
            % {"line": reader.line_num, "error": error},
            code="not_csv",
        ) from None
    if not records:
        raise ValidationError(_("The file has a header but no rows."), code="empty")
    return records


def _csv_text(content, *, max_bytes):
    """The file's text, without a byte order mark; ValidationError when it is too large (as bytes), not
    UTF-8 or not text."""
    if isinstance(content, bytes):
        if len(content) > max_bytes:
            raise ValidationError(
                _("The file is larger than %(size)s KB; split it into smaller files.") % {"size": max_bytes // 1024},
                code="too_large",
            )
        try:
            content = content.decode("utf-8-sig")
        except UnicodeDecodeError:
            raise ValidationError(
                _("The file is not UTF-8 text. In Excel, save it as “CSV UTF-8 (comma delimited)”."),
                code="encoding",
            ) from None
    content = content.removeprefix("\ufeff")
    if "\x00" in content:
        raise ValidationError(_("This is not a CSV file."), code="not_csv")
    return content


def _csv_header(reader, *, columns, required, ignored):
    """The header's column names (lower case); ValidationError unless it names the required columns and
    no column beyond columns and ignored."""
    header = [column.strip().lower() for column in next(reader, [])]
    named = {column for column in header if column}  # spreadsheets may add empty columns at the end
    if not set(required) <= named or not named <= {*columns, *ignored}:
        raise ValidationError(
            _("The first line must be the header %(header)s.") % {"header": ",".join(columns)},
            code="header",
        )
    return header


def _csv_rows(reader, *, header, columns):
    """The records of the lines after the header, blank lines skipped."""
    for values in reader:
        if not any(value.strip() for value in values):
            continue  # blank lines, and lines of empty cells that spreadsheets leave at the end
        cells = dict(zip(header, (csv_cell_read(value.strip()).strip() for value in values), strict=False))
        yield CsvRecord(
            line=reader.line_num,
            cells={column: cells.get(column, "") for column in columns},
            extra=[value for value in values[len(header) :] if value.strip()],
        )
