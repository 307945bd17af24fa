"""Evidence text as quotable units (core.sentences): kept here for the grounding modules that import it."""

from __future__ import annotations

from core.sentences import clean, lines, sentences, split_sentences

__all__ = ["clean", "lines", "sentences", "split_sentences"]
