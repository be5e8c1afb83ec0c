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

The API
-------
- :class:`Game` ``(rules, *, teams=None)``: the fixed rules (a :class:`~canasta_tutor.engine.rules.RuleSet` or a preset
  name) and seating; ``game.new_initial_state(seed)`` deals hand 1 (any int or str seed; same seed, same deal).
- :class:`State`: ``hands`` (per player), ``stock``, ``pile`` (bottom first), ``melds`` and ``red_threes`` (per
  team), ``scores`` (per team, before this hand), ``current_player``, ``phase`` (``draw``, ``meld``,
  ``hand-over``), ``hand_number``, ``history`` (the actions applied), ``went_out``; ``is_terminal()`` (the hand
  is over), ``is_game_over()`` (and a team reached the preset's ``target_score``), ``hand_result()`` (per team,
  the ``score_hand`` sheet), ``hand_scores()``, ``totals()``, ``winner()``, ``next_hand()`` (deal the next hand
  of the game), ``clone()`` (a cheap copy for undo and look-ahead); ``game.deal(seed, hand_number, scores)``
  deals a hand again by its number (replay). ``team_of(p)`` is the player's side in this hand (the index of his
  side's ``melds``), ``sides()`` the sides as they stand, ``score_of(p)`` his score before the hand (his team's
  column, which sets his opening minimum), ``lone`` the lone hand (``classic-3p``, below) once there is one, and
  ``side_sheet(players, red_threes)`` ``score_hand``'s sheet of a side. ``game.team_of(p)`` is the player's
  team for the whole game: his score column and the owner of his red threes (the same as his side except in
  ``classic-3p``).
- :class:`Action`: a frozen, hashable value: ``kind`` (``draw``, ``take_pile``, ``meld``, ``lay_off``, ``swap``,
  ``discard``, ``go_out``, ``end``) with its ``cards``, ``target`` meld and ``melds``; ``describe()`` is a plain
  sentence, ``to_text()`` / ``Action.parse()`` a stable text form for logs and JSON.
- ``legal_actions(state)``: every action open to the player to move; ``apply(state, action)`` **changes the
  state in place** (and returns it): ``clone()`` first to keep the old one. An action not in
  ``legal_actions`` raises :class:`IllegalMove` (a ``CanastaError``) whose ``verdict`` holds the engine's
  reasons (``check_take_pile``, ``check_meld``, ``check_opening``, ``check_go_out``...).
- ``observation(state, player)``: the :class:`Observation` (a :class:`~canasta_tutor.engine.situation.Situation` with
  the table's public facts) that player sees: never another player's hand or the stock; its ``sides`` and
  ``partners`` say who plays with whom now.

A turn is a sequence of small actions
-------------------------------------
``draw`` (``draw_count`` cards; a red three drawn is laid down and replaced at once) or ``take_pile`` (the top
card melded with the cards shown, the rest of the pile into the hand), then any number of ``meld`` (a new meld:
a rank's natural cards in hand all together, with 0 to the allowed number of wild cards, twos first; in samba
a run of one suit), ``lay_off`` (one card onto one of the team's melds) and ``swap`` (samba: a natural card in
place of a wild card in an unfinished group, keeping the wild card), then ``discard`` (keeping at least one
card) or ``go_out`` (the engine's way of placing every card, ``find_go_out``, with or without a last discard).
A team that has not opened opens with one ``meld`` action holding all its opening melds together (each rank's
natural cards, wild cards jokers first), and only if ``check_opening`` would accept them (the turn's melds
together reach the minimum); taking the pile before opening carries those melds in the ``take_pile`` action.
Only melds that leave two cards in hand (one to discard, one to keep) are offered; the rest is ``go_out``.
``legal_actions`` offers that practical list (for bots and random play); ``apply`` also accepts any other
``meld`` or ``lay_off`` the engine's checks allow (three of four kings, another choice of wild cards:
``check_meld``, ``check_add_to_meld``, ``check_team_melds``, ``check_opening``) that keeps two cards in hand.

Rules decided here (where the presets and sources leave the game model a choice)
-------------------------------------------------------------------------------
- The first upcard: a wild card or a red three is covered by the next card until a plain card lies on top
  (002); the pile is then frozen by the engine's rules.
- Red threes dealt are laid down and replaced when the cards are dealt (002 says "in his first turn"; no choice
  is involved, so the model does it at once, seat by seat from the dealer's left). A red three in the pile (only
  the upcard) goes to the team that takes the pile.
- The stock running out (002): a player whose turn begins with an empty stock may take the pile where the
  engine allows it; otherwise (``end``) the hand ends, nobody going out. A red three drawn as the last card is
  laid down and the turn goes on.
- Going out concealed: the team had no meld when the turn began (so the player melds the whole hand in that
  turn); in samba also the pile was not taken (rule-decisions).
- ``classic-6p``: two teams of three by default (``Game(rules, teams=3)`` for three teams of two).
- ``classic-3p`` plays the lone hand (the rule data ``RuleSet.lone_hand``, on only there). 002: "Wie als eerste de
  stapel pakt, speelt die ronde alleen tegen de andere twee" (rule-decisions, player counts, says the same).
  Where 002 and rule-decisions are silent the model follows the published Cutthroat Canasta rules (the US
  Playing Card Co.'s, bicyclecards.com "Cutthroat Canasta", as in Hoyle), called "Cutthroat" below:

  - Until the pile is first taken in a hand, each player melds for himself, on his own table (Cutthroat: "two
    sides are formed during the play").
  - The first player to take the pile is the lone hand (002, Cutthroat); the other two are partners for the
    rest of that hand: one side, one table, at the lower of their seats (``State.team_of``, ``State.sides()``;
    the other partner's ``melds`` index stays empty). Cutthroat: "combining their melds and otherwise aiding
    each other"; how is ours: a partner's meld of a rank the other has too joins it as one meld, and wild cards
    beyond what the joined meld may hold (``wild_capacity``: three in classic) go back to the hand of the partner
    who melded them (sources silent; two melds of one rank are no legal table, check_team_melds). The sides do
    not change again in that hand.
  - A player who goes out before the pile was ever taken is the lone hand and the other two score as partners,
    their melds joined as above (Cutthroat). When the stock is used up and the pile was never taken, each
    scores for himself (Cutthroat).
  - Each player's opening minimum depends on his own score (Cutthroat: "one partner can have a higher
    requirement than the other"); a partnership has opened when its table has a meld (rule-decisions: the
    minimum applies to a team's first meld), so a partner may lay off on the other's melds at once.
  - Red threes belong to the player who laid them down (his score column; a red three in the pile to the
    player who takes it), plus or minus by whether his side melded (Cutthroat). Each player's score for the
    hand is ``score_hand`` of his side's melds, the cards left in his side's hands and its going out, with his
    own red threes: the partnership's total plus or minus his own red threes (Cutthroat: "each partner
    receives the total, plus or minus his own red threes"). Three score columns (``scores``, ``hand_result()``
    per player); the game is to 7500 (002).
  - Going out concealed, the stock running out and the other rules here are as for every preset; two canastas
    to go out (000), counted on the side's table.
- A take of the pile that the engine allows only by going out in the same turn is not offered (the offered
  takes leave a card to discard); going out is then one turn later. When the stock is used up, taking the pile
  is a choice, never forced (000 makes it compulsory when the top card fits a meld of the team).
- A hand larger than the engine judges (three dealt hands) cannot take the pile or go out: the engine refuses
  such hands as beyond any real game.
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
