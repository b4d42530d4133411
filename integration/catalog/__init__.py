"""The hub's code catalog (fetched daily), the vendor's code mapping, and the tag widgets that pick
codes from the catalog."""
