"""A class over a term, in a real browser (Chromium): ``canasta-tutor serve --classroom`` on 127.0.0.3.

A learner signs in and answers; the server is stopped and started again, and the learner's page still knows them;
they sign out, sign back in on a second browser context with their personal code, and see all their earlier
answers; the teacher merges two names, and the dashboard shows one row with both sets of answers.
"""

from __future__ import annotations

import shutil

import pytest
from test_browser import block_other_hosts, browser, serve  # noqa: F401  (browser is a fixture)
from test_browser_classroom import ROOT, free_port, shot

pytestmark = pytest.mark.browser

HOST = "127.0.0.3"
KEY, CODE = "t3rm-key", "Green4"
NOTEBOOKS = ["index.ipynb", "04-taking-the-pile.ipynb", "teacher/dashboard.ipynb"]
LIA, LIA_TOO = "Lia Term", "Lia T"


def lessons_in(tmp):
    lessons = tmp / "lessons"
    for name in NOTEBOOKS:
        (lessons / name).parent.mkdir(parents=True, exist_ok=True)
        shutil.copy(ROOT / "lessons" / name, lessons / name)
    return lessons


def server_on(tmp, port):
    args = ["--classroom", "--ip", HOST, "--teacher-key", KEY, "--class-code", CODE, "--lessons", str(tmp / "lessons")]
    return serve(tmp, args, host=HOST, port=port, ready_path="/classroom/signin", notebooks=NOTEBOOKS)


def context_for(browser, base):  # noqa: F811
    context = browser.new_context(viewport={"width": 1200, "height": 900})
    context.outside = block_other_hosts(context, base)
    return context


def first_sign_in(context, base, name):
    page = context.new_page()
    page.goto(base + "/classroom/signin")
    page.get_by_label("Your name").fill(name)
    page.get_by_label("Class code").fill(CODE)
    page.get_by_role("button", name="Start").click()
    page.locator(".ct-learner-name").wait_for()
    return page


def answer_take(page, base, button: str, says: str):
    page.goto(base + "/voila/render/04-taking-the-pile.ipynb")
    page.get_by_text("May you take the discard pile now?").wait_for()
    trainer = page.locator(".ct-trainer").last
    trainer.get_by_role("button", name=button, exact=True).click()  # t-001: Yes is right
    trainer.get_by_text(says).wait_for()


def test_a_learner_keeps_their_name_and_answers_over_a_restart_another_device_and_a_merge(browser, tmp_path):  # noqa: F811
    lessons_in(tmp_path)
    port = free_port(HOST)
    contexts = []
    with server_on(tmp_path, port) as (base, _proc):
        first = context_for(browser, base)
        contexts.append(first)
        lia = first_sign_in(first, base, LIA)
        code = lia.locator(".ct-personal-code").inner_text().strip()
        assert len(code) == 6
        answer_take(lia, base, "No", "Not quite.")
        shot(lia, "term-01-answered")
    # --- the server is stopped and started again: the same database, the same cookie secret ----------------------
    with server_on(tmp_path, port) as (base, _proc):
        lia.goto(base + "/voila/render/index.ipynb")
        assert "/classroom/signin" not in lia.url
        lia.locator(".ct-learner-name").wait_for()
        assert lia.locator(".ct-learner-name").inner_text() == LIA
        lia.get_by_text("Topics you have practised").wait_for()
        with lia.context.expect_page() as opened:  # (the page's HTML output opens links in a new tab)
            lia.get_by_role("link", name="sign out").click()
        opened.value.wait_for_url("**/classroom/signin")
        lia.goto(base + "/voila/render/index.ipynb")
        assert "/classroom/signin" in lia.url  # signed out means out

        # --- back on a second device, with the personal code only ------------------------------------------
        second = context_for(browser, base)
        contexts.append(second)
        again = second.new_page()
        again.goto(base + "/classroom/signin")
        again.get_by_label("Your name").fill(LIA)
        again.get_by_label("Class code").fill(CODE)
        again.get_by_role("button", name="Start").click()
        again.get_by_text("already called Lia Term").wait_for()  # the name is hers: not without her code
        again.get_by_label("Your personal code").fill(code.lower())
        again.get_by_role("button", name="Start").click()
        again.locator(".ct-learner-name").wait_for()
        assert again.locator(".ct-learner-name").inner_text() == LIA
        table = again.locator(".ct-my-progress")
        table.wait_for()
        assert "taking" in table.inner_text() and "1" in table.inner_text()  # her answer from before the restart
        answer_take(again, base, "Yes", "Right!")
        shot(again, "term-02-second-device")

        # --- the same learner under a second name, merged by the teacher ---------------------------------
        third = context_for(browser, base)
        contexts.append(third)
        answer_take(first_sign_in(third, base, LIA_TOO), base, "Yes", "Right!")
        teacher = context_for(browser, base)
        contexts.append(teacher)
        tp = teacher.new_page()
        tp.goto(base + "/teacher#key=" + KEY)  # the teacher's file link: the key after "#"
        tp.wait_for_url("**/teacher/dashboard.ipynb")
        roster = tp.locator(".ct-roster")
        roster.locator(".ct-roster-row").first.wait_for()
        selects = roster.locator("select")
        selects.nth(0).select_option(label=LIA_TOO)
        selects.nth(1).select_option(label=LIA)
        roster.get_by_role("button", name="Merge into").click()
        tp.get_by_text(f"{LIA_TOO}'s 1 answers are now {LIA}'s").wait_for()
        tp.wait_for_function("() => document.querySelectorAll('.ct-cell').length === 1")
        cells = tp.locator(".ct-cell").evaluate_all(
            "els => els.map(e => [e.dataset.learner, +e.dataset.attempts, +e.dataset.correct])")
        assert cells == [[LIA, 3, 2]], cells  # one row: her two answers and the other name's one
        assert LIA_TOO not in tp.locator(".ct-summary").inner_text()
        assert "<b>1</b> learner ·" in tp.locator(".ct-summary").inner_html()
        shot(tp, "term-03-merged")
        for context in contexts:
            assert context.outside == []
            context.close()
