"""The `mahjong-nts` command line: `main` dispatches to one module per command (score, settle, recognize,
batch), each importing only what its command needs."""

from mahjong_nts.cli.main import main

__all__ = ["main"]
