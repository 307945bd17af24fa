"""The work done in each state of the turn machine: understanding and frame merge, routing predicates,
clarify questions, dosing slots, the three retrieval paths and the fixed replies.

`states` may import `retrieval` and `grounding`; it never imports `engine`.
"""
