"""The reports' hand-written SQL: adding to the daily figures in one statement per table, which the ORM
does not do (its upsert overwrites a row's values; these add to them, whoever else adds concurrently)."""

from collections.abc import Mapping, Sequence
from typing import Any, cast

from django.db import connection
from django.db.models import Field, Model

from core.db.plain_sql import column_name


def figures_add(model: type[Model], *, key: Sequence[str], rows: Sequence[Mapping[str, Any]]) -> None:
    """Add each row's values to model's row of the same key (its fields named by key), inserting the rows
    not there yet: one INSERT ... ON CONFLICT DO UPDATE. Every row has the same fields and a key of its
    own (the statement may touch a row once). Rows come sorted by key, so that two transactions adding to
    the same days lock them in the same order."""
    if not rows:
        return
    meta, quote = model._meta, connection.ops.quote_name
    names = list(rows[0])
    fields = [cast("Field[Any, Any]", meta.get_field(name)) for name in names]
    columns = [quote(column_name(field)) for field in fields]
    table = quote(meta.db_table)
    added = [column for name, column in zip(names, columns, strict=True) if name not in key]
    values: list[Any] = []
    for row in sorted(rows, key=lambda row: tuple(row[name] for name in key)):
        values += [field.get_db_prep_save(row[name], connection) for name, field in zip(names, fields, strict=True)]
    placeholders = ", ".join([f"({', '.join(['%s'] * len(names))})"] * len(rows))
    conflict = ", ".join(quote(column_name(cast("Field[Any, Any]", meta.get_field(name)))) for name in key)
    updates = ", ".join(f"{column} = {table}.{column} + EXCLUDED.{column}" for column in added)
    with connection.cursor() as cursor:
        cursor.execute(
            f"INSERT INTO {table} ({', '.join(columns)}) VALUES {placeholders}"  # noqa: S608
            f" ON CONFLICT ({conflict}) DO UPDATE SET {updates}",
            values,
        )
