"""The turn machine and its runtime: spec, runner, store, configuration, HTTP app, CLI, review, replay."""

from engine.reply import Citation, Outcome, Reply, Trace

__all__ = ["Citation", "Outcome", "Reply", "Trace"]
