"""The writes of rates and availability, by use case: bulk (the edits every screen applies, and their
change sets), cells (one cell of the grid), history (undo, purge), csv_import and imports (a CSV file and
its jobs), inventory (the rooms bookings hold), push (what the hub must get again). Reads are in
integration.ari.selectors, hand-written SQL in integration.ari.sql."""
