"""Puzzle positions cut from seeded bot games, so that every position could occur in a real hand.

The generator (``canasta-tutor generate --from-play``) asks :func:`source` for a maker of candidate positions:
it plays whole hands with bots (the strongest registered of ``club``, ``beginner``, ``random``), and at each
moment a kind's record names in its ``cut_moments`` it asks the record's ``cut`` for the positions there: at
the start of a turn (``turn``, before the draw) and after the draw (``drawn``, before the first meld) from what
the player to move sees (:func:`canasta_tutor.game.observation`), at the end of the hand (``end``) from the
finished hand. ``take-pile``, for one, is cut at the start of a turn: the hand, the team's melds, the score and
the pile.

Pure Python: no Jupyter import.
"""

from __future__ import annotations

import random

from ..bots import get_bot
from ..engine.errors import CanastaError
from ..engine.rules import RuleSet
from ..game import DRAW, DRAW_PHASE, MELD_PHASE, Game, apply, legal_actions, observation
from .kinds import KINDS, PuzzleKind, get_kind

BOT_ORDER = ("club", "beginner", "random")
#: Most actions one hand may take before it is given up (a safety net; real hands take a few hundred).
MAX_ACTIONS = 5_000
#: The most hands of one game played for positions.
HANDS = 4
#: Hands the game model could not finish (a move it offered and then refused), as sentences; see play_hand.
PROBLEMS: list[str] = []


def serves(kind: str, rules: RuleSet) -> bool:
    """Whether bot games can give positions of ``kind`` under ``rules``."""
    record = KINDS.get(kind) if isinstance(kind, str) else None
    if record is None or not record.cut_moments:
        return False
    try:
        Game(rules)
    except Exception:  # noqa: BLE001 - a preset or house rule the game model does not play
        return False
    return True


def _bot():
    for name in BOT_ORDER:
        try:
            return get_bot(name)
        except Exception:  # noqa: BLE001 - not registered (yet)
            continue
    raise LookupError("no bot registered")


def play_hand(rules: RuleSet, seed, kind: str, rng: random.Random, bots=None) -> list[dict]:
    """Play a seeded game of one to :data:`HANDS` hands with bots and return every position of ``kind`` met on
    the way (in order)."""
    record = get_kind(kind)
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
        found.extend(_play_one(state, record, rng, bots, policy))
    return found


def _play_one(state, record: PuzzleKind, rng: random.Random, bots, policy) -> list[dict]:
    found = []
    try:
        _turns(state, record, rng, bots, policy, found)
    except (CanastaError, ValueError, KeyError, IndexError) as e:
        # the game model refused its own move: keep the positions met so far, note it, and end this hand
        PROBLEMS.append(f"{state.rules.name} seed {state.seed!r} hand {state.hand_number}: {type(e).__name__}: {e}")
        state.phase = "broken"
        return found
    if "end" in record.cut_moments and state.is_terminal():
        found.extend(record.cut(state, rng))
    return found


def _moment(state) -> str | None:
    """``turn`` before the draw, ``drawn`` right after it, else ``None``."""
    if state.phase == DRAW_PHASE:
        return "turn"
    if state.phase == MELD_PHASE and state.history and state.history[-1].kind == DRAW:
        return "drawn"
    return None


def _turns(state, record: PuzzleKind, rng: random.Random, bots, policy, found: list) -> None:
    for _ in range(MAX_ACTIONS):
        if state.is_terminal():
            break
        player = state.current_player
        seen = observation(state, player)
        if _moment(state) in record.cut_moments:
            found.extend(record.cut(seen, rng))
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
