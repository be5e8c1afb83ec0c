"""Kind ``meld``: is this a legal meld, and is it a canasta?"""

from __future__ import annotations

from ...engine.cards import Card
from ...engine.i18n import N_, ngettext
from ...engine.i18n import gettext as _
from ...engine.melds import CANASTA_KINDS, MIXED, NATURAL, NONE, SAMBA, check_meld
from ..dealing import NATURAL_RANKS, Pool, codes, plain
from ..measures import wild_count
from ._record import Choice, PuzzleKind, Solution, register


def solve(s) -> Solution:
    v = check_meld(s.cards, s.rules, going_out=bool(s.going_out))
    return Solution({"valid": v.ok, "canasta": v.canasta if v.ok else NONE}, v.explanation, v)


_LIMIT = {"three": N_("Under these rules a meld is at least three cards of one rank, with at least two natural "
                      "cards and at most {max_wild} wild cards; seven cards or more make a canasta."),
          "not-more-than-natural": N_("Under these rules a meld is at least three cards of one rank, with at least "
                                      "two natural cards and never more wild cards than natural ones (and at most "
                                      "three); seven cards or more make a canasta."),
          "fewer-than-natural": N_("Under these rules a meld is at least three cards of one rank, with at least two "
                                   "natural cards and more natural cards than wild ones (and at most {max_wild} "
                                   "wild); seven cards or more make a canasta.")}


def hints(s) -> list[str]:
    rules, cards = s.rules, s.cards
    wild = sum(1 for c in cards if c.is_wild)
    limit = _(_LIMIT[rules.wild_limit]).format(max_wild=rules.max_wild)
    if rules.sequences:
        limit = _("{rule} A run of three to seven cards of one suit is a meld too.").format(rule=limit)
    return [ngettext("Count them: {count} card, {wild} of them wild.", "Count them: {count} cards, {wild} of them "
                     "wild.", len(cards)).format(count=len(cards), wild=wild),
            limit,
            _("Threes are special: red threes are never melded, black threes only by a player going out.")]


#: How each canasta reads in a sentence ("the answer is a natural canasta").
_WORDS = {NATURAL: N_("a natural canasta"), MIXED: N_("a mixed canasta"), SAMBA: N_("a samba")}


def describe(answer: dict) -> str:
    if not answer["valid"]:
        return _("not a meld")
    if answer["canasta"] == NONE:
        return _("a meld")
    return _(_WORDS.get(answer["canasta"], "a samba"))


def choices(rules) -> list[Choice]:
    """The trainer's buttons: not a meld, a meld, each canasta the rules know (a samba only with sequences)."""
    out = [Choice(_("Not a meld"), {"valid": False, "canasta": NONE}, _("not a meld")),
           Choice(_("A meld, no canasta"), {"valid": True, "canasta": NONE}, _("a meld, no canasta")),
           Choice(_("Natural canasta"), {"valid": True, "canasta": NATURAL}, _(_WORDS[NATURAL])),
           Choice(_("Mixed canasta"), {"valid": True, "canasta": MIXED}, _(_WORDS[MIXED]))]
    if rules.sequences:
        out.append(Choice(_("Samba"), {"valid": True, "canasta": SAMBA}, _(_WORDS[SAMBA])))
    return out


def generate(rng, rules, d, want):
    """A candidate situation (in notation) for the generator, or ``None``."""
    pool = Pool(rules, rng)
    rank = rng.choice(NATURAL_RANKS)
    size = rng.randint(3, 4 + d) if d < 3 else rng.choice([rng.randint(3, 6), 7, rng.randint(7, 9)])
    wild = rng.randint(0, min(size - 1, 1 + d)) if d >= 2 else 0
    cards = pool.naturals(rank, size - wild) + pool.wild(wild)
    situation = {}
    flip = rng.random()
    if not want and flip < 0.35:
        cards = cards[:2] if len(cards) > 3 and rng.random() < 0.3 else cards + pool.draw(1, allow=plain)
    elif not want and flip < 0.5:
        cards = cards[:1] + pool.wild(rng.randint(2, 3))
    elif d >= 4 and flip < 0.7:
        cards = pool.draw(rng.randint(2, 4), allow=lambda c: c.is_black_three)
        cards += pool.wild(rng.randint(0, 1))
        situation["going_out"] = rng.random() < 0.7
    if rules.sequences and d >= 2 and rng.random() < 0.35:
        suit = rng.choice("SHDC")
        start = rng.randint(4, 12)
        length = rng.randint(3, min(8, 15 - start))
        seq = []
        for order in range(start, start + length):
            card = Card({11: "J", 12: "Q", 13: "K", 14: "A"}.get(order, str(order)) + suit)
            if rng.random() < (0.15 if not want else 0.0):
                continue
            if pool.take(card):
                seq.append(card)
        cards = seq
    rng.shuffle(cards)
    situation["cards"] = codes(cards)
    return situation


def features(s) -> dict[str, float]:
    """How many cards and wild cards, wild cards at the limit, black threes, a run of one suit, going out."""
    rules, cards = s.rules, s.cards
    wild = wild_count(cards)
    natural = len(cards) - wild
    near = int(wild > 0 and (wild >= rules.wild_capacity(natural) or abs(natural - wild) <= 1))
    suits = {c.suit for c in cards if c.is_natural}
    ranks = {c.rank for c in cards if c.is_natural}
    return {"cards": len(cards), "wild": wild, "near_limit": near,
            "black_threes": int(any(c.is_black_three for c in cards)),
            "sequence": int(rules.sequences and len(ranks) > 1 and len(suits) == 1),
            "going_out": int(bool(s.going_out))}


def headline(answer: dict) -> str:
    if not answer["valid"]:
        return _("Not a meld.")
    return _(_HEADLINES.get(answer["canasta"], _HEADLINES[NONE]))


#: A worked example's short answer for each canasta (and for a meld that is none).
_HEADLINES = {NONE: N_("A meld."), SAMBA: N_("A samba!"), NATURAL: N_("A natural canasta!"),
              MIXED: N_("A mixed canasta!")}


KIND = register(PuzzleKind(
    name="meld", fields=("cards", "going_out"), required=("cards",), answers={"valid": bool, "canasta": CANASTA_KINDS},
    solve=solve, hints=hints, question=N_("Is this a legal meld, and is it a canasta?"), answer_control="meld-choice",
    describe=describe, generate=generate, topic=N_("melds"), choices=choices,
    yes_no="valid", features=features, paper_question=N_("Is this a legal meld, and is it a canasta? Tick one."),
    headline=headline))
