"""Benchmarks: `python -m bench` prints figures; they are measured, never asserted in tests."""
