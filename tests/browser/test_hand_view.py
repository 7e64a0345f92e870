"""The Hand tab in a real Chromium at laptop (1366x900) and phone (412x915) size (issue 15, the hand side):
the compact result is in view without scrolling and stays in view while scrolling, a typed hand is scored,
and tiles are changed by tapping their pictures. Chromium is driven over its DevTools protocol (no
chromedriver needed); screenshots go to test-artifacts/ (git-ignored)."""

from __future__ import annotations

import asyncio
import base64
import json
import subprocess
import tempfile
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from scoring import hand_from_dict, parse_tiles, score_hand
from tests.browser.app_server import ROOT, free_port, serve_app

pytestmark = pytest.mark.browser

ARTIFACTS = ROOT / "test-artifacts"
CHROMIUM = Path("/usr/bin/chromium")
WAIT_S = 90
HAND = "234m 567p 777z 88s 111z"  # 14 tiles, seat and prevailing wind East, won on a discard

if not CHROMIUM.exists():
    pytest.skip(
        "the hand view test needs Debian's chromium (apt-get install -y chromium)", allow_module_level=True
    )
websockets = pytest.importorskip("websockets", reason="websockets is not installed")


@pytest.fixture(scope="module")
def app_url(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """`streamlit run streamlit_app.py` on a free localhost port with a temporary SQLite file."""
    with serve_app(tmp_path_factory.mktemp("hand-view-app"), WAIT_S) as url:
        yield url


class Page:
    """One Chromium tab over the DevTools protocol: evaluate JavaScript, type, take screenshots."""

    def __init__(self, socket_: Any) -> None:
        self.socket = socket_
        self.calls = 0

    async def call(self, method: str, **params: Any) -> dict[str, Any]:
        self.calls += 1
        ident = self.calls
        await self.socket.send(json.dumps({"id": ident, "method": method, "params": params}))
        while True:
            message = json.loads(await asyncio.wait_for(self.socket.recv(), WAIT_S))
            if message.get("id") == ident:
                if "error" in message:
                    raise RuntimeError(f"{method}: {message['error']}")
                result: dict[str, Any] = message.get("result", {})
                return result

    async def js(self, expression: str) -> Any:
        reply = await self.call(
            "Runtime.evaluate", expression=expression, returnByValue=True, awaitPromise=True
        )
        return reply.get("result", {}).get("value")

    async def until(self, expression: str, what: str) -> Any:
        """Poll `expression` until it is truthy; fail after WAIT_S seconds naming `what`."""
        deadline = time.monotonic() + WAIT_S
        while time.monotonic() < deadline:
            value = await self.js(expression)
            if value:
                return value
            await asyncio.sleep(0.5)
        await self.screenshot(f"hand-view-failed-{what.replace(' ', '-')}.png")
        pytest.fail(f"timed out waiting for {what}")

    async def screenshot(self, name: str) -> Path:
        ARTIFACTS.mkdir(exist_ok=True)
        shot = await self.call("Page.captureScreenshot", format="png")
        path = ARTIFACTS / name
        path.write_bytes(base64.b64decode(shot["data"]))
        return path

    async def type_into(self, selector: str, text: str) -> None:
        """Replace the text of an input, as a player would, and press Enter."""
        await self.js(f"document.querySelector({json.dumps(selector)}).focus()")
        await self.js(f"document.querySelector({json.dumps(selector)}).select()")
        await self.call("Input.insertText", text=text)
        for kind in ("keyDown", "keyUp"):
            await self.call(
                "Input.dispatchKeyEvent", type=kind, key="Enter", code="Enter", windowsVirtualKeyCode=13
            )


async def open_page(url: str, width: int, height: int, run: Any) -> None:
    """Start Chromium at width x height, open `url`, and run `run(page)`."""
    port = free_port()
    profile = tempfile.mkdtemp(prefix="chromium-hand-view-")
    browser = subprocess.Popen(
        [
            str(CHROMIUM), "--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars",
            "--no-first-run",
            "--disable-background-networking", "--disable-component-update", "--disable-sync",
            "--disable-dev-shm-usage", f"--user-data-dir={profile}", f"--remote-debugging-port={port}",
            f"--window-size={width},{height}", "about:blank",
        ],
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
    )  # fmt: skip
    try:
        deadline = time.monotonic() + WAIT_S
        while True:
            try:
                with urllib.request.urlopen(f"http://127.0.0.1:{port}/json", timeout=2) as reply:
                    targets = json.load(reply)
                address = next(t["webSocketDebuggerUrl"] for t in targets if t["type"] == "page")
                break
            except (OSError, StopIteration, ValueError):
                if time.monotonic() > deadline:
                    pytest.skip("chromium did not start its DevTools endpoint")
                await asyncio.sleep(0.3)
        async with websockets.connect(address, max_size=2**28) as socket_:
            page = Page(socket_)
            await page.call(
                "Emulation.setDeviceMetricsOverride",
                width=width, height=height, deviceScaleFactor=1, mobile=width < 600,
            )  # fmt: skip
            await page.call("Page.navigate", url=url)
            await run(page)
    finally:
        browser.terminate()
        browser.wait(timeout=10)


SUMMARY = "document.querySelector('.st-key-hand-summary')"
SUMMARY_BOX = f"(() => {{ const r = {SUMMARY}.getBoundingClientRect(); return [r.top, r.bottom]; }})()"
NOTATION = "[class*='st-key-hand-'][class*='-notation-'] input"
MAIN = "document.querySelector('[data-testid=stMain]') || document.querySelector('.stMain')"


async def page_idle(page: Page) -> None:
    """The script run is over: no running indicator, twice in a row a second apart."""
    for _ in range(2):
        await page.until("!document.querySelector('[data-testid=stStatusWidget]')", "the script run to end")
        await asyncio.sleep(1)


def possible_totals() -> set[int]:
    """The hand's total for each tile the page may take as the winning one (it proposes one)."""
    base = {"seat_wind": "E", "prevailing_wind": "E", "concealed": HAND}
    return {score_hand(hand_from_dict({**base, "winning_tile": c})).total for c in set(parse_tiles(HAND))}


async def check_in_view(page: Page, height: int, size: str) -> None:
    """The result is shown before any scrolling, a typed hand scores, and it stays in view at the end."""
    await page.until(f"!!{SUMMARY} && /mahjong/i.test({SUMMARY}.innerText)", "the compact result")
    top, bottom = await page.js(SUMMARY_BOX)
    assert top >= 0 and bottom <= height, (top, bottom)
    await page.until(f"!!document.querySelector({json.dumps(NOTATION)})", "the notation box")
    await page_idle(page)  # the first run draws the result in steps: compare against its last state
    before = await page.js(f"{SUMMARY}.innerText")
    await page.type_into(NOTATION, HAND)
    score = "/Geldige mahjong: (\\d+) punten/"
    shown = await page.until(
        f"(() => {{ const t = {SUMMARY}.innerText; const m = {score}.exec(t);"
        f" return t !== {json.dumps(before)} && m && m[1]; }})()",
        "the typed hand's score",
    )
    assert int(shown) in possible_totals(), shown
    await page.screenshot(f"hand-view-{size}.png")
    await page.js(f"({MAIN}).scrollTo(0, ({MAIN}).scrollHeight)")
    await asyncio.sleep(1)
    top, bottom = await page.js(SUMMARY_BOX)
    assert top >= 0 and bottom <= height, ("scrolled to the end", top, bottom)
    await page.screenshot(f"hand-view-{size}-scrolled.png")


def test_the_result_is_in_view_at_laptop_size(app_url: str) -> None:
    asyncio.run(open_page(app_url, 1366, 900, lambda page: check_in_view(page, 900, "1366x900")))


def test_the_result_is_in_view_and_tiles_are_tapped_at_phone_size(app_url: str) -> None:
    async def run(page: Page) -> None:
        await check_in_view(page, 915, "412x915")
        first = "document.querySelector('[class*=st-key-tilegrid-] button')"
        await page.until(f"!!{first}", "the hand's tile pictures")
        assert await page.js(f"{first}.querySelector('img').naturalWidth > 0")  # the picture loaded
        before = await page.js(f"document.querySelector({json.dumps(NOTATION)}).value")
        await page.js(f"{first}.click()")
        await page.until("document.body.innerText.includes('Steen 1 (')", "the chosen tile")
        await page.js(
            "document.querySelector('[class*=st-key-palette-] button img[alt=\"9 bamboe\"]').click()"
        )
        after = await page.until(
            f"(() => {{ const v = document.querySelector({json.dumps(NOTATION)}).value;"
            f" return v !== {json.dumps(before)} && v; }})()",
            "the changed tile",
        )
        assert "9s" in after, after  # the first tile is now a 9 bamboo, nothing else changed
        await page.screenshot("hand-view-412x915-tapped.png")

    asyncio.run(open_page(app_url, 412, 915, run))
