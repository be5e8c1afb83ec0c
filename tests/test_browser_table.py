"""Lesson 10's card table in a real browser (Chromium, Playwright), served by ``canasta-tutor serve`` on 127.0.0.7
(ports 9300-9309) and, for the classroom, on 127.0.0.8 (ports 9310-9319); the hand is number 1 with the random
bots, so every run plays the same hand.

The table is drawn (seats, stock, pile, the hand as the lessons' cards in order, wild cards apart); a whole turn is
played by keyboard only (arrow keys, Space, Enter), and a whole hand at 360 px; the live region announces the bots'
moves and the last one is shown at its seat; at 360 px nothing scrolls sideways and the cards and buttons are at
least 44 px; axe-core finds no serious violation; a replay steps through its views. In the classroom the same table
plays through the kernel gate, and the gate drops none of its messages. Screenshots go to
test-artifacts/screenshots/table-*.png.
"""

from __future__ import annotations

import re
import shutil

import nbformat
import pytest
from test_browser import (  # noqa: F401
    CLIPPED,
    CUT_SELECTS,
    PHONE,
    ROOT,
    axe_violations,
    browser,
    serve,
    shot,
    too_wide,
)
from test_browser_classroom import free_port, new_context, run_server, sign_in

from canasta_tutor.engine.cards import Card, sort_key

pytestmark = pytest.mark.browser

HOST = "127.0.0.7"
PORTS = range(9300, 9310)
CLASS_HOST = "127.0.0.8"
CLASS_PORTS = range(9310, 9320)
NOTEBOOKS = ["index.ipynb", "10-play-a-hand.ipynb", "replay.ipynb"]
#: A page with a table replaying the first two moves of classic hand 3 (the coach's replays will look so).
REPLAY_PAGE = """\
from canasta_tutor.game import Game, legal_actions, apply
from canasta_tutor.widgets.table import CardTable
from canasta_tutor.widgets.table_model import replay_views
state = Game("classic").new_initial_state(3)
after = state.clone(); draw = legal_actions(after)[0]; apply(after, draw)
discard = [a for a in legal_actions(after) if a.kind == "discard"][0]
table = CardTable(); table.replay(replay_views(state, [draw, discard], 0)); table
"""
#: A table later in a hand: canastas closed (natural and mixed), an open meld, red threes, a pile frozen by 2♣.
LATE_TABLE = """from canasta_tutor.engine.cards import parse_cards as p
from canasta_tutor.game import Observation
from canasta_tutor.widgets.table import CardTable
from canasta_tutor.widgets.table_model import table_view
ours = (p("KH KS KD KC KH KS KD"), p("7C 7S 2D")); theirs = (p("8S 8C 8D 8H JK 2H 8S"),)
obs = Observation(hand="QH 4S 9D JK", melds=ours, pile="5C 2C 9H 7H", rules="classic", player=0, team=0,
                  current_player=0, phase="draw", hand_sizes=(4, 6, 9, 2), stock_left=30, table=(ours, theirs),
                  table_red_threes=(p("3H"), p("3D 3H")), sides=((0, 2), (1, 3)), opponents_melds=theirs)
late = CardTable(); late.show(table_view(obs, moves=40, status="Later in a hand")); late
"""


@pytest.fixture(scope="module")
def table_server(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("table")
    lessons = tmp / "lessons"
    lessons.mkdir()
    for name in NOTEBOOKS[:2]:
        shutil.copy(ROOT / "lessons" / name, lessons / name)
    nbformat.write(nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell(REPLAY_PAGE),
                                                   nbformat.v4.new_code_cell(LATE_TABLE)]), lessons / "replay.ipynb")
    with serve(tmp, ["--ip", HOST, "--lessons", str(lessons)], host=HOST, port=free_port(HOST, PORTS),
               ready_path="/voila/tree", notebooks=NOTEBOOKS) as (base, _proc):
        yield {"url": base, "log": tmp / "serve.log"}


def moves(page) -> int:
    return int(page.locator(".ct-turn").get_attribute("data-moves"))


def wait_moves_past(page, n: int) -> None:
    page.wait_for_function(f"() => +document.querySelector('.ct-turn').dataset.moves > {n}")


def open_lesson(page, url: str):
    page.goto(url + "/voila/render/10-play-a-hand.ipynb")
    page.locator(".ct-turn", has_text="Your turn.").wait_for()
    page.locator(".ctt-card").first.wait_for()


def choose_random_bots(page) -> None:
    page.get_by_role("combobox", name="Other players").select_option(label="random bots")
    page.locator(".ct-turn", has_text="Your turn.").wait_for()
    page.locator(".ctt-card").first.wait_for()


def tab_into_the_hand(page) -> None:
    """Tab from the top of the page until a card of the hand has the focus (the hand takes one Tab stop)."""
    page.locator("body").focus()
    for _ in range(60):
        page.keyboard.press("Tab")
        if page.evaluate("() => document.activeElement.getAttribute('role') === 'option'"):
            return
    pytest.fail("Tab never reached the hand")


def focused_card(page) -> dict:
    return page.evaluate("""() => { const a = document.activeElement;
      return {code: a.dataset.code, index: +a.dataset.index, selected: a.getAttribute('aria-selected')}; }""")


#: The hit boxes smaller than 44 x 44 px among the hand's cards and the table's buttons and menus.
SMALL_TARGETS = """() => Array.from(document.querySelectorAll('.ctt-card, .ctt-move, .ctt-target select'))
  .map(el => [el, el.getBoundingClientRect()]).filter(([el, r]) => r.width > 0 && (r.width < 44 || r.height < 44))
  .map(([el, r]) => (el.dataset.code || el.textContent.trim()) + ' ' + Math.round(r.width) + 'x'
                    + Math.round(r.height))"""


def test_lesson_10_shows_the_card_table(browser, table_server):  # noqa: F811
    context = new_context(browser, table_server)
    try:
        page = context.new_page()
        open_lesson(page, table_server["url"])
        choose_random_bots(page)
        table = page.locator(".ctt-table")
        # the seats: partner across, opponents left and right, each with card backs and a count
        for place, name in (("north", "Your partner"), ("west", "Left opponent"), ("east", "Right opponent")):
            seat = table.locator(f".ctt-seat[data-place='{place}']")
            assert seat.locator(".ctt-name").inner_text().startswith(name)
            assert seat.locator(".ctt-back").count() >= 1
            assert re.fullmatch(r"\d+ cards?", seat.locator(".ctt-count").inner_text())
        # the stock and the pile in the middle, the pile's top card face up, its size shown
        assert re.search(r"Stock\s+\d+ cards", table.locator(".ctt-stock").inner_text())
        assert re.search(r"Pile\s+1 card\b", table.locator(".ctt-pile").inner_text())
        assert table.locator(".ctt-pile .ctt-top .ct-card").count() == 1
        # both sides' melds in front of them
        assert table.locator(".ctt-side.ctt-ours").get_by_text("Your team's melds").count() == 1
        assert table.locator(".ctt-side.ctt-theirs").count() == 1
        # the hand: the lessons' card drawing, in order, the wild cards in a group of their own
        codes = page.locator(".ctt-hand .ctt-card").evaluate_all("els => els.map(e => e.dataset.code)")
        assert len(codes) == 11 and page.locator(".ctt-hand .ctt-card .ct-card").count() == 11
        cards = [Card(c) for c in codes]
        naturals = [c for c in cards if not c.is_wild]
        assert cards == sorted(naturals, key=sort_key) + sorted([c for c in cards if c.is_wild], key=sort_key)
        wild = page.locator(".ctt-wildgroup .ctt-card").evaluate_all("els => els.map(e => e.dataset.code)")
        assert wild == [c.code for c in cards if c.is_wild]
        # a selected card is lifted above its neighbour
        first, second = page.locator(".ctt-hand .ctt-card").nth(0), page.locator(".ctt-hand .ctt-card").nth(1)
        assert abs(first.bounding_box()["y"] - second.bounding_box()["y"]) < 1
        first.click()
        page.locator(".ct-selected", has_text="selected:").wait_for()
        page.wait_for_timeout(300)
        assert first.get_attribute("aria-selected") == "true"
        assert first.bounding_box()["y"] <= second.bounding_box()["y"] - 8
        first.click()
        shot(page, "table-1280")
        problems = axe_violations(page)
        assert not problems, problems
    finally:
        context.close()
    assert not context.outside, context.outside


def test_a_whole_turn_by_keyboard_only_and_the_bots_moves_announced(browser, table_server):  # noqa: F811
    context = new_context(browser, table_server)
    try:
        page = context.new_page()
        open_lesson(page, table_server["url"])
        choose_random_bots(page)
        live = page.locator(".ctt-live")
        tab_into_the_hand(page)
        assert focused_card(page)["index"] == 0
        # Enter plays the highlighted move: before a card is selected, drawing
        assert page.locator(".ctt-move.ctt-default").inner_text().endswith("Draw from the stock")
        page.keyboard.press("Enter")
        wait_moves_past(page, 0)
        page.wait_for_function("() => document.querySelector('.ctt-live').textContent.startsWith('You draw')")
        assert focused_card(page)["index"] == 0, "the focus stays in the hand"
        # arrows move along the hand, Space selects; the highlighted move becomes the discard
        page.keyboard.press("ArrowRight")
        page.keyboard.press("ArrowRight")
        card = focused_card(page)
        assert card["index"] == 2 and card["selected"] == "false"
        page.keyboard.press("Space")
        page.wait_for_function("() => document.activeElement.getAttribute('aria-selected') === 'true'")
        assert page.locator(".ctt-move.ctt-default").inner_text().endswith("Discard the selected card")
        # Up and Down choose another move, and Down again comes back to the discard
        page.keyboard.press("ArrowUp")
        assert not page.locator(".ctt-move.ctt-default").inner_text().endswith("Discard the selected card")
        page.keyboard.press("ArrowDown")
        assert page.locator(".ctt-move.ctt-default").inner_text().endswith("Discard the selected card")
        before = moves(page)
        page.keyboard.press("Enter")
        text = Card(card["code"]).text
        page.locator(".ct-event-you", has_text=f"You: Discard {text}.").wait_for()
        page.locator(".ct-turn", has_text="Your turn.").wait_for()
        assert moves(page) > before + 1  # the bots played
        # the live region tells every bot's move in a sentence
        page.wait_for_function("() => document.querySelector('.ctt-live').textContent.endsWith('Your turn.')")
        said = live.inner_text()
        assert said.startswith(f"You discard {text}.")
        assert re.search(r"Left opponent (draws from the stock|takes the pile)", said), said
        assert re.search(r"Right opponent discards \S+\.", said), said
        # the last moves are shown at their seats for a moment, and stay in the log
        bubble = page.locator(".ctt-seat[data-place='east'] .ctt-bubble")
        assert bubble.is_visible() and bubble.inner_text().startswith("discards ")
        assert page.locator(".ctt-log .ct-event-bot").count() >= 6
        page.wait_for_timeout(6500)
        assert bubble.is_hidden()
        assert page.locator(".ctt-log .ct-event-bot").count() >= 6
        assert focused_card(page)["code"], page.evaluate("() => document.activeElement.outerHTML.slice(0, 200)")
    finally:
        context.close()
    assert not context.outside, context.outside
    assert "a page's message was dropped" not in table_server["log"].read_text(errors="replace")


def test_at_360_px_the_table_is_compact_with_no_sideways_scroll(browser, table_server):  # noqa: F811
    context = browser.new_context(viewport=PHONE)
    try:
        page = context.new_page()
        open_lesson(page, table_server["url"])
        choose_random_bots(page)
        page.get_by_role("button", name="Draw from the stock").click()
        wait_moves_past(page, 0)
        page.locator(".ctt-hand .ctt-card").nth(1).click()
        page.locator(".ct-selected", has_text="selected:").wait_for()
        wide = too_wide(page)
        assert wide["scrollWidth"] <= PHONE["width"] and not wide["wide"], wide
        for check in (CLIPPED, CUT_SELECTS):  # what every lesson is checked for at 360 px (test_browser.py)
            assert not page.evaluate(check), page.evaluate(check)
        # the three other seats share one row above the table's middle
        tops = [page.locator(f".ctt-seat[data-place='{p}']").bounding_box()["y"] for p in ("west", "north", "east")]
        assert max(tops) - min(tops) < 4, tops
        small = page.evaluate(SMALL_TARGETS)
        assert not small, small
        shot(page, "table-360")
        problems = axe_violations(page)
        assert not problems, problems
    finally:
        context.close()


def test_a_replay_steps_through_its_views(browser, table_server):  # noqa: F811
    context = browser.new_context(viewport={"width": 1000, "height": 800})
    try:
        page = context.new_page()
        page.goto(table_server["url"] + "/voila/render/replay.ipynb")
        step = page.locator(".ctt-step")
        step.wait_for()
        assert step.inner_text() == "Step 1 of 3: Before"
        replay = page.locator(".ctt").first
        hand = replay.locator(".ctt-hand .ctt-card")
        n = hand.count()
        assert replay.locator(".ctt-moves").count() == 0  # nothing can be played in a replay
        page.get_by_role("button", name="Next").click()
        page.wait_for_function("() => document.querySelector('.ctt-step').textContent.startsWith('Step 2')")
        assert hand.count() == n + 1
        page.get_by_role("button", name="Next").click()
        page.wait_for_function("() => document.querySelector('.ctt-step').textContent.startsWith('Step 3')")
        assert hand.count() == n and page.get_by_role("button", name="Next").is_disabled()
        assert replay.locator(".ctt-south-bubble").inner_text().startswith("You discard")
        page.get_by_role("button", name="Previous").click()
        page.wait_for_function("() => document.querySelector('.ctt-step').textContent.startsWith('Step 2')")
        # later in a hand: canastas squared up as stacks and marked, red threes beside, the freezing card sideways
        late = page.locator(".ctt", has_text="Later in a hand")
        late.wait_for()
        assert late.locator(".ctt-ours .ctt-closed .ctt-badge").all_inner_texts() == ["natural · 7"]
        assert late.locator(".ctt-theirs .ctt-closed .ctt-badge").all_inner_texts() == ["mixed · 7"]
        assert late.locator(".ctt-closed .ctt-stack .ct-card").count() == 2  # one card shows of each canasta
        assert late.locator(".ctt-ours .ctt-meld:not(.ctt-closed) .ct-card").count() == 3
        assert late.locator(".ctt-theirs .ctt-reds .ct-card").count() == 2
        assert late.locator(".ctt-pile .ctt-sideways .ct-card").get_attribute("data-card") == "2C"
        assert late.locator(".ctt-pile .ctt-top .ct-card").get_attribute("data-card") == "7H"
        assert "Pile 4 cards" in " ".join(late.locator(".ctt-pile").inner_text().split())
        assert late.locator(".ctt-frozen-mark").inner_text() == "❄ frozen"
        assert late.locator(".ctt-wildgroup .ctt-card").evaluate_all("els => els.map(e => e.dataset.code)") == ["JK"]
        shot(page, "table-later-in-a-hand")
        problems = axe_violations(page)
        assert not problems, problems
    finally:
        context.close()


def test_the_coach_states_its_figure_and_show_me_replays_the_better_turn(browser, table_server):  # noqa: F811
    """Hand 3 of classic: the learner draws and throws the joker away; the expert coach says what that cost, in
    points of its search, and Show me replays the turn with its melds; Why? explains a bot's move."""
    context = new_context(browser, table_server)
    try:
        page = context.new_page()
        open_lesson(page, table_server["url"])
        choose_random_bots(page)
        page.get_by_label("Hand number").fill("3")
        page.get_by_role("button", name="Deal this hand").click()
        page.locator(".ct-turn", has_text="Hand 3").wait_for()
        page.get_by_role("button", name="Draw from the stock").click()
        wait_moves_past(page, 0)
        page.locator(".ctt-hand .ctt-card[data-code='JK']").first.click()
        page.get_by_role("button", name="Discard the selected card").click()
        coach = page.locator(".ct-coach")
        coach.wait_for()
        said = " ".join(coach.inner_text().split())
        assert "I (the expert bot) would have played this turn differently" in said, said
        assert re.search(r"was worth about \d+ points more than yours, discard Joker\.", said), said
        page.locator(".ct-turn", has_text="Your turn.").wait_for()
        # Show me: the table replays the better turn step by step, then comes back to the game
        page.get_by_role("button", name="Show me").click()
        step = page.locator(".ctt-step")
        step.wait_for()
        assert step.inner_text().startswith("Step 1 of ")
        page.locator(".ctt-next").click()
        page.wait_for_function("() => document.querySelector('.ctt-step').textContent.startsWith('Step 2')")
        assert re.match(r"Step 2 of \d+: You meld ", step.inner_text()), step.inner_text()
        assert page.locator(".ctt-moves").count() == 0   # nothing can be played in a replay
        page.get_by_role("button", name="Back to the game").click()
        page.locator(".ctt-moves").wait_for()
        assert page.locator(".ctt-step").count() == 0
        # Why? beside another player's move: the bot's words and the expert's estimate
        why = page.get_by_role("button", name="Why did your partner do that?").last
        why.click()
        answer = page.locator(".ct-why")
        answer.wait_for()
        text = " ".join(answer.inner_text().split())
        assert text.startswith("Your partner ") and "“" in text, text   # "Your partner discards 9♦. “...”"
        assert "only move allowed" in text or re.search(r"over \d+ guesses of the unseen cards", text), text
        shot(page, "table-coach")
        problems = axe_violations(page)
        assert not problems, problems
    finally:
        context.close()
    assert not context.outside, context.outside
    assert "a page's message was dropped" not in table_server["log"].read_text(errors="replace")


@pytest.fixture(scope="module")
def class_server(tmp_path_factory):
    yield from run_server(tmp_path_factory.mktemp("tableclass"), ["index.ipynb", "10-play-a-hand.ipynb"], CLASS_HOST,
                          CLASS_PORTS)


def test_in_the_classroom_the_table_plays_through_the_kernel_gate(browser, class_server):  # noqa: F811
    context = new_context(browser, class_server)
    try:
        page = sign_in(context, class_server, "Ana Table")
        page.wait_for_url("**/voila/render/index.ipynb")
        open_lesson(page, class_server["url"])
        choose_random_bots(page)
        tab_into_the_hand(page)
        page.keyboard.press("Enter")  # draw
        wait_moves_past(page, 0)
        page.keyboard.press("Space")
        page.keyboard.press("Enter")  # discard the first card
        page.locator(".ct-event-you", has_text="You: Discard").wait_for()
        page.locator(".ct-turn", has_text="Your turn.").wait_for()
    finally:
        context.close()
    assert not context.outside, context.outside
    assert "a page's message was dropped" not in class_server["log"].read_text(errors="replace")


def test_a_whole_hand_by_keyboard_only_on_a_phone(browser, table_server):  # noqa: F811
    """Tab once into the hand, then only Home, Space and Enter, turn after turn, up to the score sheet, at 360 px."""
    context = browser.new_context(viewport=PHONE)
    try:
        page = context.new_page()
        open_lesson(page, table_server["url"])
        choose_random_bots(page)
        tab_into_the_hand(page)
        turns = 0
        while not page.locator(".ct-score-sheet").count():
            before = moves(page)
            default = page.locator(".ctt-move.ctt-default").inner_text()
            if not default.endswith(("Draw from the stock", "End the hand (the stock is used up)")):
                page.keyboard.press("Home")
                page.keyboard.press("Space")
                page.wait_for_function("() => document.activeElement.getAttribute('aria-selected') === 'true'")
                turns += 1
            page.keyboard.press("Enter")
            wait_moves_past(page, before)
            page.wait_for_function("() => document.querySelector('.ct-score-sheet') || "
                                   "document.activeElement.getAttribute('role') === 'option'")
            assert turns < 60, "the hand does not end"
        assert "Score sheet" in page.locator(".ct-score-sheet").inner_text() and turns > 5
        wide = too_wide(page)
        assert wide["scrollWidth"] <= PHONE["width"] and not wide["wide"], wide
        shot(page, "table-360-hand-over")
        problems = axe_violations(page)
        assert not problems, problems
    finally:
        context.close()
