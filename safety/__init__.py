"""Generic hardening pieces: safe retries (idempotency keys), CSV cells, input checks, clean-up."""
