"""Benchmarks and evaluation over the shared data sets; each prints figures, none asserts."""
