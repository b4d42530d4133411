"""Model instances from plain SQL, for the few reads every booking makes: building a query through the ORM
costs more CPU than the database spends on it (bench.bookings). The columns are read as the ORM reads
them (each field's converters) and the fields not read are deferred, loaded on first use as usual."""

from django.db import connection


class Columns:
    """Some fields of a model, read under a table alias of a plain SQL statement."""

    def __init__(self, model, alias, *names):
        wanted = {model._meta.pk.attname, *(model._meta.get_field(name).attname for name in names)}
        self.model, self.alias = model, alias
        # Model.from_db takes the values in the order of the model's fields.
        self.fields = [field for field in model._meta.concrete_fields if field.attname in wanted]
        self._converters = {}

    @property
    def table(self):
        """The model's table under the alias, for the statement's FROM or JOIN."""
        return f"{self.model._meta.db_table} {self.alias}"

    def select(self):
        """The columns for the statement's SELECT list, in the order build() takes them."""
        quote = connection.ops.quote_name
        return ", ".join(f"{self.alias}.{quote(field.column)}" for field in self.fields)

    def build(self, values):
        """The instance from this part of a row (as many values as fields, starting at the first); None
        when its primary key is NULL (no row matched an outer join)."""
        values = list(values[: len(self.fields)])
        if values[self.fields.index(self.model._meta.pk)] is None:
            return None
        for index, (column, converters) in self._converters_of(connection).items():
            for convert in converters:
                values[index] = convert(values[index], column, connection)
        return self.model.from_db(connection.alias, [field.attname for field in self.fields], values)

    def _converters_of(self, conn):
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

    def __len__(self):
        return len(self.fields)


def insert(instance):
    """Save a new instance (its primary key unset, given by the database) in one plain INSERT, with what
    Model.save() would write (each field's pre_save: defaults, auto_now; its database value), and set its
    primary key. For the row every booking inserts: building the statement through the ORM costs more
    CPU than the database spends on it. Sends no model signals (pre_save, post_save): only for models
    that have no receivers."""
    meta, quote = instance._meta, connection.ops.quote_name
    fields = [field for field in meta.concrete_fields if not field.primary_key]
    values = [field.get_db_prep_save(field.pre_save(instance, True), connection) for field in fields]
    with connection.cursor() as cursor:
        cursor.execute(
            f"INSERT INTO {quote(meta.db_table)} ({', '.join(quote(field.column) for field in fields)})"  # noqa: S608
            f" VALUES ({', '.join(['%s'] * len(fields))}) RETURNING {quote(meta.pk.column)}",
            values,
        )
        instance.pk = cursor.fetchone()[0]
    instance._state.adding, instance._state.db = False, connection.alias
    return instance
