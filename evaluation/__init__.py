"""Evaluation over the shared data sets and sets of one's own; each prints figures, none asserts.

The developer benchmarks are scripts in the repository's benchmarks/ folder, not in the package.
"""
