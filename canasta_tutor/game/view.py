"""What one player sees: :class:`Observation` (a :class:`Situation` with the table's public facts) and
:func:`observation`. Never a hidden card: no other player's hand, no card of the stock."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from ..engine.errors import CanastaError, clip
from ..engine.situation import Situation
from .actions import DRAW_PHASE

if TYPE_CHECKING:
    from .state import State


@dataclass(frozen=True, kw_only=True)
class Observation(Situation):
    """What one player sees: a :class:`Situation` (own ``hand``, own team's ``melds`` and ``red_threes``,
    ``score`` before the hand, the whole ``pile``, every face-up card having been seen, ``stock_empty``,
    ``opponents_melds``) plus the table: ``player``, ``team``, ``current_player``, ``phase``,
    ``hand_number``, ``hand_sizes`` (per player), ``stock_left``, ``scores`` (per team, before the hand),
    ``table`` (per team, its melds), ``table_red_threes`` (per team), ``turn_opened`` (the team had melds
    when this turn began), ``sides`` (the sides as they stand, tuples of players; ``partners`` are the
    others of one's own side). Never a hidden card: no other hand, no stock card.

    Under ``lone_hand`` (``classic-3p``) ``team`` and ``table`` follow the hand's sides (``State.team_of``; a
    partnership's table is at the lowest of its seats, the other partner's index holds no melds), while
    ``score``, ``scores``, ``red_threes`` and ``table_red_threes`` are the players' own (their score columns)."""

    player: int = 0
    team: int = 0
    current_player: int = 0
    phase: str = DRAW_PHASE
    hand_number: int = 1
    hand_sizes: tuple[int, ...] = ()
    stock_left: int = 0
    scores: tuple[int, ...] = ()
    table: tuple = ()
    table_red_threes: tuple = ()
    turn_opened: bool = False
    sides: tuple = ()

    @property
    def partners(self) -> tuple[int, ...]:
        """The other players of this player's side now (none for a player alone)."""
        return tuple(q for side in self.sides if self.player in side for q in side if q != self.player)


def observation(state: State, player: int | None = None) -> Observation:
    """What ``player`` (default: the player to move) sees; see :class:`Observation`."""
    if player is None:
        player = state.current_player
    if not isinstance(player, int) or not 0 <= player < state.game.num_players:
        raise CanastaError(f"player: {clip(repr(player), 20)} is not a seat of this game "
                           f"(0 to {state.game.num_players - 1})")
    t = state.team_of(player)
    table = tuple(tuple(m) for m in state.melds)
    others = tuple(m for u, ms in enumerate(table) if u != t for m in ms)
    column = state.game.team_of(player)
    return Observation(hand=tuple(state.hands[player]), melds=table[t], score=state.scores[column],
                       pile=tuple(state.pile), rules=state.rules, stock_empty=not state.stock,
                       red_threes=tuple(state.red_threes[column]), opponents_melds=others,
                       player=player, team=t, current_player=state.current_player, phase=state.phase,
                       hand_number=state.hand_number, hand_sizes=tuple(len(h) for h in state.hands),
                       stock_left=len(state.stock), scores=tuple(state.scores), table=table,
                       table_red_threes=tuple(tuple(r) for r in state.red_threes),
                       turn_opened=state.turn_opened if player == state.current_player else bool(table[t]),
                       sides=state.sides())
