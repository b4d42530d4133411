"""Benchmarks (`make bench`): figures measured against a baseline in the same run, printed, never asserted."""
