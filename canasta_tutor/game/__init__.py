"""The game: deal, legal moves, apply, and what each player sees (OpenSpiel-shaped).

>>> from canasta_tutor.game import Game, legal_actions, apply, observation
>>> state = Game("classic").new_initial_state(seed=7)
>>> state.current_player, state.phase, len(state.hands[0])
(0, 'draw', 11)
>>> [a.kind for a in legal_actions(state)][:1]
['draw']
>>> _ = apply(state, legal_actions(state)[0]); state.phase
'meld'
>>> observation(state, 0).hand == tuple(state.hands[0])
True

:class:`Game` holds the rules and seating, :class:`State` one hand as it is played (``state.py``);
``legal_actions`` lists the moves open to the player to move (``legal.py``, openings in ``openings.py``);
``apply`` plays one, or raises :class:`IllegalMove` with the engine's reasons (``moves.py``); ``observation``
is what one player sees (``view.py``); an :class:`Action` is one small step of a turn (``actions.py``).
The API, the shape of a turn and the rules the game model decides where the sources leave a choice (the lone
hand of ``classic-3p`` among them) are described in ``docs/game-model.md``.
"""

from .actions import (
    DISCARD,
    DRAW,
    DRAW_PHASE,
    END,
    GO_OUT,
    HAND_OVER,
    KINDS,
    LAY_OFF,
    MELD,
    MELD_PHASE,
    SWAP,
    TAKE_PILE,
    Action,
)
from .legal import legal_actions
from .moves import IllegalMove, apply, why_illegal
from .state import Game, State
from .view import Observation, observation

__all__ = ["Action", "KINDS", "DRAW", "TAKE_PILE", "MELD", "LAY_OFF", "SWAP", "DISCARD", "GO_OUT", "END",
           "Game", "State", "IllegalMove", "Observation", "apply", "legal_actions", "observation", "why_illegal",
           "DRAW_PHASE", "MELD_PHASE", "HAND_OVER"]
