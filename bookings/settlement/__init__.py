"""Settlement reconciliation: the hub's settlement list checked against our bookings (the home of that
work; nothing here yet)."""
