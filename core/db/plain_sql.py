"""Model instances from plain SQL, for the few reads every booking makes: building a query through the ORM
costs more CPU than the database spends on it (bench.bookings). The columns are read as the ORM reads
them (each field's converters) and the fields not read are deferred, loaded on first use as usual. Table
and column names come from the models' _meta, so that a renamed field or table follows."""

from collections.abc import Callable, Sequence
from typing import Any, Generic, TypeVar, cast

from django.db import connection
from django.db.backends.base.base import BaseDatabaseWrapper
from django.db.models import Field, Model
from django.db.models.signals import post_save, pre_save

M = TypeVar("M", bound=Model)


def column_name(field: "Field[Any, Any] | None") -> str:
    """The column of a concrete field (the stubs allow None, as for other kinds of field)."""
    return cast(str, field.column)  # type: ignore[union-attr]


class Columns(Generic[M]):
    """Some fields of a model, read under a table alias of a plain SQL statement."""

    def __init__(self, model: type[M], alias: str, *names: str) -> None:
        wanted = {self._field(model, name).attname for name in ("pk", *names)}
        self.model, self.alias = model, alias
        # Model.from_db takes the values in the order of the model's fields.
        self.fields: list[Field[Any, Any]] = [field for field in model._meta.concrete_fields if field.attname in wanted]
        self._converters: dict[str, dict[int, tuple[Any, list[Callable[..., Any]]]]] = {}

    @property
    def table(self) -> str:
        """The model's table under the alias, for the statement's FROM or JOIN."""
        return f"{connection.ops.quote_name(self.model._meta.db_table)} {self.alias}"

    def column(self, name: str) -> str:
        """The column of field name ("pk": the primary key) under the alias, for a join or a condition."""
        return f"{self.alias}.{connection.ops.quote_name(column_name(self._field(self.model, name)))}"

    @staticmethod
    def _field(model: type[Model], name: str) -> "Field[Any, Any]":
        """The concrete field name of model ("pk": its primary key)."""
        return cast("Field[Any, Any]", model._meta.pk if name == "pk" else model._meta.get_field(name))

    def select(self) -> str:
        """The columns for the statement's SELECT list, in the order build() takes them."""
        quote = connection.ops.quote_name
        return ", ".join(f"{self.alias}.{quote(column_name(field))}" for field in self.fields)

    def build(self, values: Sequence[Any]) -> M | None:
        """The instance from this part of a row (as many values as fields, starting at the first); None
        when its primary key is NULL (no row matched an outer join)."""
        values = list(values[: len(self.fields)])
        if values[self.fields.index(self.model._meta.pk)] is None:
            return None
        for index, (column, converters) in self._converters_of(connection).items():
            for convert in converters:
                values[index] = convert(values[index], column, connection)
        return self.model.from_db(connection.alias, [field.attname for field in self.fields], values)

    def _converters_of(self, conn: BaseDatabaseWrapper) -> dict[int, tuple[Any, list[Callable[..., Any]]]]:
        """{position: (column, its converters)} on this database (computed once per backend)."""
        if conn.vendor not in self._converters:
            found = {}
            for index, field in enumerate(self.fields):
                column = field.get_col(self.alias)
                converters = conn.ops.get_db_converters(column) + column.get_db_converters(conn)
                if converters:
                    found[index] = (column, converters)
            self._converters[conn.vendor] = found
        return self._converters[conn.vendor]

    def __len__(self) -> int:
        return len(self.fields)


class RowWithParents(Generic[M]):
    """A model's row by primary key with the rows some of its foreign keys name (select_related, one level),
    in one plain SQL statement built once: for a row read on every call of a hot path, where the ORM
    compiles the same statement again each time, at more CPU than the database spends on it."""

    def __init__(self, model: type[M], related: Sequence[str] = ()) -> None:
        self.columns: Columns[M] = Columns(model, "t0", *(field.name for field in model._meta.concrete_fields))
        self.parents: list[tuple[Any, Columns[Model]]] = []
        for index, name in enumerate(related, start=1):
            field: Any = model._meta.get_field(name)
            parent = cast(type[Model], field.related_model)
            self.parents.append((field, Columns(parent, f"t{index}", *(f.name for f in parent._meta.concrete_fields))))
        self._statement = ""

    def statement(self) -> str:
        """SELECT the row and its parents' (LEFT JOIN: a parent may be NULL), the primary key a param."""
        if not self._statement:
            joins = "".join(
                f" LEFT JOIN {parent.table} ON {parent.column('pk')} = {self.columns.column(field.name)}"
                for field, parent in self.parents
            )
            selected = ", ".join([self.columns.select(), *(parent.select() for _field, parent in self.parents)])
            self._statement = (
                f"SELECT {selected} FROM {self.columns.table}{joins} WHERE {self.columns.column('pk')} = %s"  # noqa: S608
            )
        return self._statement

    def get(self, pk: Any) -> M | None:
        """The instance with its parents in place (as select_related leaves them), or None when it is gone."""
        with connection.cursor() as cursor:
            cursor.execute(self.statement(), [pk])
            row = cursor.fetchone()
        if row is None:
            return None
        instance = cast(M, self.columns.build(row))
        offset = len(self.columns)
        for field, parent in self.parents:
            field.set_cached_value(instance, parent.build(row[offset:]))
            offset += len(parent)
        return instance


class HasSaveReceivers(TypeError):
    """insert() was given a model that something listens to the saves of: a plain INSERT would skip them."""


def insert(instance: M) -> M:
    """Save a new instance (its primary key unset, given by the database) in one plain INSERT, with what
    Model.save() would write (each field's pre_save: defaults, auto_now; its database value), and set its
    primary key. For the row every booking inserts: building the statement through the ORM costs more
    CPU than the database spends on it. Sends no model signals (pre_save, post_save), so it refuses
    (HasSaveReceivers) a model that has receivers of them."""
    model = type(instance)
    if pre_save.has_listeners(model) or post_save.has_listeners(model):
        raise HasSaveReceivers(f"{model.__name__} has pre_save or post_save receivers: save it with the ORM")
    meta, quote = instance._meta, connection.ops.quote_name
    fields = [field for field in meta.concrete_fields if not field.primary_key]
    values = [field.get_db_prep_save(field.pre_save(instance, True), connection) for field in fields]
    columns = ", ".join(quote(column_name(field)) for field in fields)
    with connection.cursor() as cursor:
        cursor.execute(
            f"INSERT INTO {quote(meta.db_table)} ({columns})"  # noqa: S608
            f" VALUES ({', '.join(['%s'] * len(fields))}) RETURNING {quote(column_name(meta.pk))}",
            values,
        )
        instance.pk = cursor.fetchone()[0]
    instance._state.adding, instance._state.db = False, connection.alias
    return instance
