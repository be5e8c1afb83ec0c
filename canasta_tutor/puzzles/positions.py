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

from ..engine.cards import format_cards
from ..engine.errors import CanastaError
from ..engine.rules import RuleSet

#: The kinds cut from play.
KINDS = ("take-pile", "go-out", "freeze", "opening", "score-hand")
BOT_ORDER = ("club", "beginner", "random")
#: Most actions one hand may take before it is given up (a safety net; real hands take a few hundred).
MAX_ACTIONS = 5_000
#: The most hands of one game played for positions.
HANDS = 4
#: Hands the game model could not finish (a move it offered and then refused), as sentences; see play_hand.
PROBLEMS: list[str] = []


def _codes(cards) -> str:
    return format_cards(list(cards), symbols=False)


def _melds(melds) -> list[str]:
    return [_codes(m) for m in melds]


def serves(kind: str, rules: RuleSet) -> bool:
    """Whether bot games can give positions of ``kind`` under ``rules``."""
    if kind not in KINDS:
        return False
    try:
        from ..game import Game

        Game(rules)
    except Exception:  # noqa: BLE001 - a preset or house rule the game model does not play
        return False
    return True


def _bot():
    from ..bots import get_bot

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


def score_sheet_position(state, team: int, rng: random.Random) -> dict:
    """One side's end of the hand as a score-hand situation: its melds, red threes, the cards left in its
    players' hands (the learner's first), and whether it went out."""
    # ``team`` is a score column; its side in the hand (classic-3p's lone hand: the partnership's table and hands,
    # with this column's own red threes, as the game scores it; other presets: the same team)
    side = state.team_of(state.game.teams[team][0])
    players = [p for p in range(state.game.num_players) if state.team_of(p) == side]
    rng.shuffle(players)
    went = False
    if state.went_out is not None and state.team_of(state.went_out[0]) == side:
        went = "concealed" if state.went_out[1] else True
    out = {"melds": _melds(state.melds[side]), "red_threes": _codes(state.red_threes[team]),
           "hands": [_codes(state.hands[p]) for p in players], "went_out": went}
    if went != "concealed" and state.concealed_canastas[side]:
        canastas = sum(1 for m in state.melds[side] if len(m) >= 7)
        if min(state.concealed_canastas[side], canastas):
            out["concealed_canastas"] = min(state.concealed_canastas[side], canastas)
    return out


def play_hand(rules: RuleSet, seed, kind: str, rng: random.Random, bots=None) -> list[dict]:
    """Play a seeded game of one to :data:`HANDS` hands with bots and return every position of ``kind`` met on
    the way (in order)."""
    from ..game import Game

    game = Game(rules)
    state = game.new_initial_state(seed)
    bots = bots or [_bot() for _ in range(game.num_players)]
    policy = random.Random(f"bots|{seed}")
    found = []
    # later hands of the game too (up to four), so that the scores, and so the opening minimum, vary
    for _hand in range(rng.randint(1, HANDS)):
        if _hand:
            if not state.is_terminal() or state.is_game_over():
                break
            state = state.next_hand()
        found.extend(_play_one(state, kind, rng, bots, policy))
    return found


def _play_one(state, kind: str, rng: random.Random, bots, policy) -> list[dict]:
    from ..game import DRAW, DRAW_PHASE, MELD_PHASE, apply, legal_actions, observation

    found = []
    try:
        _turns(state, kind, rng, bots, policy, found, DRAW, DRAW_PHASE, MELD_PHASE, apply, legal_actions, observation)
    except (CanastaError, ValueError, KeyError, IndexError) as e:
        # the game model refused its own move: keep the positions met so far, note it, and end this hand
        PROBLEMS.append(f"{state.rules.name} seed {state.seed!r} hand {state.hand_number}: {type(e).__name__}: {e}")
        state.phase = "broken"
        return found
    if kind == "score-hand" and state.is_terminal():
        found.extend(score_sheet_position(state, t, rng) for t in range(state.game.num_teams))
    return found


def _turns(state, kind, rng, bots, policy, found, DRAW, DRAW_PHASE, MELD_PHASE, apply, legal_actions, observation):
    for _ in range(MAX_ACTIONS):
        if state.is_terminal():
            break
        player = state.current_player
        seen = observation(state, player)
        moment = ("turn" if state.phase == DRAW_PHASE else
                  "drawn" if state.phase == MELD_PHASE and state.history and state.history[-1].kind == DRAW else None)
        if moment is not None:
            position = cut(kind, seen, moment, rng)
            if position is not None:
                found.append(position)
        action, _why = bots[player].choose(seen, legal_actions(state), policy)
        apply(state, action)


def source(kind: str, rules: RuleSet):
    """``make(rng, level, want) -> situation or None`` for the generator: positions of ``kind`` from seeded
    bot hands, one at a time (a hand's positions are shuffled and handed out before the next hand is played).
    The level and wanted answer are the generator's to filter: play decides what comes."""
    buffer: list[dict] = []
    bots = []

    def make(rng: random.Random, _level: int, _want: bool):
        if not bots:
            from ..game import Game

            bots.extend(_bot() for _ in range(Game(rules).num_players))
        for _ in range(20):  # a hand with no position of this kind: play another
            if buffer:
                return buffer.pop()
            found = play_hand(rules, rng.getrandbits(48), kind, rng, bots)
            rng.shuffle(found)
            # some positions per hand, so that one hand does not fill a whole set
            buffer.extend(found[:16])
        return None
    return make
