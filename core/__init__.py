"""The bottom layer every package shares: errors, the per-turn budget, text folding, the chunk model and the
clinical vocabulary (routes, populations, patient terms). It imports nothing of the project's own."""
