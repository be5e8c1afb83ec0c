"""Deals of the unseen cards consistent with one seat's observation, for the ``expert`` bot's search.

What a seat can know: its own hand, every card on the table (melds and red threes), the whole pile, how many
cards each player holds and how many are left in the stock; and, remembered from earlier turns (``known``),
cards it saw another player take with the pile and not yet lay down or discard. Every other card of the decks
is unseen: :func:`unseen_cards` counts them, :func:`sample_state` deals them again at random (a red three is
never held: it is laid down at once, so the unseen red threes are in the stock) and builds a
:class:`~canasta_tutor.game.State` on which the search can play, never the real one.

>>> from canasta_tutor.game import Game, observation
>>> import random
>>> real = Game("classic").new_initial_state(seed=3)
>>> obs = observation(real, 0)
>>> guess = sample_state(obs, random.Random(1))
>>> guess.hands[0] == real.hands[0], [len(h) for h in guess.hands] == [len(h) for h in real.hands]
(True, True)
>>> sorted(c.code for h in guess.hands[1:] for c in h) + sorted(c.code for c in guess.stock) == \\
...     sorted(c.code for h in real.hands[1:] for c in h) + sorted(c.code for c in real.stock)
False
"""

from __future__ import annotations

from collections import Counter

from ..game import Game, State

_GAMES: dict = {}


def game_for(rules) -> Game:
    """One :class:`Game` per rule set (its caches are shared by every search on it)."""
    game = _GAMES.get(rules)
    if game is None:
        game = _GAMES[rules] = Game(rules)
    return game


def unseen_cards(obs) -> Counter:
    """The cards of the decks the seat has not seen: not in its hand, not on the table, not in the pile."""
    game = game_for(obs.rules)
    left = Counter(game.deck)
    seen = list(obs.hand) + list(obs.pile)
    for melds in obs.table:
        for m in melds:
            seen.extend(m)
    for reds in obs.table_red_threes:
        seen.extend(reds)
    left.subtract(seen)
    return +left


def _sides(obs, game: Game) -> tuple[tuple[int, ...], int | None]:
    """``State.side`` and ``State.lone`` read from the observation's ``sides``."""
    n = game.num_players
    if not obs.rules.lone_hand or not obs.sides or len(obs.sides) == n:
        return game.seat_teams, None
    lone = next(side[0] for side in obs.sides if len(side) == 1)
    into = min(q for q in range(n) if q != lone)
    return tuple(lone if q == lone else into for q in range(n)), lone


def sample_state(obs, rng, known=None) -> State:
    """A :class:`State` with the seat's own cards and the table as observed and the unseen cards dealt at random:
    each other hand gets its size (first the cards ``known`` to be in it, ``{player: [cards]}``), the stock the
    rest. Only cards the seat can see or remember go in: the result depends on the observation and ``rng``."""
    game = game_for(obs.rules)
    n = game.num_players
    me = obs.player
    pool = unseen_cards(obs)
    hands: list[list] = [[] for _ in range(n)]
    hands[me] = list(obs.hand)
    for q, cards in sorted((known or {}).items()):
        if q == me:
            continue
        for c in cards:
            if pool[c] > 0 and len(hands[q]) < obs.hand_sizes[q]:
                pool[c] -= 1
                hands[q].append(c)
    reds = [c for c in pool.elements() if c.is_red_three]
    rest = [c for c in pool.elements() if not c.is_red_three]
    rng.shuffle(rest)
    for q in range(n):
        if q == me:
            continue
        need = obs.hand_sizes[q] - len(hands[q])
        hands[q].extend(rest[:need])
        del rest[:need]
    stock = rest + reds
    rng.shuffle(stock)
    return _state(obs, game, hands, stock)


def _state(obs, game: Game, hands, stock) -> State:
    s = State.__new__(State)
    n = game.num_players
    s.game, s.rules, s.seed = game, game.rules, None
    s.hand_number = obs.hand_number
    s.dealer = (obs.current_player - 1) % n
    s.scores = tuple(obs.scores) if obs.scores else (0,) * game.num_teams
    s.hands = hands
    s.stock = stock
    s.pile = list(obs.pile)
    table = obs.table or tuple(() for _ in range(game.num_teams))
    s.melds = [list(m) for m in table]
    reds = obs.table_red_threes or tuple(() for _ in range(game.num_teams))
    s.red_threes = [list(r) for r in reds]
    s.current_player, s.phase = obs.current_player, obs.phase
    s.history = []
    s.went_out = None
    s.side, s.lone = _sides(obs, game)
    s.took_pile = obs.phase != "draw" and not obs.pile
    s.turn_opened = obs.turn_opened
    s.concealed_canastas = [0] * game.num_teams
    s.melded = [bool(s.melds[s.side[p]]) for p in range(n)]
    s.melded_before = s.melded[obs.current_player]
    s.turn_melds_from = len(s.melds[s.side[obs.current_player]])
    s.red_three_last = False
    s._legal = s._legal_set = s._results = None
    return s


__all__ = ["game_for", "sample_state", "unseen_cards"]
