"""Reliability proofs: concurrency at scale, API fuzzing, faults, security, hand-entry properties."""
