"""Records the agent keeps: interactions between the user, the agent and its tools."""
