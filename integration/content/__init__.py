"""Content: properties, room types, rate plan models and rate plans, with translations and photos."""
