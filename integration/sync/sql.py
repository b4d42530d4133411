"""The sync engine's plain SQL: the outbox row's statements that every change or every send runs, each an
UPDATE ... RETURNING, which the ORM cannot write (QuerySet.update returns a count, not the rows): through
the ORM each would be a SELECT FOR UPDATE and an UPDATE, two round trips on the hottest rows of the product.
Table and column names come from the model, so a renamed field follows. Run on SQLite and PostgreSQL by
tests/integration/sync/test_sync_sql.py."""

from collections.abc import Sequence
from datetime import datetime
from functools import cache
from typing import Any

from django.db import connection

from core.background.leases import lease_free_for_sql
from core.db.plain_sql import Columns

from .choices import SyncStatus
from .models import SyncState

#: Params of a statement, in the order of its placeholders.
Params = list[Any]


@cache
def _names() -> dict[str, str]:
    """{field name: its quoted column}, and "table": the outbox's quoted table."""
    quote, meta = connection.ops.quote_name, SyncState._meta
    return {"table": quote(meta.db_table)} | {
        field.name: quote(field.column) for field in meta.concrete_fields if field.column
    }


@cache
def _row_columns() -> Columns:
    """Every column of an outbox row, as the claim reads it back."""
    return Columns(SyncState, SyncState._meta.db_table, *(field.name for field in SyncState._meta.concrete_fields))


def _moment(value: datetime) -> Any:
    return connection.ops.adapt_datetimefield_value(value)


def state_bump_statement(
    where: str, params: Params, *, now: datetime, stale: datetime, urgent: bool = False
) -> tuple[str, Params]:
    """The change of the outbox rows matching where (SQL over their columns, with params): the version bump,
    pending again (urgent: ahead of the others, until the hub has it), and the claim of the send unless one
    was queued since stale, RETURNING each row's id and whether this change claimed it. Plain SQL: RETURNING,
    and a caller may run it inside a statement of its own (a data-modifying WITH on PostgreSQL)."""
    n, at = _names(), _moment(now)
    urgent_set = f" {n['urgent']} = %s," if urgent else ""
    statement = (
        f"UPDATE {n['table']} SET {n['version']} = {n['version']} + 1, {n['status']} = %s, {n['failures']} = 0,"  # noqa: S608
        f"{urgent_set} {n['next_attempt_at']} = NULL, {n['pending_since']} = COALESCE({n['pending_since']}, %s),"
        f" {n['queued_at']} = CASE WHEN {n['queued_at']} IS NULL OR {n['queued_at']} < %s THEN %s"
        f" ELSE {n['queued_at']} END WHERE {where} RETURNING {n['id']}, {n['queued_at']} = %s AS claimed"
    )
    return statement, [SyncStatus.PENDING, *([True] if urgent else []), at, _moment(stale), at, *params, at]


def state_bump(state_id: int, *, now: datetime, stale: datetime, urgent: bool = False) -> bool:
    """state_bump_statement for the row of this id, run; returns whether this change claimed the send."""
    statement, params = state_bump_statement(f"{_names()['id']} = %s", [state_id], now=now, stale=stale, urgent=urgent)
    with connection.cursor() as cursor:
        cursor.execute(statement, params)
        (_id, claimed) = cursor.fetchone()
    return bool(claimed)


def states_queued(select: str, params: Sequence[Any], *, now: datetime, retried: bool = False) -> list[int]:
    """Mark queued at now the rows whose ids select (a sub-select, with params) returns; returns their ids.
    retried: rows waiting for a retry, due at once (the condition again outside the sub-select leaves out
    rows another sender brought forward meanwhile, once their lock is released). Plain SQL: RETURNING the
    ids to publish, in one statement however many rows."""
    n = _names()
    retry = f"{n['next_attempt_at']} = NULL, " if retried else ""
    waiting = f" AND {n['next_attempt_at']} IS NOT NULL" if retried else ""
    with connection.cursor() as cursor:
        cursor.execute(
            f"UPDATE {n['table']} SET {retry}{n['queued_at']} = %s"  # noqa: S608
            f" WHERE {n['id']} IN ({select}){waiting} RETURNING {n['id']}",
            [_moment(now), *params],
        )
        return [state_id for (state_id,) in cursor.fetchall()]


def state_claim(
    state_id: int, *, owner: str | None, task: str | None, now: datetime, until: datetime
) -> SyncState | None:
    """The row, leased to owner (and task) until then, taken and read in one statement; None when another
    sender holds it (the lease is not free, expired or this task's own: core.background.leases), or it is gone. Plain
    SQL: UPDATE ... RETURNING the whole row, which every send runs."""
    n, columns = _names(), _row_columns()
    free, free_params = lease_free_for_sql(task, now)
    with connection.cursor() as cursor:
        cursor.execute(
            f"UPDATE {n['table']} SET {n['lease_until']} = %s, {n['lease_owner']} = %s, {n['lease_task']} = %s,"  # noqa: S608
            f" {n['queued_at']} = NULL WHERE {n['id']} = %s AND {free} RETURNING {columns.select()}",
            [_moment(until), owner, task, state_id, *free_params],
        )
        row = cursor.fetchone()
    return columns.build(row) if row else None


def state_urgent_next(state_id: int, *, now: datetime) -> int | None:
    """The id of the urgent row (availability moved, a day closed) waiting longest for its own turn, queued
    and neither leased nor waiting for a retry, other than state_id's; None when none waits. Plain SQL: every
    send from the queue runs it twice (sender._send_urgent_first), on the partial index of the few urgent
    rows."""
    n = _names()
    with connection.cursor() as cursor:
        cursor.execute(
            f"SELECT {n['id']} FROM {n['table']} WHERE {n['urgent']} = %s AND {n['status']} = %s"  # noqa: S608
            f" AND {n['next_attempt_at']} IS NULL AND {n['queued_at']} IS NOT NULL"
            f" AND ({n['lease_until']} IS NULL OR {n['lease_until']} < %s) AND {n['id']} <> %s"
            f" ORDER BY {n['pending_since']} LIMIT 1",
            [True, SyncStatus.PENDING, _moment(now), state_id],
        )
        row = cursor.fetchone()
    return row[0] if row else None


def states_known_to_hub(pairs: Sequence[tuple[str, int]]) -> set[tuple[str, int]]:
    """Of the (kind, object id) pairs, those whose outbox row the hub knows. Plain SQL: every send reads its
    parents' with it (one pair for rates or availability, two for a rate plan)."""
    if not pairs:
        return set()
    n = _names()
    rows = " OR ".join([f"({n['kind']} = %s AND {n['object_id']} = %s)"] * len(pairs))
    with connection.cursor() as cursor:
        cursor.execute(
            f"SELECT {n['kind']}, {n['object_id']} FROM {n['table']} WHERE {n['known_to_hub']} = %s AND ({rows})",  # noqa: S608
            [True, *(value for pair in pairs for value in pair)],
        )
        return {(kind, object_id) for kind, object_id in cursor.fetchall()}


def state_release(state_id: int) -> bool:
    """End the lease on the row; returns whether the resource changed while it was being sent. Plain SQL:
    UPDATE ... RETURNING, which every send runs."""
    n = _names()
    with connection.cursor() as cursor:
        cursor.execute(
            f"UPDATE {n['table']} SET {n['lease_until']} = NULL, {n['lease_owner']} = NULL, {n['lease_task']} = NULL"  # noqa: S608
            f" WHERE {n['id']} = %s RETURNING {n['status']} = %s AND {n['version']} > {n['sent_version']}",
            [state_id, SyncStatus.PENDING],
        )
        row = cursor.fetchone()
    return bool(row and row[0])


def state_synced(state: SyncState, *, version: int, body: Any, now: datetime) -> int:
    """The hub holds body, built from version: synced and no longer urgent, unless the resource changed again
    meanwhile (then still pending). Returns 0, changing nothing, when a switch moved the row to another hub.
    Plain SQL: the CASEs on the row's own version in one statement, which every send runs (the ORM's
    Case/When compiles the same statement at more CPU)."""
    n = _names()
    acked_body = SyncState._meta.get_field("acked_body").get_db_prep_save(body, connection)
    with connection.cursor() as cursor:
        cursor.execute(
            f"UPDATE {n['table']} SET"  # noqa: S608
            f" {n['status']} = CASE WHEN {n['version']} = %s THEN %s ELSE {n['status']} END,"
            f" {n['pending_since']} = CASE WHEN {n['version']} = %s THEN NULL ELSE {n['pending_since']} END,"
            f" {n['urgent']} = CASE WHEN {n['version']} = %s THEN %s ELSE {n['urgent']} END,"
            f" {n['acked_body']} = %s, {n['known_to_hub']} = %s, {n['sent_version']} = %s, {n['last_error']} = '',"
            f" {n['last_status_code']} = NULL, {n['failures']} = 0, {n['last_synced_at']} = %s,"
            f" {n['next_attempt_at']} = NULL WHERE {n['id']} = %s AND {n['environment']} = %s",
            [
                *(version, SyncStatus.SYNCED, version, version, False, acked_body, True, version),
                *(_moment(now), state.pk, state.environment),
            ],
        )
        return cursor.rowcount
