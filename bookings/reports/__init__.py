"""Reports of the bookings: occupancy, ADR, RevPAR, revenue, pickup, pace, channel mix and booking
patterns, read from daily figures that the booking services keep in the transaction that changes a booking."""
