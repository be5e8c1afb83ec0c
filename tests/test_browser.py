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
from playwright.sync_api import expect

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


def _port_free(host: str, port: int) -> bool:
    with socket.socket() as s:
        try:
            s.bind((host, port))
        except OSError:
            return False
        return True


def free_port() -> int:
    """The first free port of PORTS on the loopback address."""
    for port in PORTS:
        if _port_free("127.0.0.1", port):
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
    visits do not compete with them); stop it afterwards. A port found free that another process takes before the
    server binds it (the server then stops: "no available port") is not the server's: the next free port is tried,
    never a page of that other process taken for ours."""
    env = {**os.environ, "CANASTA_TUTOR_DB": str(tmp / "progress.sqlite3"), **(env or {})}
    for attempt in range(4):
        log = open(tmp / "serve.log", "w")
        proc = subprocess.Popen([sys.executable, "-m", "canasta_tutor.cli", "serve", "--port", str(port),
                                 "--no-browser", *args], cwd=ROOT, env=env, stdout=log, stderr=subprocess.STDOUT)
        base = f"http://{host}:{port}"
        try:
            wait_for(base + ready_path, 90)
            time.sleep(0.5)
            if proc.poll() is not None:  # what answered is another process: ours could not bind the port
                text = (tmp / "serve.log").read_text(errors="replace")
                if "already in use" in text and attempt < 3:
                    log.close()
                    port = next(p for p in range(port + 1, port + 50) if _port_free(host, p))
                    continue
                raise RuntimeError(f"the server stopped at start: {text[-600:]}")
            deadline = time.monotonic() + 240
            while time.monotonic() < deadline:
                text = (tmp / "serve.log").read_text(errors="replace")
                if all(f"Kernel pool of {name} is filled" in text for name in notebooks):
                    break
                time.sleep(0.5)
            yield base, proc
            return
        finally:
            if proc.poll() is None:
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


#: Every word or number in a table cell that the browser broke over two lines ("poin / ts", "+50 / 0"), or that
#: sticks out of its cell: each word's rendered boxes (Range.getClientRects) must sit on one line, inside the cell.
#: A word may break after its hyphen ("three-/deck"), as print does.
BROKEN_IN_TABLES = """() => {
  const out = [];
  for (const cell of document.querySelectorAll('table td, table th')) {
    const box = cell.getBoundingClientRect();
    if (box.width === 0 || box.height === 0) continue;
    const walker = document.createTreeWalker(cell, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      const re = /[^\\s\\-\u2010\u2013]+[\\-\u2010\u2013]?/g;
      let m;
      while ((m = re.exec(node.textContent)) !== null) {
        const range = document.createRange();
        range.setStart(node, m.index);
        range.setEnd(node, m.index + m[0].length);
        const rects = Array.from(range.getClientRects()).filter(r => r.width > 0.5);
        const where = JSON.stringify(m[0]) + ' in ' + JSON.stringify(cell.textContent.trim().slice(0, 50));
        if (new Set(rects.map(r => Math.round(r.top))).size > 1) out.push('broken: ' + where);
        else if (rects.some(r => r.right > box.right + 1 || r.left < box.left - 1))
          out.push('outside its cell: ' + where);
      }
    }
  }
  return out.slice(0, 20);
}"""

#: Controls and boxes cut off by a box that clips them, though the page itself does not scroll sideways (the melds
#: box and the practice page's topics, 2 px past the right edge); tables, meant to scroll in their own box, aside.
CLIPPED = """() => {
  const out = [];
  const wanted = 'input, select, textarea, button, .widget-inline-hbox, .ct-melds, .ct-meld, .ct-card, '
                 + '.widget-html-content';
  for (const el of document.querySelectorAll(wanted)) {
    const r = el.getBoundingClientRect(), st = getComputedStyle(el);
    if (r.width === 0 || st.visibility === 'hidden' || el.closest('table, .ct-scroll, .ct-presets-box')) continue;
    for (let a = el.parentElement; a && a !== document.body && a !== document.documentElement; a = a.parentElement) {
      if (getComputedStyle(a).overflowX === 'visible') continue;
      const ar = a.getBoundingClientRect(), left = ar.left + a.clientLeft, right = left + a.clientWidth;
      if (r.right > right + 0.5 || r.left < left - 0.5) {
        out.push(el.tagName.toLowerCase() + '.' + String(el.className).split(' ').slice(0, 3).join('.') + ' '
                 + Math.round(r.left) + '..' + Math.round(r.right) + ' cut at ' + Math.round(left) + '..'
                 + Math.round(right));
        break;
      }
    }
  }
  return out.slice(0, 10);
}"""

#: Drop-down lists whose chosen text is wider than the list ("(four players, two partnersh").
CUT_SELECTS = """() => {
  const out = [], canvas = document.createElement('canvas').getContext('2d');
  for (const s of document.querySelectorAll('select:not([multiple])')) {
    if (!s.offsetWidth || s.selectedIndex < 0) continue;
    const st = getComputedStyle(s);
    canvas.font = st.fontWeight + ' ' + st.fontSize + ' ' + st.fontFamily;
    const text = s.options[s.selectedIndex].text, room = s.clientWidth - parseFloat(st.paddingLeft) - 20;
    if (canvas.measureText(text).width > room) out.push(JSON.stringify(text) + ' in ' + Math.round(room) + ' px');
  }
  return out;
}"""


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
    assert not page.evaluate(CLIPPED), (name, page.evaluate(CLIPPED))
    assert not page.evaluate(BROKEN_IN_TABLES), (name, page.evaluate(BROKEN_IN_TABLES))
    assert not page.evaluate(CUT_SELECTS), (name, page.evaluate(CUT_SELECTS))
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
    assert "Right! 30." in trainer.inner_text() and "You answered" not in trainer.inner_text()  # said once
    # the focus ring is visible on the focused feedback
    assert page.evaluate("getComputedStyle(document.activeElement).outlineStyle") != "none"
    page.keyboard.press("Tab")
    assert page.evaluate("document.activeElement.textContent.trim()") == "Next puzzle →"
    page.keyboard.press("Space")
    trainer.get_by_text("Right!").wait_for(state="detached")
    # the next puzzle's empty box comes in its own widget message, a moment after the feedback goes
    expect(trainer.get_by_placeholder("points")).to_have_value("", timeout=30_000)
    # the next puzzle's answer box has the focus: typing answers it
    page.wait_for_function("() => document.activeElement && document.activeElement.placeholder === 'points'")
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


#: The focused element's ring: its style, width, contrast (against the page's white and the element's own
#: background, the lower), and whether a box around it cuts the ring off (drawn outside the element, it was clipped
#: by the widget box holding Yes and No: only a sliver showed).
FOCUS_RING = """() => {
  const el = document.activeElement, st = getComputedStyle(el);
  const rgb = s => (s.match(/[\\d.]+/g) || []).slice(0, 3).map(Number);
  const lum = c => { const [r, g, b] = c.map(v => { v /= 255; return v <= 0.03928 ? v / 12.92
                                                                  : Math.pow((v + 0.055) / 1.055, 2.4); });
                     return 0.2126 * r + 0.7152 * g + 0.0722 * b; };
  const ratio = (a, b) => (Math.max(lum(a), lum(b)) + 0.05) / (Math.min(lum(a), lum(b)) + 0.05);
  const ring = rgb(st.outlineColor), width = parseFloat(st.outlineWidth), offset = parseFloat(st.outlineOffset);
  const back = st.backgroundColor.startsWith('rgba(0, 0, 0, 0)') ? [255, 255, 255] : rgb(st.backgroundColor);
  const out = Math.max(0, offset + width), r = el.getBoundingClientRect();
  let clipped = '';
  for (let a = el.parentElement; a && a !== document.documentElement; a = a.parentElement) {
    if (getComputedStyle(a).overflowX === 'visible' && getComputedStyle(a).overflowY === 'visible') continue;
    const ar = a.getBoundingClientRect(), left = ar.left + a.clientLeft, top = ar.top + a.clientTop;
    if (r.left - out < left - 0.5 || r.top - out < top - 0.5 || r.right + out > left + a.clientWidth + 0.5
        || r.bottom + out > top + a.clientHeight + 0.5) { clipped = String(a.className).slice(0, 60); break; }
  }
  return {text: el.textContent.trim(), style: st.outlineStyle, width: width, clipped: clipped,
          contrast: Math.min(ratio(ring, [255, 255, 255]), ratio(ring, back))};
}"""


def test_two_puzzles_in_a_row_by_keyboard_only(page, server):
    """Tab to Yes, Space; Tab to Next, Enter: focus goes to the new puzzle's first answer (it stayed on Next, and Tab
    went on to "back to all lessons"); Tab to No, Space. The focus ring on Yes and No is clearly visible (WCAG 2.2
    focus appearance: a solid ring at least 2 px thick, of at least 3:1 contrast against the page)."""
    page.goto(server["url"] + "/voila/render/07-going-out.ipynb")
    page.get_by_text("Can you go out this turn?").wait_for()
    trainer = page.locator(".ct-trainer").last
    first = trainer.locator(".ct-answer-controls button").first
    for _ in range(300):
        page.keyboard.press("Tab")
        if first.evaluate("e => e === document.activeElement"):
            break
    else:
        pytest.fail("Tab never reached the puzzle's Yes")
    ring = page.evaluate(FOCUS_RING)
    assert ring["text"] == "Yes" and ring["style"] == "solid" and ring["width"] >= 2, ring
    assert ring["contrast"] >= 3 and not ring["clipped"], ring
    trainer.screenshot(path=str(ARTIFACTS / "08-keyboard-focus-on-yes.png"))
    page.keyboard.press("Space")                       # g-001: Yes is right
    trainer.get_by_text("Right! Yes.").wait_for()
    assert page.evaluate("document.activeElement.classList.contains('ct-feedback')")
    page.keyboard.press("Tab")
    assert page.evaluate("document.activeElement.textContent.trim()") == "Next puzzle →"
    page.keyboard.press("Enter")
    trainer.get_by_text("Right! Yes.").wait_for(state="detached")
    page.wait_for_function("""() => { const a = document.activeElement;
      return a && a.closest('.ct-answer-controls') && a.textContent.trim() === 'Yes' && !a.disabled; }""")
    page.keyboard.press("Tab")
    ring = page.evaluate(FOCUS_RING)
    assert ring["text"] == "No" and ring["contrast"] >= 3 and not ring["clipped"], ring
    page.keyboard.press("Space")                       # g-003: No is right
    trainer.get_by_text("Right! No.").wait_for()
    assert "Score 2 of 2" in trainer_text(page)
    shot(page, "09-keyboard-two-puzzles")


def test_tables_on_a_phone_keep_words_whole_and_a_wide_one_says_it_scrolls(page, server):
    """At 360 px: the score sheet after an answer (lesson 8) breaks no number or word; lesson 9's table, wider than
    the screen, shows that it scrolls, and can be scrolled by keyboard."""
    page.set_viewport_size(PHONE)
    page.goto(server["url"] + "/voila/render/08-scoring.ipynb")
    trainer = page.locator(".ct-trainer").last
    trainer.get_by_placeholder("points").fill("25")
    trainer.get_by_role("button", name="Check").click()
    trainer.get_by_text("Not quite.").wait_for()
    assert trainer.locator("table").count() == 1
    page.wait_for_timeout(300)
    assert not page.evaluate(BROKEN_IN_TABLES), page.evaluate(BROKEN_IN_TABLES)
    shot(page, "phone-08-score-sheet")
    page.goto(server["url"] + "/voila/render/09-variants-and-house-rules.ipynb")
    box = page.locator(".ct-presets-box").first
    box.wait_for()
    page.wait_for_function("() => document.querySelector('.ct-presets-box').classList.contains('ct-overflows')")
    assert box.evaluate("b => b.scrollWidth > b.clientWidth") and box.get_attribute("tabindex") == "0"
    hint = box.evaluate("b => b.previousElementSibling && b.previousElementSibling.textContent")
    assert hint == "The table is wider than the screen: scroll it sideways →"
    assert not page.evaluate(BROKEN_IN_TABLES), page.evaluate(BROKEN_IN_TABLES)
    box.focus()
    page.keyboard.press("ArrowRight")
    page.wait_for_function("() => document.querySelector('.ct-presets-box').scrollLeft > 0")
    shot(page, "phone-09-table-scrolls")
    # at 1280 px the table fits: no sign
    page.set_viewport_size({"width": 1280, "height": 900})
    page.wait_for_function("() => !document.querySelector('.ct-presets-box').classList.contains('ct-overflows')")
    assert page.locator(".ct-scroll-hint").count() == 0


def test_touch_targets_and_the_deal_button_on_a_phone(page, server):
    """Cards to tap are at least 44 px high (and 44 px wide where 13 fit in a row); "Deal this hand" sits beside
    its box, not beside the box's label."""
    sizes = """() => Array.from(document.querySelectorAll('.ct-deck .widget-toggle-button'))
                 .filter(b => b.offsetWidth)
                 .map(b => [b.getBoundingClientRect().width, b.getBoundingClientRect().height])"""
    page.goto(server["url"] + "/voila/render/02-melds-and-canastas.ipynb")
    page.locator(".ct-deck").first.wait_for()
    wide = page.evaluate(sizes)
    assert wide and all(w >= 44 and h >= 44 for w, h in wide), wide[:5]
    page.set_viewport_size(PHONE)
    page.wait_for_timeout(300)
    narrow = page.evaluate(sizes)
    assert narrow and all(h >= 44 for _w, h in narrow), narrow[:5]
    page.goto(server["url"] + "/voila/render/10-play-a-hand.ipynb")
    deal = page.get_by_role("button", name="Deal this hand")
    deal.wait_for()
    box = page.get_by_label("Hand number").bounding_box()
    button = deal.bounding_box()
    assert abs((box["y"] + box["height"]) - (button["y"] + button["height"])) <= 3, (box, button)
    cards = page.locator(".ctt-hand .ctt-card")  # the card table's (widgets/table.py)
    cards.first.wait_for()
    assert cards.count() and all(t.bounding_box()["height"] >= 44 for t in cards.all())
