"""What a learner reads in the lessons, checked without a browser: the cards left drawn in the right hand, puzzles
that stand on their own, rows of the rule table said without a double negative."""

from __future__ import annotations

import json
import re
from pathlib import Path

from canasta_tutor.widgets.render import situation_html
from canasta_tutor.widgets.trainer import load_puzzles

ROOT = Path(__file__).resolve().parent.parent


def _text(page: str) -> str:
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", page)).strip()


def _sections(page: str) -> dict[str, str]:
    """A situation's "Cards left in ..." sections: title -> the cards drawn under it (their data-card codes, or
    'none')."""
    out = {}
    for title, body in re.findall(r"<b>(Cards left in [^<]*)</b><br>(.*?)</div>", page):
        out[title] = " ".join(re.findall(r"data-card='([^']+)'", body)) or _text(body)
    return out


def test_cards_left_are_drawn_in_the_hand_the_prompt_names():
    """Lesson 8: "You went out; your partner was left with 6♣ and 9♥" drew "Cards left in your hand 6♣ 9♥ / in your
    partner's hand: none" (puzzle s-006 the same); s-001 showed no Cards left section at all."""
    puzzles, _ = load_puzzles(ids=["s-001", "s-006"])
    by_id = {p.id: p for p in puzzles}
    assert _sections(situation_html(by_id["s-006"])) == {"Cards left in your hand": "none",
                                                          "Cards left in your partner's hand": "5C 9D"}
    assert _sections(situation_html(by_id["s-001"])) == {"Cards left in your team's hands": "none"}
    # the lesson's own worked example, as its notebook calls it
    cell = next("".join(c["source"]) for c in json.loads((ROOT / "lessons" / "08-scoring.ipynb").read_text())["cells"]
                if "your partner was left with 6♣ and 9♥" in "".join(c["source"]))
    namespace: dict = {}
    exec("from canasta_tutor.widgets.lesson import *\nresult = " + cell, namespace)  # noqa: S102 - the lesson's cell
    assert _sections(namespace["result"]._repr_html_()) == {"Cards left in your hand": "none",
                                                           "Cards left in your partner's hand": "6C 9H"}


def test_every_score_sheet_puzzle_that_says_you_went_out_leaves_your_hand_empty():
    puzzles, _ = load_puzzles(kind="score-hand")
    said = [p for p in puzzles if re.search(r"\byou went out\b", p.prompt or "", re.I)]
    assert said
    for p in said:
        hands = p.field("hands", [])
        assert not hands or not hands[0], (p.id, p.prompt, hands)


#: Words by which a puzzle leans on another one ("The same melds as before, but ...").
LEANS_ON_ANOTHER = re.compile(r"\b(the same|as before|this time|again|previous|above|last puzzle|instead)\b", re.I)


def test_no_puzzle_refers_to_another_puzzle():
    """Lesson 6, puzzle 4 (o-010) read "The same melds as before, but your team has just reached 1500" after a
    puzzle with other melds: practice shows puzzles in any order, so a puzzle never leans on another."""
    puzzles, problems = load_puzzles()
    assert puzzles and not problems
    leaning = [(p.id, p.prompt) for p in puzzles if p.prompt and LEANS_ON_ANOTHER.search(p.prompt)]
    assert not leaning, leaning


def test_the_rule_table_says_no_rule_with_a_double_negative():
    """Lesson 9: "No taking a one-card pile with one card in hand | no"."""
    from canasta_tutor.engine.rules import with_options
    from canasta_tutor.widgets.variants import preset_rows

    rows = preset_rows(["classic", with_options("classic", one_card_pile_rule=True)])
    for row in rows:
        assert not re.match(r"(no|not|never)\b", row.label, re.I), row.label
    one_card = next(r for r in rows if r.options == ("one_card_pile_rule",))
    assert one_card.values == ("yes", "no")  # classic allows it; the house rule (000's) does not
