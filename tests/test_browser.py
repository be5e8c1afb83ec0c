"""The web app in a real browser: `canasta-tutor serve` driven headless with Playwright and Debian's Chromium.

Screenshots go to test-artifacts/screenshots/. Any request to a host other than the local server fails the test.
"""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path
from urllib.parse import urlparse

import pytest

pytestmark = pytest.mark.browser

ROOT = Path(__file__).resolve().parent.parent
CHROMIUM = "/usr/bin/chromium"
ARTIFACTS = ROOT / "test-artifacts" / "screenshots"
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                 "--disable-background-networking", "--disable-component-update", "--disable-sync",
                 "--disable-dev-shm-usage"]
LESSONS = sorted(p.name for p in (ROOT / "lessons").glob("*.ipynb"))


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def wait_for(url: str, timeout: float) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        try:
            urllib.request.urlopen(url, timeout=5)
            return
        except urllib.error.HTTPError:
            return
        except OSError:
            time.sleep(0.3)
    raise TimeoutError(f"{url} did not answer within {timeout} s")


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("serve")
    port = free_port()
    env = dict(os.environ, CANASTA_TUTOR_DB=str(tmp / "progress.sqlite3"))
    log = open(tmp / "serve.log", "w")
    proc = subprocess.Popen([sys.executable, "-m", "canasta_tutor.cli", "serve", "--port", str(port), "--no-browser"],
                            cwd=ROOT, env=env, stdout=log, stderr=subprocess.STDOUT)
    base = f"http://127.0.0.1:{port}"
    try:
        wait_for(base + "/voila/tree", 90)
        # let the preheated kernels finish their first run, so that visits do not compete with them
        deadline = time.monotonic() + 240
        while time.monotonic() < deadline:
            text = (tmp / "serve.log").read_text(errors="replace")
            if all(f"Kernel pool of {name} is filled" in text for name in LESSONS):
                break
            time.sleep(0.5)
        yield {"url": base, "db": tmp / "progress.sqlite3", "log": tmp / "serve.log"}
    finally:
        proc.terminate()
        try:
            proc.wait(20)
        except subprocess.TimeoutExpired:
            proc.kill()
        log.close()


@pytest.fixture(scope="module")
def browser():
    if not Path(CHROMIUM).exists():
        pytest.fail(f"the browser tests need Debian's Chromium at {CHROMIUM} (apt-get install chromium); "
                    f"scripts/test.sh installs it")
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS, headless=True)
        yield b
        b.close()


@pytest.fixture
def page(browser, server):
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    pg = context.new_page()
    local = urlparse(server["url"]).netloc
    outside: list[str] = []

    def guard(route):
        url = route.request.url
        parsed = urlparse(url)
        if parsed.scheme in ("data", "blob", "about") or parsed.netloc == local:
            route.continue_()
        else:
            outside.append(url)
            route.abort()

    pg.route("**/*", guard)
    pg.set_default_timeout(90_000)
    yield pg
    context.close()
    assert not outside, f"requests to other hosts: {outside}"


def shot(page, name: str) -> None:
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / f"{name}.png"), full_page=True)


def trainer_text(page) -> str:
    return page.locator(".ct-trainer").last.inner_text()


def test_landing_page_then_taking_the_pile_puzzles(page, server):
    page.goto(server["url"] + "/")
    assert page.url.endswith("/voila/render/index.ipynb")
    page.get_by_role("link", name="Taking the pile").wait_for()
    shot(page, "01-landing")
    page.get_by_role("link", name="Taking the pile").click()
    page.wait_for_url("**/04-taking-the-pile.ipynb")
    page.get_by_text("May you take the discard pile now?").wait_for()
    trainer = page.locator(".ct-trainer").last
    # the first puzzle (t-001): a natural pair of sevens; the right answer is Yes, so No is wrong
    trainer.get_by_role("button", name="No", exact=True).click()
    trainer.get_by_text("Not quite.").wait_for()
    text = trainer_text(page)
    assert "The answer is Yes" in text and "7♥ 7♠" in text
    shot(page, "02-take-pile-wrong")
    trainer.get_by_role("button", name="Next puzzle →").click()
    # the second puzzle (t-002): one seven, no wild card: No is right
    trainer.get_by_text("One seven", exact=False).count()  # prompt may be absent; the question is what matters
    trainer.get_by_role("button", name="No", exact=True).click()
    trainer.get_by_text("Right!").wait_for()
    text = trainer_text(page)
    assert "Right! No." in text and "Score 1 of 2" in text
    shot(page, "03-take-pile-right")


def test_score_this_hand_by_typing(page, server):
    page.goto(server["url"] + "/voila/render/08-scoring.ipynb")
    page.get_by_text("What does your team score for this hand?").wait_for()
    trainer = page.locator(".ct-trainer").last
    box = trainer.get_by_placeholder("points")
    box.fill("thirty")
    trainer.get_by_role("button", name="Check").click()
    trainer.get_by_text("Please type a whole number").wait_for()
    shot(page, "04-score-letters")
    box.fill("30")
    trainer.get_by_role("button", name="Check").click()
    trainer.get_by_text("Right!").wait_for()
    text = trainer_text(page)
    assert "Right! 30." in text and "Melded cards" in text
    shot(page, "05-score-right")
    import sqlite3

    with sqlite3.connect(server["db"]) as conn:
        rows = conn.execute("SELECT puzzle_id, correct FROM attempts WHERE kind = 'score-hand'").fetchall()
    assert ("s-001", 1) in rows


@pytest.mark.parametrize("name", LESSONS)
def test_no_lesson_shows_an_error_or_source(page, server, name):
    page.goto(server["url"] + "/voila/render/" + name)
    page.locator("#rendered_cells").wait_for(state="visible")
    page.locator(".jupyter-widgets, .jp-RenderedMarkdown").first.wait_for()
    if name not in ("index.ipynb",):
        try:
            page.locator(".widget-button, .widget-slider, .widget-dropdown, .widget-text") \
                .locator("visible=true").first.wait_for()
        except Exception:
            shot(page, f"failed-{name.removesuffix('.ipynb')}")
            raise
    text = page.locator("body").inner_text()
    for bad in ("Traceback", "There was an error when executing cell", "Error:", "Exception"):
        assert bad not in text, (name, bad)
    assert page.locator("[data-mime-type='application/vnd.jupyter.stderr']").count() == 0, name
    assert "from canasta_tutor" not in text and page.locator(".jp-InputArea-editor").count() == 0, name
    shot(page, f"lesson-{name.removesuffix('.ipynb')}")
