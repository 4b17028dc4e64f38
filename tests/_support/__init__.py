"""Shared helpers for the test suites (real tokenizers, ...)."""
