"""preuve.digest."""
