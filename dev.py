"""Set up and run the project with nothing but python3: `python3 dev.py app [--lan]`, `test` or `lint`.

`app` serves on this computer only (127.0.0.1); `app --lan` serves the players' phones on the local network,
prints the address, a QR code and the evening's PIN, and asks every phone for that PIN (docs/SERVING.md).

The first call creates `.venv/` and installs the package with its app and dev extras; later calls reuse it.
"""

from __future__ import annotations

import os
import subprocess
import sys
import venv
from pathlib import Path

ROOT = Path(__file__).resolve().parent
VENV = ROOT / ".venv"
BIN = VENV / ("Scripts" if os.name == "nt" else "bin")
STAMP = VENV / ".installed-from"


def ensure_venv() -> None:
    """Create the virtual environment and install the project once (again when pyproject.toml changes)."""
    pyproject = (ROOT / "pyproject.toml").read_text()
    if STAMP.exists() and STAMP.read_text() == pyproject:
        return
    if not (BIN / "python").exists():
        print("dev.py: creating .venv ...", file=sys.stderr)
        venv.create(VENV, with_pip=True)
    pip = [str(BIN / "python"), "-m", "pip", "install", "--disable-pip-version-check", "-q"]
    print("dev.py: installing mahjong-nts with the app and dev extras ...", file=sys.stderr)
    subprocess.run([*pip, "-e", f"{ROOT}[app,dev]"], check=True)
    STAMP.write_text(pyproject)


def main(argv: list[str]) -> int:
    if not argv or argv[0] not in {"app", "test", "lint"}:
        print("usage: python3 dev.py app [--lan] [--pin PIN] | test [pytest args...] | lint", file=sys.stderr)
        return 2
    ensure_venv()
    if argv[0] == "app":  # 127.0.0.1 only; --lan serves the phones behind a PIN (docs/SERVING.md)
        cmd = [str(BIN / "python"), "-m", "mahjong_nts.app.serving", *argv[1:]]
    elif argv[0] == "lint":
        ruff = subprocess.call([str(BIN / "ruff"), "check", "."], cwd=ROOT)
        layout = subprocess.call([str(BIN / "ruff"), "format", "--check", "."], cwd=ROOT)
        mypy = subprocess.call([str(BIN / "mypy")], cwd=ROOT)
        return ruff or layout or mypy
    else:
        # the whole suite also holds scoring/ to 100 % line coverage ([tool.coverage] in pyproject.toml)
        gate = [] if argv[1:] else ["--cov", "--cov-report=term"]
        cmd = [str(BIN / "python"), "-m", "pytest", *gate, *argv[1:]]
    return subprocess.call(cmd, cwd=ROOT)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
