"""The `mahjong-nts` console script: one dispatcher, one module per subcommand.

Every subcommand module exposes `add_parser(subparsers)`; the parser it registers sets `run=fn`, and
`fn(args) -> int` returns the exit code (0 done, 1 some items failed, 2 bad input or usage).
"""

from __future__ import annotations

import argparse
import gc
import importlib
import sys
from collections.abc import Sequence

from mahjong_nts import __version__

SUBCOMMAND_MODULES = {
    "score": "mahjong_nts.cli.score",
    "settle": "mahjong_nts.cli.settle",
    "recognize": "mahjong_nts.cli.recognize",
    "batch": "mahjong_nts.cli.batch",
    "learn-set": "mahjong_nts.cli.learn_set",
}
"""Subcommand -> the module that registers it. Only the module of the command given is imported, so
`score` starts without loading OpenCV and NumPy."""


class _Parser(argparse.ArgumentParser):
    """argparse that reports usage errors in one line and exits 2."""

    def error(self, message: str) -> None:  # type: ignore[override]
        self.exit(2, f"mahjong-nts: error: {message}\n")


def build_parser(command: str | None = None) -> argparse.ArgumentParser:
    """The parser with every subcommand, or only the modules that register `command` when it is known."""
    parser = _Parser(prog="mahjong-nts", description="Score Dutch tournament mahjong (NTS) hands.")
    parser.add_argument("--version", action="version", version=f"mahjong-nts {__version__}")
    subparsers = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=_Parser)
    wanted = [SUBCOMMAND_MODULES[command]] if command in SUBCOMMAND_MODULES else SUBCOMMAND_MODULES.values()
    for name in dict.fromkeys(wanted):
        try:
            module = importlib.import_module(name)
        except ModuleNotFoundError as missing:
            if missing.name != name:  # a real import error inside the module must surface
                raise
            continue
        module.add_parser(subparsers)
    return parser


USAGE = (
    "usage: mahjong-nts COMMAND ...  (commands: score, settle, recognize, batch, learn-set)\n"
    "       mahjong-nts COMMAND --help for its options; mahjong-nts --help for all\n"
)
"""What `mahjong-nts` alone prints: short, and without loading any command's module."""


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; returns the exit code."""
    argv = list(sys.argv[1:] if argv is None else argv)
    if not argv:
        sys.stderr.write(USAGE)
        return 2
    gc.disable()  # importing the command's modules makes many objects and no garbage: nothing to collect
    try:
        parser = build_parser(argv[0])
    finally:
        gc.enable()
    args = parser.parse_args(argv)
    if not hasattr(args, "run"):
        parser.print_help(sys.stderr)
        return 2
    try:
        return int(args.run(args))
    except KeyboardInterrupt:
        print("mahjong-nts: interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:
        return 0


if __name__ == "__main__":
    sys.exit(main())
