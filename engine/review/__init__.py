"""The clinical review export, drawn from the one spec object the engine runs."""
