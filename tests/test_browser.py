"""The web app in a real browser: `canasta-tutor serve` driven headless with Playwright and Debian's Chromium.

Screenshots (full length, at 1280 and 360 px wide) go to test-artifacts/screenshots/. Any request to a host
other than the local server fails the test. Every page is checked on a 360-px phone (nothing scrolls
sideways) and by axe-core (no serious or critical accessibility violation); scripts/test.sh installs axe-core
with npm into tests/.axe/ when it is missing.
"""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from contextlib import contextmanager
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
AXE = ROOT / "tests" / ".axe" / "node_modules" / "axe-core" / "axe.min.js"
PORTS = range(9130, 9140)  # the ports this project's test servers may use
PHONE = {"width": 360, "height": 740}


def free_port() -> int:
    """The first free port of PORTS on the loopback address."""
    for port in PORTS:
        with socket.socket() as s:
            try:
                s.bind(("127.0.0.1", port))
            except OSError:
                continue
            return port
    raise RuntimeError(f"no free port in {PORTS.start}-{PORTS.stop - 1}: stop a server that uses one")


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


@contextmanager
def serve(tmp, args, *, host: str, port: int, ready_path: str, notebooks, env: dict | None = None):
    """Run ``canasta-tutor serve ARGS`` with its own progress database in ``tmp`` (or ``env``'s); yield its base URL
    once it answers ``ready_path`` and the preheated kernels of ``notebooks`` have finished their first run (so that
    visits do not compete with them); stop it afterwards."""
    env = {**os.environ, "CANASTA_TUTOR_DB": str(tmp / "progress.sqlite3"), **(env or {})}
    log = open(tmp / "serve.log", "w")
    proc = subprocess.Popen([sys.executable, "-m", "canasta_tutor.cli", "serve", "--port", str(port), "--no-browser",
                             *args], cwd=ROOT, env=env, stdout=log, stderr=subprocess.STDOUT)
    base = f"http://{host}:{port}"
    try:
        wait_for(base + ready_path, 90)
        deadline = time.monotonic() + 240
        while time.monotonic() < deadline:
            text = (tmp / "serve.log").read_text(errors="replace")
            if all(f"Kernel pool of {name} is filled" in text for name in notebooks):
                break
            time.sleep(0.5)
        yield base, proc
    finally:
        proc.terminate()
        try:
            proc.wait(20)
        except subprocess.TimeoutExpired:
            proc.kill()
        log.close()


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("serve")
    with serve(tmp, [], host="127.0.0.1", port=free_port(), ready_path="/voila/tree",
               notebooks=LESSONS) as (base, _proc):
        yield {"url": base, "db": tmp / "progress.sqlite3", "log": tmp / "serve.log", "ready": time.monotonic()}


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


def block_other_hosts(target, server_url: str) -> list[str]:
    """Let ``target`` (a page or a browser context) reach only the server at ``server_url`` (and data:, blob:,
    about: URLs); every other request is refused and listed in the returned list, which a test asserts empty."""
    local = urlparse(server_url).netloc
    outside: list[str] = []

    def guard(route):
        parsed = urlparse(route.request.url)
        if parsed.scheme in ("data", "blob", "about") or parsed.netloc == local:
            route.continue_()
        else:
            outside.append(route.request.url)
            route.abort()

    target.route("**/*", guard)
    target.set_default_timeout(90_000)
    return outside


@pytest.fixture
def page(browser, server):
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    pg = context.new_page()
    outside = block_other_hosts(pg, server["url"])
    yield pg
    context.close()
    assert not outside, f"requests to other hosts: {outside}"


def shot(page, name: str) -> None:
    """A full-length screenshot: the document itself scrolls (the template sees to it), so full_page gets it all."""
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / f"{name}.png"), full_page=True)


def too_wide(page) -> dict:
    """How wide the document is, and every element sticking out of the viewport (unless a box scrolls it)."""
    return page.evaluate("""() => {
      const vw = document.documentElement.clientWidth, out = [];
      const scrolls = el => { for (let a = el.parentElement; a; a = a.parentElement) {
          const o = getComputedStyle(a).overflowX;
          if ((o === 'auto' || o === 'scroll' || o === 'hidden') && a !== document.body
              && a !== document.documentElement) return a.getBoundingClientRect().right <= vw + 1; }
        return false; };
      for (const el of document.querySelectorAll('body *')) {
        const r = el.getBoundingClientRect(), st = getComputedStyle(el);
        if (r.width === 0 || st.visibility === 'hidden' || st.position === 'fixed') continue;
        if ((r.right > vw + 1 || r.left < -1 || r.width > vw + 1) && !scrolls(el))
          out.push(el.tagName.toLowerCase() + '.' + String(el.className).split(' ').slice(0, 3).join('.')
                   + ' ' + Math.round(r.left) + '..' + Math.round(r.right));
      }
      return {scrollWidth: document.scrollingElement.scrollWidth, viewport: vw, wide: out.slice(0, 10)};
    }""")


def axe_violations(page) -> list[str]:
    """axe-core's serious and critical violations on the page, one line each."""
    if not AXE.is_file():
        pytest.fail(f"axe-core is missing ({AXE}): scripts/test.sh installs it with npm")
    page.add_script_tag(path=str(AXE))
    found = page.evaluate("""async () => {
      const r = await axe.run(document, {resultTypes: ['violations']});
      return r.violations.filter(v => v.impact === 'serious' || v.impact === 'critical')
        .map(v => v.impact + ' ' + v.id + ': ' + v.help + ' -- ' + v.nodes.slice(0, 3)
          .map(n => n.target.join(' ') + ' (' + n.failureSummary.replace(/\\s+/g, ' ').slice(0, 160) + ')').join('; '));
    }""")
    return found


def open_pickers(page) -> None:
    """Open every deck picker on the page, so that it is measured and scanned too."""
    for button in page.get_by_role("button", name="Pick cards by tapping").all():
        button.click()
    if page.get_by_role("button", name="Pick cards by tapping").count() or \
            page.get_by_role("button", name="Hide the deck").count():
        page.locator(".ct-deck").first.wait_for()


def trainer_text(page) -> str:
    return page.locator(".ct-trainer").last.inner_text()


def test_landing_page_then_taking_the_pile_puzzles(page, server):
    page.goto(server["url"] + "/")
    assert page.url.endswith("/voila/render/index.ipynb")
    page.get_by_role("link", name="Taking the pile").wait_for()
    shot(page, "01-landing")
    page.get_by_role("link", name="Taking the pile").click()
    page.wait_for_url("**/index.ipynb#04-taking-the-pile")  # the landing page shows the lesson inside itself
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
    stem = name.removesuffix(".ipynb")
    shot(page, f"lesson-{stem}")
    # the document scrolls (not a box inside it): it is as tall as the lesson, so screenshots show all of it
    assert page.evaluate("document.scrollingElement.scrollHeight + 2 >= "
                         "document.querySelector('#rendered_cells').scrollHeight"), "the lesson scrolls in a box"
    # on a phone: nothing scrolls sideways, with the deck pickers open too
    page.set_viewport_size(PHONE)
    open_pickers(page)
    page.wait_for_timeout(300)
    wide = too_wide(page)
    assert wide["scrollWidth"] <= PHONE["width"] and not wide["wide"], (name, wide)
    shot(page, f"phone-{stem}")
    problems = axe_violations(page)
    assert not problems, (name, problems)
    if stem == "06-the-opening-minimum":  # the score slider by keyboard: steps of 5, PageUp 25, a box beside it
        handle = page.get_by_role("slider", name="Team score")
        box = page.locator(".ct-score-box input").first
        handle.focus()
        page.keyboard.press("ArrowRight")
        page.wait_for_function("() => document.querySelector('.ct-score-box input').value === '5'")
        page.keyboard.press("PageUp")
        page.wait_for_function("() => document.querySelector('.ct-score-box input').value === '30'")
        box.fill("1500")
        box.press("Enter")
        page.locator(".ct-minimum", has_text="90").wait_for()
        assert handle.get_attribute("aria-valuenow").startswith("1500")


def config(page) -> dict:
    import json

    return json.loads(page.locator("#jupyter-config-data").text_content())


def test_a_puzzle_by_keyboard_only_timed_from_the_visit(page, server):
    """Tab to the answer box, type, Enter; the feedback takes focus; Tab, Space: the next puzzle."""
    import sqlite3

    # the lesson's kernel was preheated before the server was ready: let it age, so that a clock started then shows
    wait = 15 - (time.monotonic() - server["ready"])
    if wait > 0:
        time.sleep(wait)
    start = time.monotonic()
    page.set_viewport_size(PHONE)
    page.goto(server["url"] + "/voila/render/08-scoring.ipynb")
    page.get_by_text("What does your team score for this hand?").wait_for()
    box = page.locator(".ct-trainer").last.get_by_placeholder("points")
    for _ in range(300):
        page.keyboard.press("Tab")
        if box.evaluate("e => e === document.activeElement"):
            break
    else:
        pytest.fail("Tab never reached the answer box")
    page.keyboard.type("30")
    page.keyboard.press("Enter")
    trainer = page.locator(".ct-trainer").last
    trainer.get_by_text("Right!").wait_for()
    elapsed = time.monotonic() - start
    assert page.evaluate("document.activeElement.classList.contains('ct-feedback')"), "focus is not on the feedback"
    assert "You answered: 30. The answer: 30." in trainer.inner_text()
    # the focus ring is visible on the focused feedback
    assert page.evaluate("getComputedStyle(document.activeElement).outlineStyle") != "none"
    page.keyboard.press("Tab")
    assert page.evaluate("document.activeElement.textContent.trim()") == "Next puzzle →"
    page.keyboard.press("Space")
    trainer.get_by_text("You answered").wait_for(state="detached")
    assert trainer.get_by_placeholder("points").input_value() == ""
    with sqlite3.connect(server["db"]) as conn:
        rows = conn.execute("SELECT seconds FROM attempts WHERE puzzle_id = 's-001' ORDER BY id DESC").fetchall()
    # counted from the visit (the browser asking for the widgets), not from the kernel's preheating
    assert rows and 0 < rows[0][0] <= elapsed, (rows, elapsed)
    shot(page, "06-keyboard-next-puzzle")


def test_a_page_whose_kernel_has_gone_says_so(page, server):
    page.goto(server["url"] + "/voila/render/07-going-out.ipynb")
    page.get_by_text("Can you go out this turn?").wait_for()
    kernel = config(page)["kernelId"]
    # what culling an idle kernel does: the server shuts it down
    answer = page.request.post(f"{server['url']}/voila/api/shutdown/{kernel}")
    assert answer.ok, answer.status
    assert page.get_by_role("alert").count() == 0
    # the learner comes back and answers: the page finds its kernel gone and says so
    page.locator(".ct-trainer").last.get_by_role("button", name="Yes", exact=True).click()
    banner = page.get_by_role("alert")
    banner.wait_for(timeout=15_000)
    assert "This page has been idle; reload it to go on. Your answers so far are saved." in banner.inner_text()
    shot(page, "07-idle-banner")
    page.get_by_role("button", name="Reload").click()
    page.get_by_text("Can you go out this turn?").wait_for()
    assert page.get_by_role("alert").count() == 0
