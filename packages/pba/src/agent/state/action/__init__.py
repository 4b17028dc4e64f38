"""Action states: a tool call (:mod:`.tool_call`) or Python code (:mod:`.python`)."""
