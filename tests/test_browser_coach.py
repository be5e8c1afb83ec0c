"""Lesson 10 in a real browser: a whole hand against bots played to its score sheet by clicking only.

Its own server (``canasta-tutor serve`` on 127.0.0.6, ports 9430-9439) serves the landing page and lesson 10;
the hand is number 1 with the random bots, so every run plays the same hand. The learner draws, clicks a card and
discards it, turn after turn; first, an illegal meld is refused with the engine's reason, a turn is undone, and
one turn is played by keyboard only. The page is also checked on a 360-px phone and by axe-core.
Classic for two and Samba, chosen in the page's menu, are played to their score sheets the same way (both draw
two cards a turn: the hand grows by one card a turn).
"""

from __future__ import annotations

import os
import shutil
import time

import nbformat
import pytest
from playwright.sync_api import expect
from test_browser import AXE, CHROMIUM, CHROMIUM_ARGS, PHONE, ROOT, axe_violations, browser, serve, shot, too_wide  # noqa: F401
from test_browser_classroom import free_port, new_context

from canasta_tutor.engine.cards import Card

pytestmark = pytest.mark.browser

HOST = "127.0.0.6"
# another range in $CANASTA_COACH_PORTS ("9312-9319"), for a machine where these are taken
_first, _, _last = os.environ.get("CANASTA_COACH_PORTS", "9430-9439").partition("-")
PORTS = range(int(_first), int(_last or _first) + 1)
#: the learner's cards at the table (widgets/table.py)
CARDS = ".ctt-hand .ctt-card"
NOTEBOOKS = ["index.ipynb", "10-play-a-hand.ipynb", "cards.ipynb"]
#: A page of jokers as the widgets draw cards in narrow places: small, normal and large cards in a meld and on the
#: pile, card buttons and toggles as the trainer and the coached hand make them, the deck picker.
CARDS_PAGE = """\
import ipywidgets as widgets
from canasta_tutor.engine.cards import Card
from canasta_tutor.widgets.render import cards_html, melds_html, pile_html
from canasta_tutor.engine.rules import get_rules
from canasta_tutor.widgets.cardbuttons import DeckPicker, card_button
html = [cards_html("JK 2C JK", size=size) for size in ("small", "normal", "large")]
html += [melds_html([["7H", "7S", "JK"], ["KH", "KS", "KD", "KC", "JK", "JK", "2C"]], get_rules("classic")),
         pile_html("5D JK 9C JK")]
buttons = [card_button(Card("JK"), toggle=True), card_button(Card("JK")),
           card_button(Card("JK"), toggle=True, width="60px", height="40px"),
           card_button(Card("7H"), toggle=True, width="46px", height="40px")]
widgets.VBox([widgets.HTML(h) for h in html] + [widgets.HBox(buttons, layout=widgets.Layout(flex_flow="row wrap")),
              DeckPicker(widgets.Text("JK 10H JK"))])
"""


@pytest.fixture(scope="module")
def coach_server(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("coach")
    lessons = tmp / "lessons"
    lessons.mkdir()
    for name in NOTEBOOKS[:2]:
        shutil.copy(ROOT / "lessons" / name, lessons / name)
    nbformat.write(nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell(CARDS_PAGE)]), lessons / "cards.ipynb")
    args = ["--ip", HOST, "--lessons", str(lessons)]
    with serve(tmp, args, host=HOST, port=free_port(HOST, PORTS), ready_path="/voila/tree",
               notebooks=NOTEBOOKS) as (base, _proc):
        yield {"url": base}


def codes(hand) -> list[str]:
    """The learner's cards as the table shows them, by code."""
    return hand.locator(CARDS).evaluate_all("els => els.map(e => e.dataset.code)")


def moves(hand) -> int:
    return int(hand.locator(".ct-turn").get_attribute("data-moves"))


def wait_moves_past(page, n: int) -> None:
    page.wait_for_function(f"() => +document.querySelector('.ct-turn').dataset.moves > {n}")


def play_to_the_score_sheet(page, hand, limit: int = 60) -> int:
    """Draw (or end the hand when the stock is used up), click the first card, discard it, until the score sheet
    shows; the number of turns played."""
    sheet = hand.locator(".ct-score-sheet")
    turns = 0
    while True:
        # the other players' moves come one by one: wait for the learner's turn (or the score sheet), not just for
        # the move count to change (under load the bots were still playing when the loop looked for a button)
        page.wait_for_function("() => document.querySelector('.ct-score-sheet') || /Your turn\\./"
                               ".test(document.querySelector('.ct-turn').textContent)")
        if sheet.count():
            break
        before = moves(hand)
        draw = hand.get_by_role("button", name="Draw from the stock")
        end = hand.get_by_role("button", name="End the hand (the stock is used up)")
        if draw.is_visible():
            draw.click()
        elif end.is_visible():
            end.click()
        else:
            hand.locator(CARDS).first.click()
            hand.locator(".ct-selected", has_text="selected:").wait_for()
            hand.get_by_role("button", name="Discard the selected card").click()
            turns += 1
        wait_moves_past(page, before)
        assert turns < limit, "the hand does not end"
    return turns


def open_lesson_10(context, server):
    """Lesson 10 in a new page of ``context``, the learner's first turn shown; the page and the coached hand."""
    page = context.new_page()
    page.goto(server["url"] + "/voila/render/10-play-a-hand.ipynb")
    hand = page.locator(".ct-coached-hand")
    hand.locator(".ct-turn", has_text="Your turn.").wait_for()
    return page, hand


def test_a_whole_hand_to_its_score_sheet_by_clicking_only(browser, coach_server):  # noqa: F811
    context = new_context(browser, coach_server)
    try:
        start = time.monotonic()
        page, hand = open_lesson_10(context, coach_server)
        hand.get_by_role("combobox", name="Other players").select_option(label="random bots")
        page.wait_for_function("() => document.querySelector('.ct-turn').textContent.includes('Hand 1')")
        hand.locator(".ct-turn", has_text="Your turn.").wait_for()
        first_cards = codes(hand)
        # an illegal meld: one card is not a meld; the engine says why and nothing changes
        hand.get_by_role("button", name="Draw from the stock").click()
        meld = hand.get_by_role("button", name="Meld the selected cards")
        meld.wait_for()
        cards = hand.locator(CARDS)
        n = cards.count()
        cards.first.click()
        hand.locator(".ct-selected", has_text="selected:").wait_for()
        meld.click()
        refusal = hand.locator(".ct-refusal")
        refusal.wait_for()
        assert refusal.inner_text().startswith("Not allowed:") and len(refusal.inner_text()) > 30
        assert cards.count() == n
        shot(page, "coach-01-refused")
        # a turn, then undo it: the same cards as before
        hand.get_by_role("button", name="Discard the selected card").click()
        hand.locator(".ct-coach").wait_for()
        assert "Coach:" in hand.locator(".ct-coach").inner_text()
        hand.get_by_role("button", name="Undo my last turn").click()
        page.wait_for_function("() => document.querySelector('.ct-turn').dataset.moves === '0'")
        page.wait_for_function(f"() => Array.from(document.querySelectorAll('{CARDS}')).map(e => e.dataset.code)"
                               f".join(' ') === {' '.join(first_cards)!r}")
        # one turn by keyboard only: Tab to a button or card, Enter or Space presses it (the table's own keys, arrows
        # and Enter in the hand, are tested in test_browser_table.py)
        focused = ("() => document.activeElement && (document.activeElement.dataset.code || "
                   "document.activeElement.textContent.replace('⏎', '').trim())")

        def tab_to(text: str) -> None:
            for _ in range(80):
                if page.evaluate(focused) == text:
                    return
                page.keyboard.press("Tab")
            pytest.fail(f"Tab never reached {text!r}")

        tab_to("Draw from the stock")
        page.keyboard.press("Enter")
        wait_moves_past(page, 0)
        card = codes(hand)[0]
        page.locator("body").focus()
        tab_to(card)
        page.keyboard.press("Space")
        hand.locator(".ct-selected", has_text="selected:").wait_for()
        tab_to("Discard the selected card")
        page.keyboard.press("Enter")
        wait_moves_past(page, 1)
        assert hand.locator(".ct-event-you", has_text=f"You: Discard {Card(card).text}.").count() == 1
        # the whole hand: draw (or end the hand when the stock is used up), click a card, discard it
        turns = play_to_the_score_sheet(page, hand)
        sheet = hand.locator(".ct-score-sheet")
        text = sheet.inner_text()
        assert "Score sheet" in text and "You and your partner" in text and "Left opponent and right opponent" in text
        assert text.count("Total") >= 2
        assert hand.get_by_text("the hand is over", exact=False).count()
        shot(page, "coach-02-score-sheet")
        elapsed = time.monotonic() - start
        # on a phone: nothing scrolls sideways; and no serious accessibility problem
        page.set_viewport_size(PHONE)
        page.wait_for_timeout(300)
        wide = too_wide(page)
        assert wide["scrollWidth"] <= PHONE["width"] and not wide["wide"], wide
        shot(page, "coach-03-phone")
        problems = axe_violations(page)
        assert not problems, problems
        assert elapsed < 150, f"the hand took {elapsed:.0f} s"
        print(f"\nplayed a hand in {turns} turns by clicking, {elapsed:.1f} s")
    finally:
        context.close()
    assert not context.outside, context.outside


@pytest.mark.parametrize("rules, title, teams", [
    ("classic-2p", "Classic Canasta for two players", ["You", "Your opponent"]),
    ("samba", "Samba", ["You and your partner", "Left opponent and right opponent"]),
])
def test_classic_for_two_and_samba_to_their_score_sheets_by_clicking_only(browser, coach_server, rules, title,  # noqa: F811
                                                                          teams):
    context = new_context(browser, coach_server)
    try:
        start = time.monotonic()
        page, hand = open_lesson_10(context, coach_server)
        hand.get_by_role("combobox", name="Rules").select_option(label=title)
        page.wait_for_function(f"() => document.querySelector('.ct-turn').textContent.includes('· {title} ·')")
        hand.get_by_role("combobox", name="Other players").select_option(label="random bots")
        hand.locator(".ct-turn", has_text="Your turn.").wait_for()
        assert hand.locator(".ct-turn").inner_text().startswith(f"Hand 1 · {title} · move 1")
        dealt = hand.locator(CARDS).count()
        assert dealt == 15, dealt                      # both deal 15 cards (sources 000, 004)
        # one turn: two cards drawn, one discarded
        hand.get_by_role("button", name="Draw from the stock").click()
        wait_moves_past(page, 0)
        expect(hand.locator(CARDS)).to_have_count(dealt + 2)
        hand.locator(CARDS).first.click()
        hand.locator(".ct-selected", has_text="selected:").wait_for()
        hand.get_by_role("button", name="Discard the selected card").click()
        hand.locator(".ct-coach").wait_for()
        expect(hand.locator(CARDS)).to_have_count(dealt + 1)
        turns = 1 + play_to_the_score_sheet(page, hand, limit=80)
        sheet = hand.locator(".ct-score-sheet")
        text = sheet.inner_text()
        heads = sheet.locator(":scope > div > b").all_inner_texts()
        assert heads == teams, heads
        assert "Score sheet" in text and text.count("Total") == 2, text[:300]
        assert hand.get_by_text("the hand is over", exact=False).count()
        assert hand.get_by_role("button", name="Draw from the stock").is_hidden()
        shot(page, f"coach-{rules}-score-sheet")
        print(f"\n{rules}: a hand in {turns} turns by clicking, {time.monotonic() - start:.1f} s")
    finally:
        context.close()
    assert not context.outside, context.outside


#: For each card drawn as a card or a button: whether each part of its label ("10", "♥", "★", "JOKER"; a button's
#: whole text) sits on one line, inside the card.
ONE_LINE = """() => Array.from(document.querySelectorAll(
    '.ct-card, .ct-card-toggle, .ct-card-button, .ct-deck .widget-toggle-button, .ct-chosen .widget-toggle-button'
  )).filter(el => el.getBoundingClientRect().width > 0).map(el => {
    const box = el.getBoundingClientRect();
    const parts = el.classList.contains('ct-card') ? Array.from(el.childNodes).filter(n => n.nodeName !== 'BR')
                                                   : [el];
    let lines = 0, inside = true;
    for (const part of parts) {
      const range = document.createRange(); range.selectNodeContents(part);
      const rects = Array.from(range.getClientRects()).filter(r => r.width > 0);
      lines = Math.max(lines, new Set(rects.map(r => Math.round(r.top))).size);
      const t = range.getBoundingClientRect();
      inside = inside && t.left >= box.left - 0.5 && t.right <= box.right + 0.5;
    }
    return {card: el.dataset.card || el.textContent.trim(), cls: String(el.className).split(' ').slice(-1)[0],
            lines, inside};
  })"""


def test_a_jokers_label_never_breaks_at_360_px(browser, coach_server):  # noqa: F811
    """"JOKER" on a small card once wrapped as "JOKE" / "R" (the page lets long words break anywhere)."""
    context = browser.new_context(viewport=PHONE)
    try:
        page = context.new_page()
        page.goto(coach_server["url"] + "/voila/render/cards.ipynb")
        page.locator(".ct-deck").wait_for()
        shot(page, "coach-04-jokers-360")
        cards = page.evaluate(ONE_LINE)
        jokers = [c for c in cards if c["card"] in ("JK", "Joker", "★")]
        assert len(jokers) >= 15, cards           # 3 + 3 + 3 in meld, 2 on the pile, 3 buttons, deck and chosen
        broken = [c for c in cards if c["lines"] != 1 or not c["inside"]]
        assert not broken, "\n".join(map(str, broken))
        wide = too_wide(page)
        assert wide["scrollWidth"] <= PHONE["width"], wide
    finally:
        context.close()
