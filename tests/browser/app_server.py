"""`streamlit run streamlit_app.py` for the real-browser tests: on a free localhost port with its own SQLite
file, waited for until its health check answers, stopped afterwards."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


def free_port() -> int:
    """A TCP port on 127.0.0.1 that nothing listens on now."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def wait_for_health(url: str, server: subprocess.Popen[bytes], log: Path, wait_s: float) -> None:
    """Return once the server answers its health check; fail the test when it exits or stays silent."""
    deadline = time.monotonic() + wait_s
    while time.monotonic() < deadline:
        if server.poll() is not None:
            pytest.fail(f"streamlit exited with {server.returncode}: {log.read_text()[-2000:]}")
        try:
            with urllib.request.urlopen(f"{url}/_stcore/health", timeout=2) as reply:
                if reply.read().strip() == b"ok":
                    return
        except OSError:
            time.sleep(0.3)
    pytest.fail(f"streamlit did not answer on {url} within {wait_s} s: {log.read_text()[-2000:]}")


@contextmanager
def serve_app(tmp: Path, wait_s: float) -> Iterator[str]:
    """The app served from `tmp` (its SQLite file and log there); yields its URL."""
    port = free_port()
    env = {**os.environ, "MAHJONG_NTS_DB": str(tmp / "evening.sqlite"), "PYTHONPATH": str(ROOT)}
    log = tmp / "streamlit.log"
    with log.open("wb") as out:
        server = subprocess.Popen(
            [
                sys.executable, "-m", "streamlit", "run", str(ROOT / "streamlit_app.py"),
                "--server.port", str(port), "--server.address", "127.0.0.1", "--server.headless", "true",
                "--browser.gatherUsageStats", "false", "--server.fileWatcherType", "none",
            ],
            cwd=ROOT, env=env, stdout=out, stderr=subprocess.STDOUT,
        )  # fmt: skip
    url = f"http://127.0.0.1:{port}"
    try:
        wait_for_health(url, server, log, wait_s)
        yield url
    finally:
        server.terminate()
        try:
            server.wait(timeout=10)
        except subprocess.TimeoutExpired:
            server.kill()
