"""JSON state machines."""
