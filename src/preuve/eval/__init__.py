"""preuve.eval."""
