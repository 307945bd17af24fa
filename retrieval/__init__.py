"""Formulary corpus, loaders, index adapters, drug resolver and the deterministic evidence decision.

`retrieval` is the lowest layer: it imports neither `engine`, `states` nor `grounding`.
"""
