"""Serving the app (`python3 dev.py app`): on this computer only by default, on the local network for the
players' phones only when asked (`--lan`), and then behind the evening's PIN (docs/SERVING.md).

    python -m mahjong_nts.app.serving [--lan] [--pin PIN] [--port 8501] [streamlit options ...]

Without --lan the server listens on 127.0.0.1: nobody else on the club's or café's Wi-Fi can open it. With
--lan it listens on every interface, prints the address and a QR code to scan, and sets the PIN that every
new browser session must enter before it sees or changes anything (`mahjong_nts.app.access`).
"""

from __future__ import annotations

import argparse
import io
import os
import secrets
import socket
import subprocess
import sys
from collections.abc import Sequence
from pathlib import Path

PIN_ENV = "MAHJONG_NTS_PIN"
"""The evening's PIN, handed to the app (`mahjong_nts.app.access`); unset on this computer only."""

LOCALHOST = "127.0.0.1"
EVERY_INTERFACE = "0.0.0.0"
DEFAULT_PORT = 8501
APP_SCRIPT = Path(__file__).resolve().parents[2] / "streamlit_app.py"


def new_pin() -> str:
    """A fresh six-digit PIN for the evening."""
    return f"{secrets.randbelow(10**6):06d}"


def streamlit_command(lan: bool, port: int, extra: Sequence[str] = ()) -> list[str]:
    """The `streamlit run` command: bound to 127.0.0.1 unless `lan`, on `port`."""
    return [
        sys.executable,
        "-m",
        "streamlit",
        "run",
        str(APP_SCRIPT),
        "--server.address",
        EVERY_INTERFACE if lan else LOCALHOST,
        "--server.port",
        str(port),
        *extra,
    ]


def lan_addresses() -> list[str]:
    """This computer's IPv4 addresses other than loopback, as the name service knows them (no traffic)."""
    try:
        found = socket.getaddrinfo(socket.gethostname(), None, socket.AF_INET)
    except OSError:
        return []
    addresses = {str(info[4][0]) for info in found}
    return sorted(address for address in addresses if not address.startswith("127."))


def qr_code(text: str) -> str | None:
    """`text` as a QR code drawn with characters for a terminal, or None without the `segno` package."""
    try:
        import segno
    except ImportError:
        return None
    out = io.StringIO()
    segno.make(text, error="m").terminal(out=out, compact=True)
    return out.getvalue()


def announcement(port: int, pin: str, addresses: Sequence[str]) -> str:
    """What --lan prints: where the phones go, the QR code of that address, and the PIN."""
    if not addresses:
        return (
            f"Serving on every network interface, port {port}; this computer's address was not found "
            f"(see your network settings). PIN for the evening: {pin}\n"
        )
    url = f"http://{addresses[0]}:{port}"
    lines = [f"Phones on this network: open {url}  (or scan the code), then enter the PIN {pin}"]
    lines += [f"  also: http://{address}:{port}" for address in addresses[1:]]
    code = qr_code(url)
    lines.append(code if code is not None else "(install the app extra for a QR code: pip install segno)")
    lines.append("Anyone on this network who knows the PIN can use the app; stop it with Ctrl-C.")
    return "\n".join(lines) + "\n"


def main(argv: Sequence[str] | None = None) -> int:
    """Start Streamlit as asked; returns its exit code."""
    parser = argparse.ArgumentParser(
        prog="python3 dev.py app", description=__doc__.splitlines()[0] if __doc__ else None
    )
    parser.add_argument(
        "--lan", action="store_true", help="serve the phones on the local network (asks for a PIN)"
    )
    parser.add_argument("--pin", help="the evening's PIN with --lan (default: a new six-digit PIN)")
    parser.add_argument("--port", type=int, default=DEFAULT_PORT, help=f"port (default {DEFAULT_PORT})")
    args, extra = parser.parse_known_args(argv)
    env = dict(os.environ)
    if args.lan:
        pin = (args.pin or "").strip() or new_pin()
        env[PIN_ENV] = pin
        sys.stdout.write(announcement(args.port, pin, lan_addresses()))
        sys.stdout.flush()
    elif args.pin:
        parser.error("--pin goes with --lan (on this computer only, no PIN is asked)")
    else:
        env.pop(PIN_ENV, None)
        print(f"Serving on this computer only: http://{LOCALHOST}:{args.port} (phones: add --lan)")
    try:
        command = streamlit_command(args.lan, args.port, extra)
        return subprocess.call(command, env=env, cwd=APP_SCRIPT.parent)  # there .streamlit/config.toml
    except KeyboardInterrupt:
        return 130


if __name__ == "__main__":
    sys.exit(main())
