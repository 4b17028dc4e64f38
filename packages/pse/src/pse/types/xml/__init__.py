"""XML state machines."""
