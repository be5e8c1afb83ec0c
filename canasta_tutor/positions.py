"""Puzzle positions cut from seeded bot games, so that every position could occur in a real hand.

The generator (``canasta-tutor generate --from-play``) asks :func:`source` for a maker of candidate positions:
it plays whole hands with bots (the strongest registered of ``club``, ``beginner``, ``random``), and at each
turn cuts what the player to move sees (:func:`canasta_tutor.game.observation`):

- ``take-pile`` and ``freeze``: at the start of a turn, before the draw: the hand, the team's melds, the score
  and the pile;
- ``go-out``: after the draw, before the first meld: "can you go out this turn?";
- ``opening``: a team that has not melded yet, and a first meld the player could put down from the hand
  (groups of a rank the hand holds, with some of its wild cards);
- ``score-hand``: at the end of the hand, each side's melds, red threes, the cards left in its players' hands,
  and whether it went out.

Pure Python: no Jupyter import.
"""

from __future__ import annotations

import random
from collections import defaultdict

from .cards import format_cards
from .rules import RuleSet

#: The kinds cut from play.
KINDS = ("take-pile", "go-out", "freeze", "opening", "score-hand")
BOT_ORDER = ("club", "beginner", "random")
#: Most actions one hand may take before it is given up (a safety net; real hands take a few hundred).
MAX_ACTIONS = 5_000


def _codes(cards) -> str:
    return format_cards(list(cards), symbols=False)


def _melds(melds) -> list[str]:
    return [_codes(m) for m in melds]


def serves(kind: str, rules: RuleSet) -> bool:
    """Whether bot games can give positions of ``kind`` under ``rules``."""
    if kind not in KINDS:
        return False
    try:
        from .game import Game

        Game(rules)
    except Exception:  # noqa: BLE001 - a preset or house rule the game model does not play
        return False
    return True


def _bot():
    from .bots import get_bot

    for name in BOT_ORDER:
        try:
            return get_bot(name)
        except Exception:  # noqa: BLE001 - not registered (yet)
            continue
    raise LookupError("no bot registered")


def opening_from_hand(hand, rules: RuleSet, rng: random.Random) -> list[list] | None:
    """A first meld a player holding ``hand`` could put down: one to three groups of ranks the hand holds
    (a pair gets a wild card, bigger groups sometimes one or two), or ``None`` when the hand holds none."""
    by_rank = defaultdict(list)
    wild = []
    for card in hand:
        if card.is_wild:
            wild.append(card)
        elif card.is_natural and not card.is_black_three and not card.is_red_three:
            by_rank[card.rank].append(card)
    ranks = [r for r, cards in by_rank.items() if len(cards) >= 3 or (len(cards) == 2 and wild)]
    if not ranks:
        return None
    rng.shuffle(ranks)
    rng.shuffle(wild)
    melds = []
    for rank in ranks[:rng.randint(1, min(3, len(ranks)))]:
        naturals = by_rank[rank]
        take = naturals if len(naturals) <= 3 else naturals[:rng.randint(3, len(naturals))]
        need = 1 if len(take) == 2 else 0
        room = min(rules.wild_capacity(len(take)), len(wild))
        extra = need + (rng.randint(0, max(0, room - need)) if room > need and rng.random() < 0.35 else 0)
        if extra > room:
            continue
        melds.append(list(take) + wild[:extra])
        wild = wild[extra:]
    return melds or None


def cut(kind: str, seen, moment: str, rng: random.Random) -> dict | None:
    """The puzzle situation (in notation) of ``kind`` in what a player sees (``seen``, a Situation) at
    ``moment`` (``"turn"``: before the draw; ``"drawn"``: after it), or ``None`` if there is none."""
    if kind == "take-pile" and moment == "turn" and seen.pile:
        out = {"hand": _codes(seen.hand), "melds": _melds(seen.melds), "score": seen.score, "pile": _codes(seen.pile)}
        if seen.stock_empty:
            out["stock_empty"] = True
        return out
    if kind == "freeze" and moment == "turn" and seen.pile:
        return {"pile": _codes(seen.pile), "melds": _melds(seen.melds)}
    if kind == "go-out" and moment == "drawn" and seen.hand:
        return {"hand": _codes(seen.hand), "melds": _melds(seen.melds), "score": seen.score}
    if kind == "opening" and moment == "drawn" and not seen.melds:
        melds = opening_from_hand(seen.hand, seen.rules, rng)
        return None if melds is None else {"score": seen.score, "melds": _melds(melds)}
    return None
