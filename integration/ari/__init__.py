"""Rates and availability (ARI): rates, business days and availability per day; their edits, the
calendar grid, the CSV export and import, and the push to the hub."""
