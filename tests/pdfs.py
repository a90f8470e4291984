"""Real PDFs built by the tests themselves (reportlab), read back through pypdfium2.

The writers live with the reliability matrix (:mod:`preuve.eval.reliability_files`), so the
tests and ``preuve reliability`` build the very same files.
"""

from __future__ import annotations

from preuve.eval.reliability_files import write_image_only_pdf, write_text_pdf

__all__ = ["write_image_only_pdf", "write_text_pdf"]
