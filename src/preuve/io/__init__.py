"""preuve.io."""
