"""State machines for common data types and formats, built on ``pse_core``."""
