"""The disk a table takes, its indexes included, read from what the database engine keeps about its files
(PostgreSQL) or its pages (SQLite, the development database)."""

from django.db import connection


def table_bytes(table: str) -> int:
    """The bytes of table, its indexes and TOAST included: pg_total_relation_size on PostgreSQL (the size of
    its files, read without touching a row); on SQLite the pages of the table and its indexes (dbstat reads
    every page: fine for a development database)."""
    with connection.cursor() as cursor:
        if connection.vendor == "postgresql":
            cursor.execute("SELECT pg_total_relation_size(%s)", [table])
        else:
            cursor.execute(
                "SELECT coalesce(sum(pgsize), 0) FROM dbstat WHERE name IN "
                "(SELECT name FROM sqlite_master WHERE tbl_name = %s)",
                [table],
            )
        row = cursor.fetchone()
    return int(row[0]) if row and row[0] is not None else 0
