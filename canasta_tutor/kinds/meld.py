"""Kind ``meld``: is this a legal meld, and is it a canasta?"""

from __future__ import annotations

from .. import generator as _gen
from ..melds import CANASTA_KINDS, NONE, SAMBA, check_meld
from . import PuzzleKind, Solution, register


def solve(s) -> Solution:
    v = check_meld(s.cards, s.rules, going_out=bool(s.going_out))
    return Solution({"valid": v.ok, "canasta": v.canasta if v.ok else NONE}, v.explanation, v)


_LIMIT = {"three": "at most {max_wild} wild cards",
          "not-more-than-natural": "never more wild cards than natural ones (and at most three)",
          "fewer-than-natural": "more natural cards than wild ones (and at most {max_wild} wild)"}


def hints(s) -> list[str]:
    rules, cards = s.rules, s.cards
    wild = sum(1 for c in cards if c.is_wild)
    limit = _LIMIT[rules.wild_limit].format(max_wild=rules.max_wild)
    return [f"Count them: {len(cards)} cards, {wild} of them wild.",
            f"Under these rules a meld is at least three cards of one rank, with at least two natural cards "
            f"and {limit}; seven cards or more make a canasta."
            + (" A run of three to seven cards of one suit is a meld too." if rules.sequences else ""),
            "Threes are special: red threes are never melded, black threes only by a player going out."]


def describe(answer: dict) -> str:
    if not answer["valid"]:
        return "not a meld"
    if answer["canasta"] == NONE:
        return "a meld"
    return "a samba" if answer["canasta"] == SAMBA else f"a {answer['canasta']} canasta"


KIND = register(PuzzleKind(
    name="meld", fields=("cards", "going_out"), required=("cards",), answers={"valid": bool, "canasta": CANASTA_KINDS},
    solve=solve, hints=hints, question="Is this a legal meld, and is it a canasta?", answer_control="meld-choice",
    describe=describe, generate=lambda rng, rules, d, want: _gen._meld(rng, rules, d, want), topic="melds",
    yes_no="valid"))
