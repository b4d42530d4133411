"""Settlement's hand-written SQL: the rows a reconciliation run writes. Table and column names come from
the model's _meta."""

import datetime
from decimal import Decimal
from typing import Any, cast

from django.db import connection, models

from core.db.plain_sql import column_name
from integration.models import Property

from .models import Reconciliation, ReconciliationRow

#: One side of a comparison: (status, total_amount, net_price).
Side = tuple[str, Decimal | None, Decimal | None]

#: The columns a run writes, in the order of the tuples below.
_COLUMNS = (
    "reconciliation",
    "property",
    "category",
    "vendor_booking_number",
    "booking",
    "date",
    "month",
    "hub_status",
    "our_status",
    "hub_total_amount",
    "our_total_amount",
    "hub_net_price",
    "our_net_price",
    "our_no_show",
)


class RowWriter:
    """Writes rows as plain tuples with one executemany per batch, not through the ORM: a page of model
    instances through bulk_create costs more than reading the page from the hub (bench.settlement)."""

    def __init__(self) -> None:
        fields = {field.name: field for field in ReconciliationRow._meta.concrete_fields}
        quote = connection.ops.quote_name
        names = ", ".join(quote(column_name(fields[name])) for name in _COLUMNS)
        table = quote(ReconciliationRow._meta.db_table)
        self.sql = f"INSERT INTO {table} ({names}) VALUES ({', '.join(['%s'] * len(_COLUMNS))})"  # noqa: S608
        self.ops = connection.ops
        self.decimal = cast("models.DecimalField[Any, Any]", fields["hub_total_amount"])

    def amount(self, value: Decimal | None) -> Any:
        return self.ops.adapt_decimalfield_value(value, self.decimal.max_digits, self.decimal.decimal_places)

    def row(
        self,
        reconciliation: Reconciliation,
        prop: Property,
        category: str,
        number: str,
        booking_id: int | None,
        day: datetime.date,
        hub: Side | None,
        ours: Side | None,
        *,
        no_show: bool = False,
    ) -> tuple[Any, ...]:
        """hub is (status, total_amount, net_price) or None; ours the same or None; no_show whether the
        front desk marked our booking a no-show."""
        hub, ours = hub or ("", None, None), ours or ("", None, None)
        return (
            reconciliation.pk,
            prop.pk,
            category,
            number,
            booking_id,
            self.ops.adapt_datefield_value(day),
            self.ops.adapt_datefield_value(day.replace(day=1)),
            hub[0],
            ours[0],
            self.amount(hub[1]),
            self.amount(ours[1]),
            self.amount(hub[2]),
            self.amount(ours[2]),
            no_show,
        )

    def write(self, rows: list[tuple[Any, ...]]) -> None:
        with connection.cursor() as cursor:
            cursor.executemany(self.sql, rows)
