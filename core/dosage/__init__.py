"""The dosage tree: a dosage section read as structure (model, parser, band reader, line reader)."""
