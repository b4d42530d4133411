"""The drift check: reads our resources back from the hub and compares them with what we last sent."""
