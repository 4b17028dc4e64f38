"""The Proxy Base Agent: a local language model that plans, then acts, in steps
whose structure the Proxy Structuring Engine guarantees.

``python -m agent`` runs the setup wizard and the chat loop. The pieces:
:class:`agent.agent.Agent`, :class:`agent.state_machine.AgentStateMachine`, the
states in :mod:`agent.state`, the tools in :mod:`agent.tools` and the LLM
frontends in :mod:`agent.llm`. Importing ``agent`` loads no ML framework: a
frontend imports its adapter (``pse-torch``, ``pse-mlx``) when it is chosen.
"""

__version__ = "0.1.0"
