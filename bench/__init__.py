"""`make bench`: every benchmark the issues name, one subprocess per group (`python -m bench.run --group NAME`).

Benchmarks are not tests: they never fail a test run. Each group measures its comparison side by side in one
process, and each figure is written with its target, met or not, to bench/results.json and bench/RESULTS.md.
"""
