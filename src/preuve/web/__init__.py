"""preuve.web."""
