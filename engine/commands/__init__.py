"""CLI subcommands: each module defines `add_arguments(parser)` and `run(args) -> int`."""
