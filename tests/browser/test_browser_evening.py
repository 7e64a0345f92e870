"""A whole club evening in a real browser at phone size (Chromium at 412x915, driven by selenium) against
`streamlit run`: start the evening, four games (one with a dead hand, a draw, one undone and played again,
a reload in between), and the standing checked against totals counted by hand with `scoring.settle`. The
tab the player is in stays open after every button. Screenshots go to test-artifacts/ (git-ignored)."""

from __future__ import annotations

import base64
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from scoring import next_seat_winds, settle
from tests.browser.app_server import serve_app
from tests.browser.test_browser import (  # skips this module too where chromium or selenium is missing
    ARTIFACTS,
    WAIT_S,
    no_exception_on_page,
    start_chromium,
    wait_idle,
)

pytestmark = pytest.mark.browser

from selenium.common.exceptions import StaleElementReferenceException  # noqa: E402
from selenium.webdriver.common.by import By  # noqa: E402
from selenium.webdriver.common.keys import Keys  # noqa: E402
from selenium.webdriver.remote.webdriver import WebDriver  # noqa: E402
from selenium.webdriver.remote.webelement import WebElement  # noqa: E402
from selenium.webdriver.support.ui import WebDriverWait  # noqa: E402

PHONE = {"width": 412, "height": 915, "deviceScaleFactor": 1, "mobile": True}
PLAYERS = ("Anna", "Bas", "Cor", "Dirk")  # first seats Oost, Zuid, West, Noord


@pytest.fixture(scope="module")
def app_url(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """`streamlit run streamlit_app.py` on a free localhost port with an empty SQLite file."""
    with serve_app(tmp_path_factory.mktemp("browser-evening"), WAIT_S) as url:
        yield url


@pytest.fixture(scope="module")
def phone(tmp_path_factory: pytest.TempPathFactory) -> Iterator[WebDriver]:
    """Headless Debian chromium with a 412x915 phone viewport (touch, mobile layout)."""
    browser = start_chromium(tmp_path_factory.mktemp("chromium-phone"), "600,1000")
    browser.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", PHONE)
    yield browser
    browser.quit()


def shot(browser: WebDriver, name: str) -> Path:
    """The whole page (beyond the phone's viewport) as test-artifacts/evening-NAME.png."""
    ARTIFACTS.mkdir(exist_ok=True)
    height = browser.execute_script(
        "return Math.max(document.body.scrollHeight, "
        "...Array.from(document.querySelectorAll('[data-testid=stMain], section')).map(e => e.scrollHeight))"
    )
    browser.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", {**PHONE, "height": min(int(height), 8000)})
    try:
        time.sleep(0.5)  # the page lays itself out at the taller size
        data = browser.execute_cdp_cmd("Page.captureScreenshot", {"format": "png"})
    finally:
        browser.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", PHONE)
    path = ARTIFACTS / f"evening-{name}.png"
    path.write_bytes(base64.b64decode(data["data"]))
    return path


def until(browser: WebDriver, condition: Any, what: str) -> Any:
    """Wait for `condition(browser)` to be truthy; on a timeout keep a screenshot and say what was awaited."""
    try:
        return WebDriverWait(browser, WAIT_S, ignored_exceptions=(StaleElementReferenceException,)).until(
            condition
        )
    except Exception:
        shot(browser, "failure")
        raise AssertionError(f"timed out waiting for {what}") from None


def shown(browser: WebDriver, css: str) -> list[WebElement]:
    return [e for e in browser.find_elements(By.CSS_SELECTOR, css) if e.is_displayed()]


def keyed(browser: WebDriver, key_part: str, inner: str = "") -> WebElement:
    """The one visible element inside the widget whose key contains `key_part` (Streamlit's st-key- class)."""
    found = until(
        browser, lambda b: shown(b, f"[class*='st-key-'][class*='{key_part}'] {inner}".strip()), key_part
    )
    return found[0]


def settled(browser: WebDriver) -> None:
    """The script run that the last action started is over, and no traceback is shown."""
    time.sleep(0.4)
    wait_idle(browser)
    no_exception_on_page(browser)


def open_tab(browser: WebDriver, label: str) -> None:
    tabs = until(browser, lambda b: [t for t in shown(b, "[role='tab']") if t.text == label], f"tab {label}")
    tap(tabs[0])
    until(browser, lambda b: open_tab_label(b) == label, f"the tab {label} open")
    settled(browser)


def open_tab_label(browser: WebDriver) -> str:
    return " ".join(t.text for t in shown(browser, "[role='tab'][aria-selected='true']"))


def click(browser: WebDriver, key: str) -> None:
    """Tap the button with widget key `key`."""
    button = until(browser, lambda b: shown(b, f".st-key-{key} button"), f"the button {key}")[0]
    until(browser, lambda b: button.is_enabled(), f"the button {key} enabled")
    tap(button)
    settled(browser)


def tap(element: WebElement) -> None:
    """Scroll the element to the middle of the screen, as a thumb would, and tap it."""
    element.parent.execute_script("arguments[0].scrollIntoView({block: 'center'})", element)
    element.click()


def type_into(element: WebElement, text: str) -> None:
    tap(element)
    element.send_keys(Keys.CONTROL, "a")
    element.send_keys(text, Keys.ENTER)


def choose(browser: WebDriver, key_part: str, option: str) -> None:
    """Pick `option` (its label) of the radio whose key contains `key_part`; tapped again when a rerun that
    was still under way redrew the radio before the tap counted."""
    for _attempt in range(3):
        radio = keyed(browser, key_part)
        labels = [e for e in radio.find_elements(By.CSS_SELECTOR, "label") if e.text.strip() == option]
        assert labels, [e.text for e in radio.find_elements(By.CSS_SELECTOR, "label")]
        if not labels[0].find_element(By.CSS_SELECTOR, "input").is_selected():
            tap(labels[0])
        settled(browser)
        if picked(browser, key_part, option):
            return
    raise AssertionError(f"{option} could not be picked in {key_part}")


def picked(browser: WebDriver, key_part: str, option: str) -> bool:
    radio = keyed(browser, key_part)
    return any(
        e.text.strip() == option and e.find_element(By.CSS_SELECTOR, "input").is_selected()
        for e in radio.find_elements(By.CSS_SELECTOR, "label")
    )


def number(browser: WebDriver, key_part: str, value: int) -> None:
    type_into(keyed(browser, key_part, "input"), str(value))
    settled(browser)
    until(
        browser,
        lambda b: keyed(b, key_part, "input").get_attribute("value") == str(value),
        f"{value} in {key_part}",
    )


def standing_shown(browser: WebDriver) -> dict[str, int]:
    """Player -> total as the Avond tab's metrics show it."""
    standing = {}
    for metric in shown(browser, "[data-testid='stMetric']"):
        label = metric.find_element(By.CSS_SELECTOR, "[data-testid='stMetricLabel']").text.strip()
        value = metric.find_element(By.CSS_SELECTOR, "[data-testid='stMetricValue']").text.strip()
        if label in PLAYERS:
            standing[label] = int(value.replace("−", "-"))
    return standing


def play_won_game(
    browser: WebDriver, winner: str, score: int, losers: dict[str, int], dead: tuple[str, ...] = ()
) -> None:
    """In Afrekenen: the winner (a seat wind) with a typed score, losers' scores and dead hands; saved."""
    names = {"E": "Oost", "S": "Zuid", "W": "West", "N": "Noord"}
    winner_label = next(
        e.text.strip()
        for e in keyed(browser, "-winner-").find_elements(By.CSS_SELECTOR, "label")
        if e.text.strip().endswith(f"({names[winner]})")
    )
    choose(browser, "-winner-", winner_label)
    choose(browser, "-source-", "Zelf invullen")
    number(browser, "-typed-score", score)
    for seat, points in losers.items():
        number(browser, f"-score-{seat}", points)
    for seat in dead:
        tap(keyed(browser, f"-dead-{seat}", "label"))
        settled(browser)
    click(browser, "record_game")
    assert open_tab_label(browser) == "Afrekenen"  # the player stays where they were


class Evening:
    """The evening counted by hand: the seats move on after every game, each game settled by seat."""

    def __init__(self) -> None:
        self.seats = dict(zip(PLAYERS, ("E", "S", "W", "N"), strict=True))
        self.history: list[tuple[dict[str, str], dict[str, int]]] = []

    def game(self, winner: str | None, scores: dict[str, int], dead: tuple[str, ...] = ()) -> None:
        counted = {seat: 0 if seat in dead or winner is None else scores.get(seat, 0) for seat in "ESWN"}
        changes = settle(counted, winner)
        self.history.append((dict(self.seats), {p: changes[w] for p, w in self.seats.items()}))
        self.seats = next_seat_winds(self.seats)

    def undo(self) -> None:
        self.seats = self.history.pop()[0]

    def totals(self) -> dict[str, int]:
        return {p: sum(changes[p] for _seats, changes in self.history) for p in PLAYERS}


def test_a_club_evening_on_a_phone(phone: WebDriver, app_url: str) -> None:
    phone.get(app_url)
    until(phone, lambda b: shown(b, "[role='tab']"), "the tabs")
    settled(phone)
    assert phone.execute_script("return window.innerWidth") == PHONE["width"]
    open_tab(phone, "Avond")
    for n, name in enumerate(PLAYERS):
        keyed(phone, f"new-player-{n}", "input").send_keys(name)
    keyed(phone, "new-name", "input").send_keys("Vrijdag")
    tap(next(b for b in shown(phone, "button") if b.text == "Avond beginnen"))
    settled(phone)
    until(phone, lambda b: standing_shown(b) == dict.fromkeys(PLAYERS, 0), "the new evening's standing")
    assert open_tab_label(phone) == "Avond"
    shot(phone, "1-started")
    expected = Evening()

    # Game 1: Anna (Oost) wins 96, Bas (Zuid) has 10, Dirk (Noord) a dead hand.
    open_tab(phone, "Afrekenen")
    play_won_game(phone, "E", 96, {"S": 10}, dead=("N",))
    expected.game("E", {"E": 96, "S": 10}, dead=("N",))
    shot(phone, "2-game1-saved")
    # Game 2: the next game's boxes are empty: nothing of game 1 stayed for the player now at Noord.
    assert not keyed(phone, "-dead-N").find_element(By.CSS_SELECTOR, "input").is_selected()
    assert keyed(phone, "-score-S", "input").get_attribute("value") == "0"

    # Game 2: a draw, asked first, from the Avond tab (which stays open through the dice and the draw).
    open_tab(phone, "Avond")
    click(phone, "throw_dice")
    assert open_tab_label(phone) == "Avond"
    click(phone, "record_draw")
    assert open_tab_label(phone) == "Avond" and "remise" in keyed(phone, "record_draw_confirm").text
    click(phone, "record_draw_confirm")
    assert open_tab_label(phone) == "Avond"
    expected.game(None, {})
    until(phone, lambda b: standing_shown(b) == expected.totals(), "the standing after the draw")

    # Game 3: Dirk (Zuid now) wins 48; then undone from the Avond tab (two taps, the tab stays).
    open_tab(phone, "Afrekenen")
    play_won_game(phone, "S", 48, {})
    expected.game("S", {"S": 48})
    open_tab(phone, "Avond")
    until(phone, lambda b: standing_shown(b) == expected.totals(), "the standing after game 3")
    click(phone, "undo")
    assert open_tab_label(phone) == "Avond"
    click(phone, "undo_confirm")
    assert open_tab_label(phone) == "Avond"
    expected.undo()
    until(phone, lambda b: standing_shown(b) == expected.totals(), "the standing after the undo")
    shot(phone, "3-undone")

    # A reload: a new session on the same evening.
    phone.refresh()
    until(phone, lambda b: shown(b, "[role='tab']"), "the tabs after the reload")
    settled(phone)
    open_tab(phone, "Avond")
    until(phone, lambda b: standing_shown(b) == expected.totals(), "the standing after the reload")

    # Game 3 again: Anna (West now) wins 64, Cor (Oost) has 8. Game 4: Dirk (Oost) wins 32, Cor dead.
    open_tab(phone, "Afrekenen")
    play_won_game(phone, "W", 64, {"E": 8})
    expected.game("W", {"W": 64, "E": 8})
    play_won_game(phone, "E", 32, {"S": 4}, dead=("N",))
    expected.game("E", {"E": 32, "S": 4}, dead=("N",))
    open_tab(phone, "Avond")
    totals = expected.totals()
    assert sum(totals.values()) == 0
    until(phone, lambda b: standing_shown(b) == totals, f"the standing {totals}")
    body = phone.find_element(By.TAG_NAME, "body").text
    assert "Spel 5:" in body  # four games stored, the fifth is next
    shot(phone, "4-standing")
