"""preuve.core."""
