"""preuve.commands."""
