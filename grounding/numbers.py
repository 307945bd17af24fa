"""Numbers with units in formulary text: the reader lives in core.numbers (the dosage tree in core reads them
too); this module keeps the grounding layer's import path."""

from __future__ import annotations

from core.numbers import Quantity, display_unit, extract_quantities, has_number, written_numbers

__all__ = ["Quantity", "extract_quantities", "written_numbers", "has_number", "display_unit"]
