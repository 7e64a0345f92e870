"""Who gets in (issue 16, item 15): the app listens on 127.0.0.1 by default, serving the phones on the
local network is an explicit --lan that prints the address, a QR code and the PIN, and a session without the
PIN sees nothing. Tests connect to loopback addresses only."""

from __future__ import annotations

import importlib.util
import os
import signal
import socket
import subprocess
import sys
import time
import tomllib
import urllib.request
from pathlib import Path
from typing import Any

import pytest
from streamlit.testing.v1 import AppTest
from test_app_flow import fake_deps

from mahjong_nts.app import access, serving

ROOT = Path(__file__).resolve().parents[1]


def test_the_settings_bind_to_localhost() -> None:
    config = tomllib.loads((ROOT / ".streamlit" / "config.toml").read_text(encoding="utf-8"))
    assert config["server"]["address"] == "127.0.0.1"
    command = serving.streamlit_command(lan=False, port=8501)
    assert command[command.index("--server.address") + 1] == "127.0.0.1"
    lan = serving.streamlit_command(lan=True, port=8501)
    assert lan[lan.index("--server.address") + 1] == "0.0.0.0"
    assert '"-m", "mahjong_nts.app.serving"' in (ROOT / "dev.py").read_text(encoding="utf-8")


def launched(monkeypatch: pytest.MonkeyPatch, argv: list[str]) -> tuple[list[str], dict[str, str]]:
    """What serving.main would start, without starting it."""
    seen: dict[str, Any] = {}

    def call(command: list[str], env: dict[str, str], cwd: Path) -> int:
        seen.update(command=command, env=env)
        return 0

    monkeypatch.setattr(serving.subprocess, "call", call)
    assert serving.main(argv) == 0
    return seen["command"], seen["env"]


def test_default_serving_asks_no_pin_and_lan_is_explicit(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv(access.PIN_ENV, "left over")
    command, env = launched(monkeypatch, [])
    assert command[command.index("--server.address") + 1] == "127.0.0.1" and access.PIN_ENV not in env
    assert "this computer only" in capsys.readouterr().out
    monkeypatch.setattr(serving, "lan_addresses", lambda: ["192.0.2.7"])  # TEST-NET: printed, never contacted
    command, env = launched(monkeypatch, ["--lan", "--pin", "2468", "--port", "8600"])
    assert command[command.index("--server.address") + 1] == "0.0.0.0" and env[access.PIN_ENV] == "2468"
    shown = capsys.readouterr().out
    assert "http://192.0.2.7:8600" in shown and "2468" in shown
    if importlib.util.find_spec("segno") is not None:  # the app extra; without it the address alone
        assert "\u2588" in shown or "\u2580" in shown or "\u2584" in shown  # the QR code's blocks
    _, env = launched(monkeypatch, ["--lan"])
    assert len(env[access.PIN_ENV]) == 6 and env[access.PIN_ENV].isdigit()


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def listening(port: int) -> list[str]:
    """The local addresses (hex, as /proc shows them) of sockets listening on `port`."""
    found = []
    for table in ("/proc/net/tcp", "/proc/net/tcp6"):
        try:
            lines = Path(table).read_text().splitlines()[1:]
        except OSError:
            continue
        for line in lines:
            fields = line.split()
            address, hex_port = fields[1].rsplit(":", 1)
            if int(hex_port, 16) == port and fields[3] == "0A":  # 0A: LISTEN
                found.append(address)
    return found


@pytest.mark.slow
@pytest.mark.skipif(not Path("/proc/net/tcp").exists(), reason="reads the listening sockets from /proc")
def test_the_default_server_listens_on_loopback_only(tmp_path: Path) -> None:
    port = free_port()
    env = {**os.environ, "MAHJONG_NTS_DB": str(tmp_path / "evening.sqlite")}
    env.pop(access.PIN_ENV, None)
    process = subprocess.Popen(
        [sys.executable, "-m", "mahjong_nts.app.serving", "--port", str(port), "--server.headless", "true"],
        cwd=ROOT,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        start_new_session=True,
    )
    try:
        deadline = time.monotonic() + 90
        while time.monotonic() < deadline and not listening(port) and process.poll() is None:
            time.sleep(0.2)
        addresses = listening(port)
        assert addresses, "the server never listened"
        assert set(addresses) == {"0100007F"}, addresses  # 127.0.0.1 only: no 0.0.0.0, no ::
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/_stcore/health", timeout=30) as reply:
            assert reply.status == 200
    finally:
        os.killpg(process.pid, signal.SIGTERM)
        process.communicate(timeout=30)


def run_app(deps) -> None:  # type: ignore[no-untyped-def]  # runs as a script
    from mahjong_nts.app.page import main

    main(deps)


def test_a_session_without_the_pin_sees_nothing(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(access.PIN_ENV, "4321")
    monkeypatch.setattr(access, "WRONG_PIN_DELAY", 0.0)
    deps = fake_deps(tmp_path / "evening.sqlite")
    deps.store.create_evening("Vrijdag", {"Anna": "E", "Bas": "S", "Cor": "W", "Dirk": "N"})
    at = AppTest.from_function(run_app, args=(deps,), default_timeout=60)
    at.run()
    assert not at.exception
    assert len(at.tabs) == 0 and len(at.text_input) == 1 and not at.dataframe and not at.table

    def page_text() -> str:
        return " ".join(
            str(e.value) for kind in ("markdown", "caption", "title", "error") for e in getattr(at, kind)
        )

    assert "Anna" not in page_text() and "Vrijdag" not in page_text()
    at.text_input[0].input("1234")
    at.button[0].click()
    at.run()
    assert len(at.tabs) == 0 and "Wrong PIN" in page_text()
    at.text_input[0].input("4321")
    at.button[0].click()
    at.run()
    assert not at.exception and len(at.tabs) == 3


def test_without_a_pin_set_the_local_app_opens_at_once(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv(access.PIN_ENV, raising=False)
    at = AppTest.from_function(run_app, args=(fake_deps(tmp_path / "evening.sqlite"),), default_timeout=60)
    at.run()
    assert not at.exception and len(at.tabs) == 3
