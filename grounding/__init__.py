"""Answer generation and its verification: citations and numbers, entailment, completeness repair.

`grounding` may import `retrieval` (evidence is its chunks) and never imports `engine` or `states`.
"""
