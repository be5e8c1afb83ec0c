"""The lessons' explorers, driven headless: change the situation, read the engine's verdict."""

import html

from canasta_tutor.engine.cards import Card
from canasta_tutor.web.app import voila_arguments
from canasta_tutor.widgets.explorers import (
    CardCounter,
    FreezeExplorer,
    GoOutExplorer,
    MeldBuilder,
    OpeningExplorer,
    RedThreeExplorer,
    ScoreExplorer,
    TakePileExplorer,
    VariantsExplorer,
)
from canasta_tutor.widgets.lesson import example, lesson_puzzles


def text(widget) -> str:
    return html.unescape(widget.value)


def test_card_counter_adds_points_and_refuses_red_threes():
    c = CardCounter("")
    c.add(Card("JK"))
    c.add(Card("AS"))
    assert "<b class='ct-total'>70</b>" in c.view.value
    c.add(Card("3H"))
    assert "no card value" in text(c.message) and "<b class='ct-total'>70</b>" in c.view.value
    c.add(Card("JK")), c.add(Card("JK")), c.add(Card("JK")), c.add(Card("JK"))
    assert "5 copies of Joker" in text(c.message) and "only 4 jokers" in text(c.message)


def test_meld_builder_live_verdict():
    m = MeldBuilder("KH KS")
    assert "Not a meld" in m.verdict.value and "at least three cards" in m.verdict.value
    m.add(Card("2C"))
    assert "Valid meld" in m.verdict.value
    for code in ("KD", "KC", "KH", "KS"):
        m.add(Card(code))
    assert "Valid: mixed canasta" in m.verdict.value
    m.add(Card("KH"))
    assert "only 2 of each card" in text(m.message)
    m.remove(2)  # take the 2♣ back: seven kings... six kings only
    assert "Valid meld" in m.verdict.value
    m.add(Card("JK")), m.add(Card("2D")), m.add(Card("2S")), m.add(Card("2H"))
    assert "at most three wild cards" in m.verdict.value
    m.preset.value = "hoyle"
    assert "Not a meld" in m.verdict.value


def test_black_threes_need_going_out():
    m = MeldBuilder("3S 3C 3S")
    assert "only by a player who goes out" in m.verdict.value
    m.going_out.value = True
    assert "Valid meld" in m.verdict.value


def test_red_three_explorer():
    r = RedThreeExplorer()
    r.count.value = 2
    assert "+200" in r.view.value
    r.opened.value = False
    assert "-200" in r.view.value
    r.preset.value = "danish"
    assert "-400" in r.view.value


def test_freeze_explorer_freezes_and_stops():
    f = FreezeExplorer("5D 9S 7C")
    assert "Not frozen" in f.view.value
    f.discard("3S")
    assert "Not frozen" in f.view.value and "Stopped" in f.view.value
    f.discard("2C")
    assert "Frozen for your team" in f.view.value and "2♣" in text(f.view)
    f.take()
    f.melded.value = False
    assert "has not melded yet" in f.view.value
    f.melded.value = True
    f.red_three_at_start()
    assert f.pile.cards[0] == Card("3H") and "Frozen" in f.view.value


def test_opening_explorer_slider_and_bad_input():
    o = OpeningExplorer("KH KS KD | 7C 7D 2S")
    assert "<b class='ct-minimum'>50</b>" in o.table.value and "Enough: 60 points" in o.view.value
    o.score.value = 1500
    assert "<b class='ct-minimum'>90</b>" in o.table.value and "Not an opening" in o.view.value
    o.melds.value = "KH KS KX"
    assert "card 3, KX, is not a card" in text(o.view) and "meld 1" in text(o.view)


def test_take_pile_explorer():
    t = TakePileExplorer(hand="7H JK 4C 9D", pile="5D 8S 7C", melds="KH KS KD")
    assert "Yes, you may take the pile" in t.view.value
    t.pile.value = "5D 2C 7C"
    assert "No, you may not take the pile" in t.view.value
    t.hand.value = ""
    assert "hand is empty" in text(t.view)
    t.hand.value = "KH KH KH"
    assert "copies" in text(t.view)


def test_go_out_explorer():
    g = GoOutExplorer(hand="KH KS 2C 9D", melds="7H 7S 7D 7C 7H 7S 7D")
    assert "Yes, you can go out" in g.view.value
    g.melds.value = "7H 7S 7D"
    assert "No, you cannot go out yet" in g.view.value


def test_score_explorer_and_the_game():
    s = ScoreExplorer(melds="KH KS KD KC KH KS KD", red_threes="", hands="")
    assert "<b class='ct-total'>670</b>" in s.view.value
    s.their.value = "lots"
    s.add_to_game()
    assert "whole number" in text(s.message) and not s.game.hands
    s.their.value = "100"
    for _ in range(8):
        s.add_to_game()
    assert s.game.is_over and "Game over: Your team wins" in s.game_view.value and s.add_button.disabled
    s.red.value = "3S"
    assert "not a red three" in text(s.view)


def test_variants_explorer_highlights_differences():
    v = VariantsExplorer()
    v.choice.value = "Is 9-9-9-2-2-Joker a meld?"
    assert "not a meld" in v.view.value and "fff3c4" in v.view.value and "Canasta as played in Denmark" in v.view.value


def test_lesson_helpers():
    assert "A meld." in example("meld", cards="KH KS KD", question="Kings?")._repr_html_()
    assert "Yes, you may take the pile." in example("take-pile", hand="7H 7S 4C", melds=["KH KS KD"], score=0,
                                                    pile="5D 7C", question="Take it?")._repr_html_()
    assert "Not a meld. A meld needs at least two natural cards" in repr(example("meld", cards="5H 2C 2D",
                                                                                 question="Fives?"))
    t = lesson_puzzles("t-001", "t-002")
    assert t.puzzle.id == "t-001"


def test_serve_arguments():
    from pathlib import Path

    args = voila_arguments(Path("lessons"), port=9000, open_browser=False, preheat=True, cull_idle=600)
    assert "--port=9000" in args and "--no-browser" in args and "--template=canasta" in args
    assert "--VoilaConfiguration.preheat_kernel=True" in args
    assert "--MappingKernelManager.cull_idle_timeout=600" in args
    assert "--VoilaConfiguration.show_tracebacks=False" in args and "--VoilaConfiguration.strip_sources=True" in args


# --- one meaning, one colour; the deck picker; nothing wider than a phone ----------------------------------

def test_a_verdicts_colour_follows_its_meaning_everywhere():
    from canasta_tutor.widgets.render import FROZEN, GOOD, pile_html, tone_colour

    f = FreezeExplorer("5D 9S 7C")
    # not frozen: good news, in the same colour as the "not frozen" marker beside it
    assert f"color:{tone_colour(GOOD)};font-size:1.15em'><b>✔ Not frozen" in f.view.value
    assert f"background:{tone_colour(GOOD)};" in pile_html("5D", frozen=False)
    f.discard("2C")
    # frozen: not a mistake, a state, in the frozen marker's colour, never the "yes, good" green
    assert f"color:{tone_colour(FROZEN)};font-size:1.15em'><b>❄ Frozen for your team" in f.view.value
    assert f"background:{tone_colour(FROZEN)};" in pile_html("5D 2C", frozen=True)
    assert tone_colour(FROZEN) != tone_colour(GOOD)
    t = TakePileExplorer(hand="7H 7S", pile="5D 8S 7C", melds="KH KS KD")
    assert f"color:{tone_colour(GOOD)};font-size:1.15em'><b>✔ Yes, you may" in t.view.value


def test_the_deck_picker_fills_and_empties_a_box():
    t = TakePileExplorer(hand="7H JK 4C 9D", pile="5D 8S 7C", melds="KH KS KD")
    assert not t.cards.pickers  # made only when opened
    t.cards.switch.value = True
    t.cards.target.value = "Your hand"
    hand = t.cards.picker()
    assert len(hand.deck.options) == 53 and hand.deck.options[0] == ("A♠", "AS") and hand.deck.options[-1][1] == "JK"
    hand.deck.value = "7S"           # tap 7♠
    assert t.hand.value == "7H JK 4C 9D 7S" and hand.deck.value is None
    hand.deck.value = "7S"           # tapping the same card again adds another
    assert t.hand.value == "7H JK 4C 9D 7S 7S"
    hand.chosen.value = 1            # tap the chosen joker: out it goes
    assert t.hand.value == "7H 4C 9D 7S 7S"
    assert [label for label, _ in hand.chosen.options] == ["7♥", "4♣", "9♦", "7♠", "7♠"]
    t.cards.target.value = "Team melds"
    melds = t.cards.picker()
    assert t.cards.area.children[-1] is melds
    melds.new_meld.click()
    for code in ("QH", "QS", "QD"):
        melds.deck.value = code
    assert t.melds.value == "KH KS KD | QH QS QD" and "Q<br>♥" in t.view.value  # the new meld is on the table
    melds.new_meld.click(), melds.new_meld.click()  # no empty meld
    assert t.melds.value == "KH KS KD | QH QS QD |"
    t.hand.value = "7H QX"           # typing still works, and a mistyped code can be tapped away
    assert [label for label, _ in hand.chosen.options] == ["7♥", "QX"]
    hand.chosen.value = 1
    assert t.hand.value == "7H"


def test_card_counter_and_meld_builder_use_the_deck_picker():
    c = CardCounter("")
    c.palette.deck.value = "JK"
    assert "<b class='ct-total'>50</b>" in c.view.value
    m = MeldBuilder("")
    for code in ("KH", "KS", "KD"):
        m.palette.deck.value = code
    assert "Valid meld" in m.verdict.value


def test_the_score_box_and_slider_agree():
    o = OpeningExplorer()
    assert o.score.step == 5 and o.score_box.step == 5
    o.score_box.value = 1500
    assert o.score.value == 1500 and "<b class='ct-minimum'>90</b>" in o.table.value
    o.score.value = 3000
    assert o.score_box.value == 3000


def _widths(root):
    seen, stack = set(), [root]
    while stack:
        w = stack.pop()
        if id(w) in seen:
            continue
        seen.add(id(w))
        layout = getattr(w, "layout", None)
        if layout is not None:
            yield type(w).__name__, getattr(w, "description", ""), layout.width, layout.max_width
        stack.extend(getattr(w, "children", ()))


def test_no_explorer_input_is_wider_than_a_phone():
    import re

    for explorer in (CardCounter(), MeldBuilder(), RedThreeExplorer(), FreezeExplorer(), OpeningExplorer(),
                     TakePileExplorer(), GoOutExplorer(), ScoreExplorer(), VariantsExplorer()):
        if hasattr(explorer, "cards"):
            explorer.cards.switch.value = True
        for name, description, width, _max_width in _widths(explorer):
            fixed = re.fullmatch(r"([\d.]+)(px|em)", width or "")
            if fixed:
                px = float(fixed[1]) * (16 if fixed[2] == "em" else 1)
                assert px <= 300, (type(explorer).__name__, name, description, width)
