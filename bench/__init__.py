"""Benchmarks: scripts that print figures (bench/README.md). A package only so that type checks name its
modules bench.* (bench/online.py is not the online app); each script runs as `python bench/NAME.py`."""
