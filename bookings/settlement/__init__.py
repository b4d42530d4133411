"""Settlement reconciliation: the hub's settlement list matched against our bookings, and the hub's view of
one booking beside ours (its own Django app, label `settlement`)."""
