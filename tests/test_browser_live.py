"""The live class puzzle, homework and worksheets in a real browser: ``canasta-tutor serve --classroom`` on
127.0.0.3 (its own server, beside the classroom test's on 127.0.0.2), the teacher and two learners each in their
own browser context, every screen driven by clicks as a class would."""

from __future__ import annotations

import re

import pytest
from test_browser import browser  # noqa: F401  (a fixture)
from test_browser_classroom import KEY, new_context, run_server, shot, sign_in

pytestmark = pytest.mark.browser

HOST = "127.0.0.3"
NOTEBOOKS = ["index.ipynb", "teacher/dashboard.ipynb"]
ANA, BO = "Ana Live", "Bo Live"
PHONE = {"width": 360, "height": 740}
NO_SIDEWAYS = "() => document.scrollingElement.scrollWidth <= window.innerWidth + 1"
# Widget boxes clip what overflows them, so the page may not scroll and still hide a control off the screen:
# every visible control and widget box must end inside the screen (a wide table scrolls inside its own box).
OFF_SCREEN = """sel => [...document.querySelectorAll(sel)].filter(e => {
  const r = e.getBoundingClientRect();
  return r.width > 0 && r.height > 0 && r.right > window.innerWidth + 1;
}).map(e => (e.getAttribute('class') || e.tagName) + ' ' + (e.innerText || e.value || '').slice(0, 30))"""
CONTROLS = ":is(select, input, button, .widget-html, .widget-hbox, .widget-vbox, .widget-tab, .ct-live-chart svg)"


@pytest.fixture(scope="module")
def live_server(tmp_path_factory):
    yield from run_server(tmp_path_factory.mktemp("live"), NOTEBOOKS, HOST, range(9180, 9190))


def tab(page, title):
    page.get_by_role("tab", name=title).click()


def test_live_puzzle_homework_and_worksheets(browser, live_server):  # noqa: F811
    server = live_server
    contexts = [new_context(browser, server) for _ in range(3)]
    ana_ctx, bo_ctx, teacher_ctx = contexts
    try:
        # --- two learners sign in; their landing page waits for the teacher's puzzle -----------------------
        ana = sign_in(ana_ctx, server, ANA)
        bo = sign_in(bo_ctx, server, BO)
        for page in (ana, bo):
            page.get_by_text("Waiting for your teacher's puzzle").wait_for()
            page.locator(".ct-my-assignments").get_by_text("No assignments yet.").wait_for()

        # --- the teacher sends a puzzle from the dashboard's Live puzzle tab --------------------------------
        tp = teacher_ctx.new_page()
        tp.goto(server["url"] + "/teacher#key=" + KEY)
        tp.wait_for_url("**/teacher/dashboard.ipynb")
        tp.locator(".ct-heatmap").wait_for()  # the Class tab comes first, as before
        tab(tp, "Live puzzle")
        panel = tp.locator(".ct-live-teacher")
        picker = panel.locator("select").first
        options = picker.locator("option").all_text_contents()  # ipywidgets writes the spaces as no-break ones
        picker.select_option(index=next(i for i, t in enumerate(options) if re.search(r"\bf-002\b", t)))  # frozen
        panel.get_by_role("button", name="Send to the class").click()
        panel.get_by_text("Answered: nobody yet").wait_for()

        # --- both learners' screens show it; both answer; the bar chart counts both ---------------------------
        for page, button in ((ana, "Yes"), (bo, "No")):
            view = page.locator(".ct-live-learner")
            view.get_by_text("Is the discard pile frozen", exact=False).wait_for(timeout=30_000)
            view.get_by_role("button", name=button, exact=True).click()
            view.get_by_text("Your answer is in.").wait_for()
            assert "Why" not in view.inner_text()  # the explanation waits for the reveal
        panel.get_by_text(f"Answered: {ANA}, {BO}").wait_for(timeout=30_000)
        # a learner who signs in after the puzzle was sent gets it too
        cy_ctx = new_context(browser, server)
        contexts.append(cy_ctx)
        cy = sign_in(cy_ctx, server, "Cy Late").locator(".ct-live-learner")
        cy.get_by_text("Is the discard pile frozen", exact=False).wait_for(timeout=30_000)
        bars = dict(panel.locator(".ct-bar").evaluate_all("els => els.map(e => [e.dataset.label, +e.dataset.count])"))
        assert bars == {"Yes": 1, "No": 1}, bars
        assert "2 answers" in panel.locator(".ct-live-chart").inner_text()
        shot(tp, "live-01-chart")

        # --- the teacher reveals: the explanation appears on both screens ---------------------------------------
        panel.get_by_role("button", name="Reveal the answer").click()
        for page, verdict in ((ana, "Right!"), (bo, "Not quite.")):
            view = page.locator(".ct-live-learner")
            view.get_by_text("Your teacher has revealed the answer.").wait_for(timeout=30_000)
            view.get_by_text(verdict).wait_for()
            assert "Why" in view.inner_text() and "2♣" in view.inner_text()  # the wild card that freezes it
        cy.get_by_text("The answer is Yes.").wait_for(timeout=30_000)  # and who did not answer sees why
        assert "2♣" in cy.inner_text()
        shot(bo, "live-02-revealed")
        panel.locator(".ct-bar[data-label='Yes']").wait_for()
        assert "Yes ✔" in panel.locator(".ct-live-chart").inner_text()
        # --- the teacher reloads: the live tab shows the sent puzzle's cards and its chart again ------------------
        tp.reload()
        tp.locator(".ct-heatmap").wait_for(timeout=60_000)
        tab(tp, "Live puzzle")
        sent = panel.locator(".ct-live-sent")
        sent.get_by_text("f-002", exact=False).wait_for(timeout=30_000)
        assert sent.locator(".ct-card").count() >= 3
        size = panel.locator(".ct-live-chart svg text").first.evaluate("e => e.getBoundingClientRect().height")
        assert size >= 24, size   # large type on the projector

        # --- the teacher makes an assignment on the Homework tab ---------------------------------------------
        tab(tp, "Homework")
        form = tp.locator(".ct-new-assignment")
        form.locator("input[type=text]").first.fill("Freezing homework")
        form.locator("select[multiple]").select_option(label="04-freezing.yaml")
        form.get_by_role("button", name="Make the assignment").click()
        form.get_by_text("Made “Freezing homework”").wait_for()
        progress = tp.locator(".ct-assignment-progress")
        cell = progress.locator(f".ct-cell[data-learner='{ANA}']")
        cell.wait_for()
        total = int(cell.locator(".ct-done").inner_text().split("/")[1])
        assert cell.inner_text() == f"0/{total} · 0 right"
        assert progress.locator(f".ct-cell[data-learner='{BO}']").inner_text() == f"0/{total} · 0 right"  # roster

        # --- a learner sees it under "your assignments" and answers one of its puzzles -------------------------
        mine = ana.locator(".ct-my-assignments")
        mine.get_by_text("Freezing homework").wait_for(timeout=30_000)  # appears without reloading the page
        mine.get_by_role("button", name="Start").click()
        trainer = mine.locator(".ct-trainer")
        trainer.get_by_text("Is the discard pile frozen", exact=False).wait_for()
        trainer.get_by_role("button", name="No", exact=True).click()  # f-001: not frozen
        trainer.get_by_text("Right!").wait_for()
        shot(ana, "live-03-homework")

        # --- the dashboard's completion shows it -----------------------------------------------------------------
        progress.get_by_role("button", name="Refresh").click()
        tp.locator(f".ct-cell[data-learner='{ANA}']", has_text=f"1/{total} · 1 right").wait_for(timeout=30_000)
        assert progress.locator(f".ct-cell[data-learner='{BO}']").inner_text() == f"0/{total} · 0 right"

        # --- worksheets: a PDF of the assignment, for the teacher only -------------------------------------------
        tab(tp, "Worksheets")
        sheets = tp.locator(".ct-worksheets")
        sheets.locator("select").select_option(label="Assignment: Freezing homework")
        sheets.locator("a[href*='/classroom/worksheet/assignment/']").first.wait_for()  # the kernel redraws the links
        href = sheets.get_by_role("link", name="Worksheet with the answer key (PDF)").get_attribute("href")
        assert re.search(r"/classroom/worksheet/assignment/\d+\.pdf\?answers=1$", href), href
        url = server["url"] + href if href.startswith("/") else href
        r = teacher_ctx.request.get(url)
        assert r.status == 200 and r.body()[:5] == b"%PDF-"
        assert "attachment" in r.headers["content-disposition"]
        assert bo.request.get(url).status == 403
        with tp.expect_download() as download:
            sheets.get_by_role("link", name="Worksheet (PDF)", exact=True).click()
        assert download.value.suggested_filename == "Freezing-homework.pdf"

        # --- both pages stay usable on a phone: no sideways scroll ----------------------------------------------
        for page in (tp, ana):
            page.set_viewport_size(PHONE)
        for title in ("Class", "Live puzzle", "Homework", "Worksheets"):
            tab(tp, title)
            tp.wait_for_timeout(300)
            assert tp.evaluate(NO_SIDEWAYS), f"the {title} tab scrolls sideways at 360 px"
            assert tp.evaluate(OFF_SCREEN, ".ct-teacher-tabs " + CONTROLS) == [], title
        assert ana.evaluate(NO_SIDEWAYS), "the learner's landing page scrolls sideways at 360 px"
        assert ana.evaluate(OFF_SCREEN, ".ct-learner-corner " + CONTROLS) == []
        shot(tp, "live-04-phone")
        for ctx in contexts:
            assert not ctx.outside, ctx.outside
    finally:
        for ctx in contexts:
            ctx.close()
