"""The writes of rates and availability, by use case: edits (what an edit is, its checks and the plan of
the cells it changes), bulk (applying edits, with their change sets), cells (one cell of the grid),
history (undo, purge), csv_import and imports (a CSV file and its jobs), inventory (the rooms bookings
hold), push (what the hub must get again). Reads are in integration.ari.selectors, hand-written SQL in
integration.ari.sql."""
