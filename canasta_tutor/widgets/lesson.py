"""One-line helpers for the lesson notebooks: worked examples drawn by the engine, puzzles to try.

A notebook cell calls one of these; the rule is decided by the engine, the
drawing by :mod:`canasta_tutor.render`.
"""

from __future__ import annotations

import html

from IPython.display import HTML

from ..cards import parse_cards
from ..going_out import check_go_out
from ..melds import check_meld
from ..opening import check_opening
from ..pile import check_frozen, check_take_pile
from ..render import cards_html, melds_html, pile_html
from ..rules import get_rules
from ..scoring import score_hand
from .trainer import Trainer

_GOOD, _BAD = "#2e7d32", "#c62828"


def _verdict(v, yes: str, no: str) -> str:
    colour = _GOOD if v.ok else _BAD
    reasons = " ".join(html.escape(r.text) for r in v.reasons)
    return f"<div style='color:{colour}'><b>{html.escape(yes if v.ok else no)}</b> {reasons}</div>"


def show_cards(cards, *, size: str = "normal") -> HTML:
    """Cards drawn as cards."""
    return HTML(cards_html(cards, size=size))


def show_meld(cards, rules: str = "classic", *, going_out: bool = False) -> HTML:
    """A group of cards and the engine's verdict on it as a meld."""
    v = check_meld(cards, rules, going_out=going_out)
    label = "A meld." if v.canasta == "none" else "A samba!" if v.canasta == "samba" else f"A {v.canasta} canasta!"
    return HTML(cards_html(cards) + _verdict(v, label, "Not a meld."))


def show_pile(pile, melds=(), rules: str = "classic") -> HTML:
    """The discard pile with its frozen marker, and why."""
    v = check_frozen(pile, melds, rules)
    return HTML(pile_html(pile, frozen=v.ok) + _verdict(v, "Frozen.", "Not frozen."))


def show_take(hand, melds=(), score: int = 0, pile=(), rules: str = "classic") -> HTML:
    """A take-the-pile situation and the engine's verdict."""
    v = check_take_pile(hand, melds, score, pile, rules)
    frozen = check_frozen(pile, melds, rules).ok
    return HTML(melds_html(melds, get_rules(rules)) + pile_html(pile, frozen=frozen) +
                f"<div><b>Your hand</b><br>{cards_html(hand)}</div>" +
                _verdict(v, "Yes, you may take the pile.", "No, you may not take the pile."))


def show_opening(melds, score: int = 0, rules: str = "classic") -> HTML:
    v = check_opening(melds, score, rules)
    return HTML(melds_html(melds, get_rules(rules), title="The melds you put down") +
                _verdict(v, "A legal opening.", "Not an opening."))


def show_go_out(hand, melds=(), rules: str = "classic") -> HTML:
    v = check_go_out(hand, melds, 0, rules)
    return HTML(melds_html(melds, get_rules(rules)) + f"<div><b>Your hand</b><br>{cards_html(hand)}</div>" +
                _verdict(v, "You can go out.", "You cannot go out."))


def show_score(melds=(), red_threes=(), hands=(), went_out=False, rules: str = "classic") -> HTML:
    """A hand's score as a table, item by item."""
    sheet = score_hand(melds, red_threes, hands, went_out, rules)
    return HTML(melds_html(melds, get_rules(rules)) + sheet.to_frame().to_html(index=False, border=0))


def explain(kind: str, **situation) -> None:
    """Print the engine's answer in words (used where a lesson's output is checked by nbval)."""
    rules = situation.pop("rules", "classic")
    if kind == "meld":
        v = check_meld(situation["cards"], rules, going_out=situation.get("going_out", False))
    elif kind == "freeze":
        v = check_frozen(situation["pile"], situation.get("melds", ()), rules)
    elif kind == "take-pile":
        v = check_take_pile(situation["hand"], situation.get("melds", ()), situation.get("score", 0),
                            situation["pile"], rules)
    elif kind == "opening":
        v = check_opening(situation["melds"], situation.get("score", 0), rules)
    elif kind == "go-out":
        v = check_go_out(situation["hand"], situation.get("melds", ()), 0, rules)
    elif kind == "score-hand":
        sheet = score_hand(situation.get("melds", ()), situation.get("red_threes", ()), situation.get("hands", ()),
                           situation.get("went_out", False), rules)
        print("\n".join(sheet.explanation))
        return
    elif kind == "card-points":
        cards = parse_cards(situation["cards"])
        print(" + ".join(f"{c} {c.points}" for c in cards) + f" = {sum(c.points for c in cards)}")
        return
    else:
        raise ValueError(f"unknown kind {kind!r}")
    print(v.sentence)


def lesson_puzzles(*ids: str, title: str = "Try it yourself") -> Trainer:
    """A trainer with these puzzles from the project's puzzle sets, in this order."""
    return Trainer(ids=list(ids), title=title, resume=False)


from ..variants import presets_styled, sources_table  # noqa: E402  (re-exported for the lessons)
from .explorers import (CardCounter, FreezeExplorer, GoOutExplorer, MeldBuilder, OpeningExplorer,  # noqa: E402
                        RedThreeExplorer, ScoreExplorer, TakePileExplorer, VariantsExplorer)
from .trainer import PracticeRoom  # noqa: E402

__all__ = ["show_cards", "show_meld", "show_pile", "show_take", "show_opening", "show_go_out", "show_score",
           "explain", "lesson_puzzles", "presets_styled", "sources_table", "CardCounter", "MeldBuilder",
           "RedThreeExplorer", "TakePileExplorer", "FreezeExplorer", "OpeningExplorer", "GoOutExplorer",
           "ScoreExplorer", "VariantsExplorer", "PracticeRoom", "Trainer"]
