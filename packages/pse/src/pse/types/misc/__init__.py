"""Mixed-content state machines."""
