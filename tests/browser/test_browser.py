"""A real browser (Debian's chromium + chromedriver, driven by selenium) against `streamlit run`: upload a
photo, correct the hand, pick the winning tile, and read the total the page shows. Screenshots go to
test-artifacts/ (git-ignored)."""

from __future__ import annotations

import os
import shutil
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from mahjong_nts.reading.hand import propose_hand
from mahjong_nts.reading.tiles import TileRead
from scoring import hand_from_dict, parse_tiles, score_hand
from tests.browser.app_server import ROOT, serve_app

pytestmark = pytest.mark.browser

ARTIFACTS = ROOT / "test-artifacts"
CHROMIUM = Path("/usr/bin/chromium")
CHROMEDRIVER = Path(shutil.which("chromedriver") or "/usr/bin/chromedriver")
HAND = "11z 123p 444p 777z 444z 4f"
WAIT_S = 60

missing = [str(p) for p in (CHROMIUM, CHROMEDRIVER) if not p.exists()]
if missing:
    pytest.skip(
        f"browser test needs Debian's chromium and chromium-driver ({', '.join(missing)} missing): "
        "apt-get install -y chromium chromium-driver",
        allow_module_level=True,
    )
webdriver = pytest.importorskip("selenium.webdriver", reason="selenium is not installed (dev extra)")
from selenium.common.exceptions import StaleElementReferenceException, WebDriverException  # noqa: E402
from selenium.webdriver.common.by import By  # noqa: E402
from selenium.webdriver.common.keys import Keys  # noqa: E402
from selenium.webdriver.remote.webdriver import WebDriver  # noqa: E402
from selenium.webdriver.support.ui import WebDriverWait  # noqa: E402


def total_of(hand: dict[str, Any]) -> int:
    """What `score` gives for a hand object."""
    return score_hand(hand_from_dict(hand)).total


@pytest.fixture(scope="module")
def app_url(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """`streamlit run streamlit_app.py` on a free localhost port with a temporary SQLite file."""
    with serve_app(tmp_path_factory.mktemp("browser-app"), WAIT_S) as url:
        yield url


def start_chromium(profile: Path, window_size: str) -> WebDriver:
    """Headless Debian chromium through chromedriver (no browser or driver is downloaded), its profile in
    `profile`; skips the test when chromium cannot start."""
    os.environ.setdefault("SE_OFFLINE", "true")  # selenium-manager must not fetch anything
    options = webdriver.ChromeOptions()
    options.binary_location = str(CHROMIUM)
    for flag in (
        "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
        "--disable-background-networking", "--disable-component-update", "--disable-sync",
        "--disable-dev-shm-usage", f"--user-data-dir={profile}", f"--window-size={window_size}",
    ):  # fmt: skip
        options.add_argument(flag)
    service = webdriver.ChromeService(executable_path=str(CHROMEDRIVER))
    try:
        browser = webdriver.Chrome(options=options, service=service)
    except WebDriverException as exc:
        pytest.skip(f"chromium could not be started: {exc.msg}")
    browser.set_page_load_timeout(WAIT_S)
    return browser


@pytest.fixture(scope="module")
def driver(tmp_path_factory: pytest.TempPathFactory) -> Iterator[WebDriver]:
    """Headless Debian chromium at a desktop window size."""
    browser = start_chromium(tmp_path_factory.mktemp("chromium-profile"), "1400,1000")
    yield browser
    browser.quit()


def screenshot(browser: WebDriver, name: str) -> Path:
    """A full-height screenshot of the page in test-artifacts/."""
    ARTIFACTS.mkdir(exist_ok=True)
    height = browser.execute_script(
        "return Math.max(document.body.scrollHeight, "
        "...Array.from(document.querySelectorAll('section, [data-testid=stMain]')).map(e => e.scrollHeight))"
    )
    browser.set_window_size(1400, min(max(int(height) + 200, 1000), 6000))
    path = ARTIFACTS / name
    browser.save_screenshot(str(path))
    browser.set_window_size(1400, 1000)
    return path


def wait_until(browser: WebDriver, condition, what: str):  # type: ignore[no-untyped-def]
    try:
        return WebDriverWait(browser, WAIT_S, ignored_exceptions=(StaleElementReferenceException,)).until(
            condition
        )
    except Exception:
        screenshot(browser, "browser-failure.png")
        raise AssertionError(f"timed out waiting for {what}") from None


def wait_idle(browser: WebDriver) -> None:
    """Wait until the script run is over: no running indicator twice in a row."""
    quiet = 0
    deadline = time.monotonic() + WAIT_S
    while quiet < 2 and time.monotonic() < deadline:
        running = browser.find_elements(By.CSS_SELECTOR, "[data-testid='stStatusWidget']")
        quiet = 0 if running else quiet + 1
        time.sleep(0.3)


def no_exception_on_page(browser: WebDriver) -> None:
    assert not browser.find_elements(By.CSS_SELECTOR, "[data-testid='stException']"), "a traceback is shown"


def visible_input(browser: WebDriver, label: str):  # type: ignore[no-untyped-def]
    found = [
        e for e in browser.find_elements(By.CSS_SELECTOR, f"input[aria-label='{label}']") if e.is_displayed()
    ]
    return found[0] if found else None


def photo_uploaded(browser: WebDriver) -> bool:
    """The page reads the uploaded photo: the sample's caption is gone (a run started by the upload may
    begin late on a busy machine, so the running indicator alone cannot say the upload was read)."""
    return "Voorbeeldfoto:" not in browser.find_element(By.TAG_NAME, "body").text


def total_shown(browser: WebDriver) -> str | None:
    values = [
        e.text
        for e in browser.find_elements(By.CSS_SELECTOR, "[data-testid='stMetricValue']")
        if e.is_displayed()
    ]
    return values[0] if values else None


def choose_winning_tile(browser: WebDriver, code: str) -> bool:
    """Type `code` into the visible winning-tile picker; False while there is none yet."""
    pickers = [
        e
        for e in browser.find_elements(By.CSS_SELECTOR, "[data-testid='stSelectbox']")
        if e.is_displayed() and "Winnende steen" in e.text
    ]
    if not pickers:
        return False
    pickers[0].find_element(By.CSS_SELECTOR, "input").send_keys(code, Keys.ENTER)
    return True


def test_upload_correct_and_read_the_total(driver: WebDriver, app_url: str) -> None:
    driver.get(app_url)
    wait_until(driver, lambda b: visible_input(b, "Hand in notatie"), "the notation box of the sample photo")
    no_exception_on_page(driver)

    # Upload a photo of the hand.
    upload = driver.find_element(By.CSS_SELECTOR, "[data-testid='stFileUploader'] input[type='file']")
    upload.send_keys(str(ROOT / "samples" / "hand1.jpg"))
    wait_until(driver, lambda b: b.find_elements(By.CSS_SELECTOR, "[data-testid='stFileChip']"), "the upload")
    wait_until(driver, photo_uploaded, "the uploaded photo in place of the sample")
    wait_idle(driver)
    wait_until(
        driver, lambda b: visible_input(b, "Hand in notatie"), "the notation box of the uploaded photo"
    )
    no_exception_on_page(driver)
    screenshot(driver, "browser-uploaded.png")

    # Correct the hand in the notation box (whatever was misread), then choose the winning tile.
    box = visible_input(driver, "Hand in notatie")
    box.send_keys(Keys.CONTROL, "a")
    box.send_keys(HAND, Keys.ENTER)
    wait_until(
        driver,
        lambda b: (
            (e := visible_input(b, "Hand in notatie")) is not None
            and sorted(parse_tiles(e.get_attribute("value") or "")) == sorted(parse_tiles(HAND))
        ),
        "the corrected hand in the notation box",
    )
    wait_idle(driver)
    # The page may still redraw after the correction: find the picker and type in one step, again if the
    # element went stale under us (a rerun replaced it).
    wait_until(driver, lambda b: choose_winning_tile(b, "1z"), "the winning-tile picker")

    codes = parse_tiles(HAND)
    tiles = [TileRead(c) for c in codes if c[1] in "mpsz"]
    bonus = [c for c in codes if c[1] in "fy"]
    expected = total_of(propose_hand(tiles, {"bonus": bonus, "winning_tile": "1z"}).hand)
    try:
        wait_until(driver, lambda b: total_shown(b) == str(expected), f"the total {expected}")
    finally:
        screenshot(driver, "browser-total.png")
    no_exception_on_page(driver)
    assert "Geldige mahjong" in driver.find_element(By.TAG_NAME, "body").text


def test_an_iphone_heic_photo_uploads_and_reads(driver: WebDriver, app_url: str) -> None:
    """A HEIC photo (an iPhone's own format, stored turned with EXIF orientation 6) through the browser's
    file input: read upright, its hand proposed in the notation box, no error shown."""
    driver.get(app_url)
    wait_until(driver, lambda b: visible_input(b, "Hand in notatie"), "the notation box of the sample photo")
    sample_hand = visible_input(driver, "Hand in notatie").get_attribute("value")
    upload = driver.find_element(By.CSS_SELECTOR, "[data-testid='stFileUploader'] input[type='file']")
    upload.send_keys(str(ROOT / "tests" / "data" / "turned.heic"))
    wait_until(driver, lambda b: b.find_elements(By.CSS_SELECTOR, "[data-testid='stFileChip']"), "the upload")
    wait_until(driver, photo_uploaded, "the uploaded photo in place of the sample")
    wait_idle(driver)
    box = wait_until(driver, lambda b: visible_input(b, "Hand in notatie"), "the notation box of the photo")
    no_exception_on_page(driver)
    screenshot(driver, "browser-heic.png")
    errors = [e.text for e in driver.find_elements(By.CSS_SELECTOR, "[data-testid='stAlertContentError']")]
    assert not any("HEIC" in e or "afbeelding" in e for e in errors), errors
    hand = box.get_attribute("value")
    assert hand and hand != sample_hand
    tiles = parse_tiles(hand)
    assert tiles.count("4p") >= 3 and tiles.count("7z") >= 3 and "4f" in tiles  # hand1's, read upright
