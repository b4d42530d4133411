"""The reads of rates and availability, by use case: rates (values and rate plans the edits, the grid,
the CSV and the push share, and where rows stand with the hub), grid (the calendar and its cells),
history (changes, their cells, what cells hold now, import lines)."""
