"""Evaluation over the shared data sets and sets of one's own; each prints figures, none asserts.

The developer benchmarks are scripts in the repository's benchmarks/ folder (with the records of
the shipped weights' fits, benchmarks/fitting/), and the experiments measured and not shipped in
its experiments/ folder: neither is in the package.
"""
