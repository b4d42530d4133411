"""Bookings made on the hub's channels, inventory holds, the vendor API the hub calls, settlement."""
