"""Learn from your mistakes in a real browser (Chromium, Playwright): a costly decision of classic hand 11 (a wild
card thrown away) as a puzzle on the card table, served by ``canasta-tutor serve`` on 127.0.0.9 (ports 9450-9459).
The learner picks the card and presses the table's own Discard button; the expert's verdict is said ("The better
move: ..."), *Show me* replays the better move on the table; axe-core finds no serious violation. Screenshot:
test-artifacts/screenshots/mistakes.png."""

from __future__ import annotations

import shutil

import nbformat
import pytest
from test_browser import ROOT, axe_violations, browser, serve, shot  # noqa: F401
from test_browser_classroom import free_port

pytestmark = pytest.mark.browser

HOST = "127.0.0.9"
PORTS = range(9450, 9460)
#: A test page (not a lesson): the position and its puzzle are built here, then the trainer shows it.
PAGE = """\
import random
from canasta_tutor.bots.club import ClubBot
from canasta_tutor.bots.expert import ExpertBot
from canasta_tutor.bots.review import review_decision
from canasta_tutor.game import DISCARD, Action, Game, apply, legal_actions, observation
from canasta_tutor.puzzles.decisions import puzzle_from_decision
from canasta_tutor.widgets.mistakes import MistakesTrainer
state, club, rng = Game("classic").new_initial_state(11), ClubBot(), random.Random(0)
while not (state.current_player == 0 and state.phase != "draw" and len(state.history) > 12
           and any(c.is_wild for c in observation(state, 0).hand)):
    apply(state, club.choose(observation(state, state.current_player), legal_actions(state), rng)[0])
wild = next(c for c in observation(state, 0).hand if c.is_wild)
d = review_decision(ExpertBot(think=None, playouts=12, seed=11), state, (Action(DISCARD, cards=(wild,)),))
MistakesTrainer([puzzle_from_decision(d, hand="11 (Classic Canasta)")], learner="ana")
"""


@pytest.fixture(scope="module")
def mistakes_server(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("mistakes")
    lessons = tmp / "lessons"
    lessons.mkdir()
    shutil.copy(ROOT / "lessons" / "index.ipynb", lessons / "index.ipynb")   # the server wants its landing page
    nbformat.write(nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell(PAGE)]), lessons / "mistakes.ipynb")
    with serve(tmp, ["--ip", HOST, "--lessons", str(lessons)], host=HOST, port=free_port(HOST, PORTS),
               ready_path="/voila/tree", notebooks=["index.ipynb", "mistakes.ipynb"]) as (base, _proc):
        yield base


def test_a_costly_decision_is_answered_on_the_table_and_shown_better(browser, mistakes_server):  # noqa: F811
    context = browser.new_context(viewport={"width": 1000, "height": 900})
    try:
        page = context.new_page()
        page.goto(mistakes_server + "/voila/render/mistakes.ipynb")
        page.locator(".ct-puzzle-question", has_text="Your turn: what do you do?").wait_for(timeout=120_000)
        page.locator(".ctt-hand .ctt-card").first.wait_for()
        # a wild card of the hand (a two or a joker): throwing one away is the costly decision of the puzzle
        page.locator(".ctt-hand .ctt-card[data-code^='2'], .ctt-hand .ctt-card[data-code='JK']").first.click()
        page.locator(".ctt-move[data-kind='discard']").click()
        feedback = page.locator(".ct-feedback", has_text="The better move:")
        feedback.wait_for(timeout=60_000)
        assert "points more than yours" in feedback.inner_text()
        assert page.locator(".ctt-moves .ctt-move").count() == 0          # answered: nothing more to play
        assert axe_violations(page) == []
        page.get_by_role("button", name="Show me").click()
        step = page.locator(".ctt-step")
        step.wait_for()
        assert step.inner_text().startswith("Step 1 of ")
        page.locator(".ctt-next").click()
        page.wait_for_function("() => document.querySelector('.ctt-step').textContent.startsWith('Step 2')")
        shot(page, "mistakes")
    finally:
        context.close()
