"""preuve: make LLM document synthesis checkable."""

__version__ = "0.1.0"
