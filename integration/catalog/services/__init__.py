"""The catalog area's writes: the hub's code catalog fetched and stored (catalog), the vendor's code mapping
table imported (mapping)."""
