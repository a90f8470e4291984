"""preuve.memo."""
