"""preuve.corpora."""
