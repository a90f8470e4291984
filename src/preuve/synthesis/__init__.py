"""preuve.synthesis."""
