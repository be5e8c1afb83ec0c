"""The game model: :class:`Game` (fixed rules), :class:`State` (one hand as it is played), legal actions,
``apply`` and what one player sees (``observation``). See the package docstring for the rules decided here."""

from __future__ import annotations

import random
from dataclasses import dataclass

from ..engine.cards import ALL_CARDS, JOKER, RED_THREES, SEQUENCE_ORDER, Card, card_points, format_cards
from ..engine.errors import CanastaError, SituationError, clip
from ..engine.going_out import check_go_out, find_go_out
from ..engine.melds import (
    CANASTA_SIZE,
    GROUP,
    SEQUENCE,
    check_add_to_meld,
    check_meld,
    check_swap,
    check_team_melds,
    meld_facts,
    meld_key,
)
from ..engine.numbers import is_whole_number
from ..engine.opening import check_opening
from ..engine.pile import _fast_take, check_take_pile
from ..engine.rules import RuleSet, get_rules
from ..engine.scoring import score_hand
from ..engine.situation import Situation, max_hand_cards
from ..engine.verdict import Reason, Verdict
from .actions import DISCARD, DRAW, END, GO_OUT, LAY_OFF, MELD, SWAP, TAKE_PILE, Action

#: The phases of a turn, and the end of the hand.
DRAW_PHASE, MELD_PHASE, HAND_OVER = "draw", "meld", "hand-over"

#: How many opening combinations (sets of melds put down together) the action list offers at most.
OPENING_LIMIT = 64

_DEFAULT_TEAMS = {2: 2, 3: 3, 4: 2, 6: 2}


class IllegalMove(CanastaError):
    """An action the rules do not allow now; ``verdict`` holds the engine's reasons."""

    def __init__(self, verdict: Verdict, action: Action | None = None):
        self.verdict = verdict
        self.action = action
        what = action.to_text() if action is not None else "this move"
        super().__init__(f"illegal move ({clip(what)}): {verdict.sentence}")


class Game:
    """The fixed part of a game: the rules (a :class:`RuleSet` or a preset name) and the seating.

    ``teams``: how many teams (default: 2 with 4 or 6 players, else each player alone). Player ``p`` plays
    in team ``p % teams``, so partners sit apart. Under ``rules.lone_hand`` (``classic-3p``) every player has
    his own team here (his score column and his red threes); the sides of a hand form as it is played
    (:meth:`State.team_of`, :meth:`State.sides`).

    >>> g = Game("classic")
    >>> g.num_players, g.teams
    (4, ((0, 2), (1, 3)))
    """

    def __init__(self, rules: RuleSet | str = "classic", *, teams: int | None = None):
        self.rules = get_rules(rules)
        n = self.rules.players
        self.num_players = n
        nt = teams if teams is not None else n if self.rules.lone_hand else _DEFAULT_TEAMS.get(n, n)
        if not is_whole_number(nt) or nt < 2 or n % nt:
            raise CanastaError(f"teams: {clip(repr(nt), 20)} teams cannot seat {n} players evenly")
        if self.rules.lone_hand and nt != n:
            raise CanastaError(f"teams: {self.rules.name} plays each player alone until the pile is first taken "
                               f"(lone_hand), so {n} players keep {n} score columns, not {nt}")
        self.num_teams = nt
        self.teams = tuple(tuple(p for p in range(n) if p % nt == t) for t in range(nt))
        deck = []
        for card in ALL_CARDS:
            deck += [card] * (self.rules.jokers if card.rank == JOKER else self.rules.decks)
        self.deck = tuple(deck)
        #: ``rules.wild_capacity(n)`` for ``n`` natural cards, read from a table in the enumeration's loops
        self.wild_caps = tuple(self.rules.wild_capacity(n) for n in range(4 * len(deck) + 2))
        #: lay-offs judged so far: ``(meld, card) -> bool`` (``meld_facts``), for the enumeration
        self.fits: dict = {}
        #: each seat's team when a hand is dealt (``State.side``; under ``lone_hand`` it changes in the hand)
        self.seat_teams = tuple(p % nt for p in range(n))

    def team_of(self, player: int) -> int:
        """The player's team for the whole game: his score column (``scores``) and the owner of his red threes.
        Under ``lone_hand`` that is the player himself; his side in a hand is ``State.team_of``."""
        return player % self.num_teams

    def new_initial_state(self, seed=0) -> State:
        """The first hand of a game, dealt from a deck shuffled by ``seed`` (any int or str)."""
        return State._deal(self, seed, hand_number=1, dealer=self.num_players - 1, scores=(0,) * self.num_teams)

    def deal(self, seed=0, hand_number: int = 1, scores=None) -> State:
        """Hand ``hand_number`` of the game with this ``seed``, as ``next_hand()`` would deal it (the same cards,
        the same dealer), with the teams' ``scores`` before it (default 0 each): to replay a hand by its number.

        >>> state = Game("classic").deal(4, 3, scores=(120, 860))
        >>> state.hand_number, state.dealer, state.current_player, state.scores
        (3, 1, 2, (120, 860))
        """
        if not is_whole_number(hand_number) or hand_number < 1:
            raise CanastaError(f"hand_number: a hand is numbered from 1, not {clip(repr(hand_number), 20)}")
        scores = (0,) * self.num_teams if scores is None else tuple(scores)
        if len(scores) != self.num_teams:
            raise CanastaError(f"scores: {len(scores)} scores for {self.num_teams} teams")
        return State._deal(self, seed, hand_number=hand_number,
                           dealer=(self.num_players - 1 + hand_number - 1) % self.num_players, scores=scores)

    def __repr__(self) -> str:
        return f"Game({self.rules.name!r})"


class State:
    """One hand being played. ``apply`` changes it in place; ``clone()`` is a cheap copy (lists of
    interned cards; melds are tuples), for undo and look-ahead.

    Attributes: ``hands`` (per player, a list of cards), ``stock`` (its top is the last card), ``pile``
    (bottom first), ``melds`` and ``red_threes`` (per team), ``scores`` (per team, before this hand),
    ``current_player``, ``phase`` (``draw``, ``meld`` or ``hand-over``), ``hand_number`` (1-based),
    ``dealer``, ``history`` (the actions applied), ``went_out`` (``None`` or ``(player, concealed)``).

    Sides and columns: ``melds`` and ``concealed_canastas`` are indexed by the side (``team_of(p)``), ``scores``
    and ``red_threes`` by the game's team (``game.team_of(p)``, the score column). They are the same except under
    ``rules.lone_hand`` (``classic-3p``), where ``side`` (per player, his side's index) starts as each player
    alone and, once ``lone`` (the first player to take the pile, or to go out before anyone took it) is known,
    the others share one side, the lowest of their seat numbers, and one table.
    """

    __slots__ = ("game", "rules", "seed", "hand_number", "dealer", "scores", "hands", "stock", "pile", "melds",
                 "red_threes", "current_player", "phase", "history", "went_out", "took_pile", "turn_opened",
                 "concealed_canastas", "melded", "side", "lone", "_legal", "_legal_set", "_results")

    # --- making a state --------------------------------------------------------------------------------
    @classmethod
    def _deal(cls, game: Game, seed, *, hand_number: int, dealer: int, scores) -> State:
        rules = game.rules
        self = cls.__new__(cls)
        self.game, self.rules, self.seed = game, rules, seed
        self.hand_number, self.dealer, self.scores = hand_number, dealer, tuple(scores)
        deck = list(game.deck)
        random.Random(f"{seed}:{hand_number}").shuffle(deck)
        n = game.num_players
        need = n * rules.hand_size + 1
        if len(deck) < need:
            raise CanastaError(f"rules {rules.name}: {len(deck)} cards cannot deal {rules.hand_size} to each of "
                               f"{n} players and turn up a card")
        self.hands = [[] for _ in range(n)]
        for _ in range(rules.hand_size):
            for p in range(n):
                self.hands[(dealer + 1 + p) % n].append(deck.pop())
        self.stock = deck
        # The first upcard: a wild card or a red three is covered by the next card, until a plain one lies on top.
        self.pile = [self.stock.pop()]
        while (self.pile[-1].is_wild or self.pile[-1].is_red_three) and self.stock:
            self.pile.append(self.stock.pop())
        self.melds = [[] for _ in range(game.num_teams)]
        self.red_threes = [[] for _ in range(game.num_teams)]
        # Red threes dealt: laid down and replaced from the stock, in turn order from the dealer's left.
        for i in range(n):
            p = (dealer + 1 + i) % n
            hand = self.hands[p]
            while any(c.is_red_three for c in hand) and self.stock:
                reds = [c for c in hand if c.is_red_three]
                for c in reds:
                    hand.remove(c)
                    self.red_threes[game.team_of(p)].append(c)
                for _ in reds:
                    if self.stock:
                        hand.append(self.stock.pop())
        self.current_player = (dealer + 1) % n
        self.phase = DRAW_PHASE
        self.history = []
        self.went_out = None
        self.took_pile = False
        self.turn_opened = False
        self.concealed_canastas = [0] * game.num_teams
        self.melded = [False] * n
        self.side = game.seat_teams
        self.lone = None
        self._legal = self._legal_set = self._results = None
        return self

    def clone(self) -> State:
        new = State.__new__(State)
        new.game, new.rules, new.seed = self.game, self.rules, self.seed
        new.hand_number, new.dealer, new.scores = self.hand_number, self.dealer, self.scores
        new.hands = [list(h) for h in self.hands]
        new.stock = list(self.stock)
        new.pile = list(self.pile)
        new.melds = [list(m) for m in self.melds]
        new.red_threes = [list(r) for r in self.red_threes]
        new.current_player, new.phase = self.current_player, self.phase
        new.history = list(self.history)
        new.went_out, new.took_pile, new.turn_opened = self.went_out, self.took_pile, self.turn_opened
        new.concealed_canastas = list(self.concealed_canastas)
        new.melded = list(self.melded)
        new.side, new.lone = self.side, self.lone
        new._legal, new._legal_set, new._results = self._legal, self._legal_set, self._results
        return new

    def next_hand(self) -> State:
        """The next hand of the same game (the deal passes to the left), once this one is over."""
        if not self.is_terminal():
            raise CanastaError("the hand is not over yet: play it to its end first")
        if self.is_game_over():
            raise CanastaError(f"the game is over: a team reached {self.rules.target_score}")
        return State._deal(self.game, self.seed, hand_number=self.hand_number + 1,
                           dealer=(self.dealer + 1) % self.game.num_players, scores=self.totals())

    # --- questions -----------------------------------------------------------------------------------------
    def team_of(self, player: int) -> int:
        """The player's side in this hand: the index of his side's ``melds`` (his partners share it)."""
        return self.side[player]

    def score_of(self, player: int) -> int:
        """The player's score before this hand: his team's (under ``lone_hand``, his own column), which sets
        his opening minimum."""
        return self.scores[self.game.team_of(player)]

    def sides(self) -> tuple[tuple[int, ...], ...]:
        """The sides as they stand now, each a tuple of players, in the order of their ``melds`` index:
        ``game.teams`` except under ``lone_hand`` (``((0,), (1,), (2,))`` until the pile is first taken, then
        ``((0, 2), (1,))`` when player 1 took it)."""
        if not self.rules.lone_hand:
            return self.game.teams
        out: dict[int, list[int]] = {}
        for p, t in enumerate(self.side):
            out.setdefault(t, []).append(p)
        return tuple(tuple(out[t]) for t in sorted(out))

    def side_sheet(self, players, red_threes=()):
        """``score_hand``'s sheet for the side of ``players`` (its melds, its players' hands, whether it went
        out) with the given ``red_threes``: ``()`` for the side's score before red threes."""
        t = self.team_of(players[0])
        went = False
        if self.went_out is not None and self.team_of(self.went_out[0]) == t:
            went = "concealed" if self.went_out[1] else True
        canastas = sum(1 for m in self.melds[t] if len(m) >= CANASTA_SIZE)
        concealed = None if went == "concealed" else min(self.concealed_canastas[t], canastas)
        return score_hand(Situation(melds=tuple(self.melds[t]), red_threes=tuple(red_threes),
                                    hands=tuple(tuple(self.hands[p]) for p in players),
                                    went_out=went, concealed_canastas=concealed, rules=self.rules))

    def is_terminal(self) -> bool:
        """Is the hand over (a player went out, or the stock ran out)?"""
        return self.phase == HAND_OVER

    def is_game_over(self) -> bool:
        """Is the hand over with a team at or above the preset's target score?"""
        return self.phase == HAND_OVER and max(self.totals()) >= self.rules.target_score

    def hand_result(self) -> tuple:
        """Per team (score column), the hand's :class:`~canasta_tutor.engine.scoring.ScoreSheet` (made by
        ``score_hand``). Under ``lone_hand`` one per player: his side's melds, hands and going out, with his own
        red threes (plus or minus by whether his side melded)."""
        if self.phase != HAND_OVER:
            raise CanastaError("the hand is not over yet: there is no result to score")
        if self._results is None and self.rules.lone_hand:
            sides = {p: side for side in self.sides() for p in side}
            self._results = tuple(self.side_sheet(sides[players[0]], self.red_threes[c])
                                  for c, players in enumerate(self.game.teams))
        if self._results is None:
            sheets = []
            for t, players in enumerate(self.game.teams):
                went = False
                if self.went_out is not None and self.team_of(self.went_out[0]) == t:
                    went = "concealed" if self.went_out[1] else True
                canastas = sum(1 for m in self.melds[t] if len(m) >= CANASTA_SIZE)
                concealed = None if went == "concealed" else min(self.concealed_canastas[t], canastas)
                sheets.append(score_hand(Situation(melds=tuple(self.melds[t]), red_threes=tuple(self.red_threes[t]),
                                                   hands=tuple(tuple(self.hands[p]) for p in players),
                                                   went_out=went, concealed_canastas=concealed, rules=self.rules)))
            self._results = tuple(sheets)
        return self._results

    def hand_scores(self) -> tuple[int, ...]:
        return tuple(s.total for s in self.hand_result())

    def totals(self) -> tuple[int, ...]:
        """The teams' scores: before this hand while it runs, after it once it is over."""
        if self.phase != HAND_OVER:
            return self.scores
        return tuple(a + b for a, b in zip(self.scores, self.hand_scores()))

    def winner(self) -> int | None:
        """The team with the highest total once the game is over (``None`` before, or on a tie)."""
        if not self.is_game_over():
            return None
        totals = self.totals()
        best = max(totals)
        return totals.index(best) if totals.count(best) == 1 else None

    def legal_actions(self) -> list[Action]:
        return legal_actions(self)

    def apply(self, action: Action) -> State:
        return apply(self, action)

    def __repr__(self) -> str:
        return (f"<State {self.rules.name} hand {self.hand_number}, player {self.current_player} to "
                f"{self.phase}, stock {len(self.stock)}, pile {len(self.pile)}>")


# --- legal actions --------------------------------------------------------------------------------------------

def legal_actions(state: State) -> list[Action]:
    """Every action the player to move may take now (an empty list once the hand is over)."""
    if state._legal is None:
        if state.phase == DRAW_PHASE:
            acts = _draw_actions(state)
        elif state.phase == MELD_PHASE:
            acts = _meld_phase_actions(state)
            if not acts:  # no discard keeps a card and no way out: the hand ends (only a hand of one card)
                acts = [_END_ACTION]
        else:
            acts = []
        state._legal = acts
        state._legal_set = None   # made when first needed (an action not found by identity)
    return list(state._legal)


# --- the enumeration's building blocks: shared actions, meld facts read once ----------------------------------
# Actions are frozen values, so equal ones can be shared: the enumeration looks them up instead of building
# (and later hashing) new ones. The tables are cleared when they grow large (a long-running process).
_DRAW_ACTION = Action(DRAW)
_END_ACTION = Action(END)
_TABLE_LIMIT = 50_000
_DISCARDS: dict = {}
_LAY_OFFS: dict = {}
_SWAPS: dict = {}
_MELDS: dict = {}
_MELD_INFO: dict = {}


def _discard_action(c: Card) -> Action:
    a = _DISCARDS.get(c)
    if a is None:
        a = _DISCARDS[c] = Action(DISCARD, cards=(c,))
    return a


def _lay_off_action(c: Card, i: int) -> Action:
    key = (c, i)
    a = _LAY_OFFS.get(key)
    if a is None:
        if len(_LAY_OFFS) > _TABLE_LIMIT:
            _LAY_OFFS.clear()
        a = _LAY_OFFS[key] = Action(LAY_OFF, cards=(c,), target=i)
    return a


def _swap_action(c: Card, i: int, wild: Card) -> Action:
    key = (c, i, wild)
    a = _SWAPS.get(key)
    if a is None:
        if len(_SWAPS) > _TABLE_LIMIT:
            _SWAPS.clear()
        a = _SWAPS[key] = Action(SWAP, cards=(c,), target=i, wild=wild)
    return a


def _meld_action(meld: tuple) -> Action:
    a = _MELDS.get(meld)
    if a is None:
        if len(_MELDS) > _TABLE_LIMIT:
            _MELDS.clear()
        a = _MELDS[meld] = Action(MELD, melds=(meld,))
    return a


def _meld_info(m: tuple) -> tuple:
    """``(kind, key, wild cards, the highest wild card, low, high)`` of a meld on the table (``meld_key``, the
    count of its wild cards, the wild card a swap takes back, a sequence's lowest and highest rank order),
    read once per meld (melds are tuples of interned cards)."""
    info = _MELD_INFO.get(m)
    if info is None:
        if len(_MELD_INFO) > _TABLE_LIMIT:
            _MELD_INFO.clear()
        kind, key = meld_key(m)
        wild_in = [c for c in m if c.is_wild]
        best = max(wild_in, key=_points) if wild_in else None
        lo = hi = 0
        if kind == SEQUENCE:
            orders = [SEQUENCE_ORDER.get(c.rank, 0) for c in m]
            lo, hi = min(orders), max(orders)
        info = _MELD_INFO[m] = (kind, key, len(wild_in), best, lo, hi)
    return info


def _points(c: Card) -> int:
    return c.points


def _situation(state: State, player: int, **extra) -> Situation:
    t = state.team_of(player)
    return Situation(hand=tuple(state.hands[player]), melds=tuple(state.melds[t]), score=state.score_of(player),
                     pile=tuple(state.pile), rules=state.rules, stock_empty=not state.stock, **extra)


def _draw_actions(state: State) -> list[Action]:
    acts = [_DRAW_ACTION] if state.stock else []
    acts += _take_actions(state)
    if not state.stock:
        acts.append(_END_ACTION)
    return acts


def _take_actions(state: State) -> list[Action]:
    pile = state.pile
    if not pile:
        return []
    top = pile[-1]
    if not top.is_natural:   # a wild card or a three on top stops the pile
        return []
    p = state.current_player
    t = state.team_of(p)
    hand = state.hands[p]
    melds = state.melds[t]
    rules = state.rules
    naturals = [c for c in hand if c.rank == top.rank and not c.is_wild]
    key = (GROUP, top.rank)
    index = next((i for i, m in enumerate(melds) if _meld_info(m)[:2] == key), None)
    if len(naturals) < 2 and index is None and not (naturals and melds and any(c.is_wild for c in hand)):
        return []
    if len(hand) > max_hand_cards(rules):
        return []   # beyond any real game's hand: the engine does not judge it (see the package notes)
    quick = _quick_take(state, hand, melds, top, index) if melds and not rules.sequences else None
    if quick is None:
        try:
            verdict = check_take_pile(_situation(state, p))
        except SituationError:
            return []
        if not verdict.ok:
            return []
        quick = (verdict.method, verdict.cards)
    elif not quick:
        return []
    if melds:
        method, cards = quick
        target = index if (method == "lay-off" or (method == "pair" and index is not None)) else None
        return [Action(TAKE_PILE, cards=tuple(cards), target=target)]
    # A team that has not opened: the top card and its natural pair (or more) open, with other melds from hand.
    pile_rest = sum(1 for c in pile[:-1] if not c.is_red_three)
    minimum = rules.opening_minimum(state.score_of(p))
    acts = []
    for combo in _opening_combos(hand, rules, minimum, keep=2 - pile_rest, top=top):
        acts.append(Action(TAKE_PILE, cards=combo[0][1:], melds=combo))
    return acts


def _quick_take(state: State, hand, melds, top: Card, index: int | None):
    """``check_take_pile``'s answer for a team that has opened, under rules without sequences, from the engine's
    fast path (no situation built, no sentence written): ``(method, cards shown)`` when the pile may be taken,
    ``()`` when not, ``None`` to ask ``check_take_pile`` (a red three in hand, or a case the fast path leaves to
    the explained one)."""
    if not RED_THREES.isdisjoint(hand):
        return None
    verdict = _fast_take(hand, list(melds), state.score_of(state.current_player), state.pile, state.rules,
                         not state.stock)
    if verdict is None:
        return None
    return (verdict.method, verdict.cards) if verdict.ok else ()


def _runs(naturals, rules):
    """Samba: the longest runs (at most seven) of one suit in ``naturals``: a list of card tuples."""
    if not rules.sequences:
        return []
    by_suit: dict[str, dict[int, Card]] = {}
    for c in naturals:
        by_suit.setdefault(c.suit, {})[SEQUENCE_ORDER[c.rank]] = c
    out = []
    for suit in sorted(by_suit):
        ranks = by_suit[suit]
        run: list[Card] = []
        for order in range(4, 16):
            if order in ranks:
                run.append(ranks[order])
                continue
            if len(run) >= 3:
                out.append(tuple(run[-7:]))
            run = []
    return out


def _opening_combos(hand, rules: RuleSet, minimum: int, *, keep: int, top: Card | None = None):
    """Sets of melds an unopened team may put down together from ``hand`` (with the pile's ``top`` card in the
    first meld, when taking the pile): each rank's natural cards all together, with as many wild cards as
    the rules allow (jokers first), sambas' runs whole; reaching ``minimum`` card points and leaving ``keep``
    cards in hand. At most :data:`OPENING_LIMIT` of them."""
    naturals = [c for c in hand if c.is_natural]
    wilds = sorted((c for c in hand if c.is_wild), key=lambda c: -c.points)
    runs = _runs(naturals, rules)
    out = []
    n_hand = len(hand)
    run_choices = [()]
    for r in runs:
        run_choices += [prev + (r,) for prev in run_choices]
    for chosen_runs in run_choices:
        rest = list(naturals)
        ok = True
        for r in chosen_runs:
            for c in r:
                if c in rest:
                    rest.remove(c)
                else:
                    ok = False
        if not ok or (top is not None and chosen_runs and sum(1 for c in rest if c.rank == top.rank) < 2):
            continue
        by_rank: dict[str, list[Card]] = {}
        for c in rest:
            by_rank.setdefault(c.rank, []).append(c)
        ranks = sorted(by_rank, key=lambda r: SEQUENCE_ORDER[r])
        if top is not None:
            if len(by_rank.get(top.rank, ())) < 2:
                continue
            ranks.remove(top.rank)
            ranks.insert(0, top.rank)
        base_points = sum(card_points(r) for r in chosen_runs)
        base_used = sum(len(r) for r in chosen_runs)

        def dfs(i, used_wild, melds, points, used):
            if len(out) >= OPENING_LIMIT:
                return
            if i == len(ranks):
                if (melds or chosen_runs) and points >= minimum and n_hand - used >= keep:
                    out.append(tuple(melds) + chosen_runs)   # the top card's meld first
                return
            rank = ranks[i]
            group = by_rank[rank]
            forced = top is not None and i == 0
            lead = [top] if forced else []
            n = len(group) + len(lead)
            if not forced:
                dfs(i + 1, used_wild, melds, points, used)
            if n < 2:
                return
            cap = min(rules.wild_capacity(n), len(wilds) - used_wild)
            for w in range(max(0, 3 - n), cap + 1):
                cards = tuple(lead + group) + tuple(wilds[used_wild:used_wild + w])
                dfs(i + 1, used_wild + w, melds + [cards], points + card_points(cards),
                    used + len(group) + w)

        dfs(0, 0, [], base_points, base_used)
    return out


def _meld_phase_actions(state: State) -> list[Action]:
    """The meld phase's actions, in this order: new melds (each rank's natural cards, with 0 or more wild
    cards, twos first; samba's runs), lay-offs of one card (meld by meld, cards in hand order), swaps,
    discards (hand order), the way out. ``tests/test_game_fast_actions.py`` keeps the plain enumeration
    (every meld judged by the engine) and checks this one against it."""
    p = state.current_player
    game = state.game
    t = state.side[p]
    hand = state.hands[p]
    melds = state.melds[t]
    rules = state.rules
    caps = game.wild_caps
    acts: list[Action] = []
    size = len(hand)
    distinct = list(dict.fromkeys(hand))
    # one pass over the hand: natural cards by rank (hand order), wild cards, threes
    by_rank: dict[str, list[Card]] = {}
    for c in hand:
        group = by_rank.get(c.meld_rank)   # the rank, "*" for a wild card
        if group is None:
            by_rank[c.meld_rank] = [c]
        else:
            group.append(c)
    wilds = by_rank.pop("*", [])
    threes = len(by_rank.pop("3", ()))
    get_info = _MELD_INFO.get
    infos = [get_info(m) or _meld_info(m) for m in melds]
    if not melds:
        minimum = rules.opening_minimum(state.score_of(p))
        for combo in _opening_combos(hand, rules, minimum, keep=2):
            acts.append(Action(MELD, melds=combo))
    else:
        if size >= 3:
            group_ranks = {info[1] for info in infos if info[0] == GROUP}
            wilds_low = sorted(wilds, key=_points) if len(wilds) > 1 else wilds
            n_wild = len(wilds_low)
            # new groups: a rank's natural cards all together, with 0 or more wild cards (twos first)
            for rank in sorted(by_rank, key=SEQUENCE_ORDER.__getitem__):
                group = by_rank[rank]
                n = len(group)
                if n < 2 or rank in group_ranks:
                    continue
                top = min(caps[n], n_wild, size - n - 2)
                if top >= 0:
                    base = tuple(group)
                    for w in range(max(0, 3 - n), top + 1):
                        acts.append(_meld_action(base + tuple(wilds_low[:w]) if w else base))
            if rules.sequences:
                for run in _runs([c for c in hand if c.is_natural], rules):
                    if size - len(run) >= 2:
                        acts.append(Action(MELD, melds=(run,)))
            # lay off one card on a meld
            distinct_wilds = list(dict.fromkeys(wilds))
            order = None
            for i, m in enumerate(melds):
                kind, key, m_wild, _best, lo, hi = infos[i]
                if kind == GROUP:
                    n_nat = len(m) - m_wild
                    if key in _NATURAL_RANKS and n_nat >= 2 and len(m) >= 2:
                        # meld_facts(m + (c,)) for a group of naturals of one rank and wild cards, in numbers
                        naturals = by_rank.get(key) if m_wild <= caps[n_nat + 1] else None
                        wild_cards = distinct_wilds if m_wild + 1 <= caps[n_nat] else None
                        if naturals:
                            naturals = list(dict.fromkeys(naturals))
                            if wild_cards:   # both, in hand order
                                if order is None:
                                    order = {c: k for k, c in enumerate(distinct)}
                                naturals = sorted(naturals + wild_cards, key=order.__getitem__)
                            for c in naturals:
                                acts.append(_lay_off_action(c, i))
                        elif wild_cards:
                            for c in wild_cards:
                                acts.append(_lay_off_action(c, i))
                        continue
                    candidates = [c for c in distinct if c.rank == key or c.is_wild]
                else:
                    if len(m) >= 7:
                        continue
                    candidates = [c for c in distinct if c.suit == key and c.is_natural
                                  and SEQUENCE_ORDER[c.rank] in (lo - 1, hi + 1)]
                for c in candidates:
                    if _fits(state.game, m, c):
                        acts.append(_lay_off_action(c, i))
        if rules.wild_swap:
            for i, m in enumerate(melds):
                kind, rank, m_wild, wild, _lo, _hi = infos[i]
                if kind != GROUP or len(m) >= CANASTA_SIZE or not m_wild:
                    continue
                for c in distinct:
                    if c.rank == rank and c.is_natural:
                        acts.append(_swap_action(c, i, wild))
    if size >= 2:
        acts += map(_discard_action, distinct)
    go = _go_out_action(state, by_rank, len(wilds), infos, threes)
    if go is not None:
        acts.append(go)
    return acts


#: The ranks a group of natural cards may have (a three is never natural).
_NATURAL_RANKS = frozenset(SEQUENCE_ORDER)


def _fits(game: Game, m: tuple, c: Card) -> bool:
    """May ``c`` be laid off on ``m`` (``meld_facts``, remembered per game: a meld on the table is judged with
    the same card again and again)?"""
    key = (m, c)
    ok = game.fits.get(key)
    if ok is None:
        if len(game.fits) > _TABLE_LIMIT:
            game.fits.clear()
        ok = game.fits[key] = meld_facts(m + (c,), game.rules, copies_checked=True) is not None
    return ok


def _go_out_action(state: State, by_rank=None, wilds=None, infos=None, black=None) -> Action | None:
    """The engine's way out for the player to move (``find_go_out``), if there is one. ``by_rank`` (natural
    cards in hand by rank), ``wilds`` (how many wild cards), ``infos`` (``_meld_info`` of the team's melds) and
    ``black`` (how many threes): read by the caller already, or read here."""
    p = state.current_player
    t = state.team_of(p)
    hand = state.hands[p]
    melds = state.melds[t]
    rules = state.rules
    if len(hand) > max_hand_cards(rules):
        return None
    if by_rank is None:
        by_rank, wilds = {}, 0
        for c in hand:
            if c.is_natural:
                by_rank.setdefault(c.rank, []).append(c)
            elif c.is_wild:
                wilds += 1
    if infos is None:
        infos = [_meld_info(m) for m in melds]
    # Quick necessary conditions (the search is the engine's, and slow): at most one card (the discard)
    # without a place to go, and enough cards of a kind for the canastas needed.
    groups = {}
    canastas = 0
    for m, info in zip(melds, infos):
        if len(m) >= CANASTA_SIZE:
            canastas += 1
        if info[0] == GROUP:
            groups[info[1]] = (m, info[2])
    sequences = rules.sequences
    lone = 0
    placed = None
    for rank, cs in by_rank.items():
        if len(cs) != 1 or rank in groups:
            continue
        if sequences:
            if placed is None:
                placed = {(c.suit, SEQUENCE_ORDER[c.rank]) for cs2 in by_rank.values() for c in cs2}
                for m, info in zip(melds, infos):
                    if info[0] == SEQUENCE:
                        placed.update((info[1], SEQUENCE_ORDER[x.rank]) for x in m)
            c = cs[0]
            o, su = SEQUENCE_ORDER[c.rank], c.suit
            if any((su, o + a) in placed and (su, o + b) in placed for a, b in ((-2, -1), (-1, 1), (1, 2))):
                continue   # it may be part of a run of three, from hand or with a sequence on the table
        lone += 1
        if lone > 1:
            return None
    if black is None:
        black = sum(1 for c in hand if c.rank == "3")
    if black:   # black threes: one meld of three or four (two and a wild card where allowed), the rest lone
        sizes = (2, 3, 4) if rules.black_threes_with_wild else (3, 4)
        lone += min([black - v for v in sizes if v <= black] + [black])
        if lone > 1:
            return None
    if not sequences and not rules.wild_swap:
        # each natural pair that is no meld of the team needs a wild card to become a meld (the search's
        # "wild-short"), and so do two black threes; discarding a card of a pair leaves its partner alone
        pairs = 0
        for rank, cs in by_rank.items():
            if len(cs) == 2 and rank not in groups:
                pairs += 1
        if black == 2:
            pairs += 1
        if pairs > wilds:
            return None
    short = rules.canastas_to_go_out - canastas
    if short > 0:
        potential = 0
        swappable = sum(m_wild for m, m_wild in groups.values() if len(m) < CANASTA_SIZE) \
            if rules.wild_swap else 0
        spare_wild = min(wilds + swappable, rules.max_wild)
        for rank in set(by_rank) | set(groups):
            if rank in SEQUENCE_ORDER:
                group = groups.get(rank)
                glen = len(group[0]) if group else 0
                if glen < CANASTA_SIZE and len(by_rank.get(rank, ())) + glen + spare_wild >= CANASTA_SIZE:
                    potential += 1
        if sequences:
            by_suit: dict[str, int] = {}
            for cs in by_rank.values():   # distinct ranks of each suit
                for suit in {c.suit for c in cs}:
                    by_suit[suit] = by_suit.get(suit, 0) + 1
            for m, info in zip(melds, infos):
                if info[0] == SEQUENCE and len(m) < CANASTA_SIZE:
                    by_suit[info[1]] = by_suit.get(info[1], 0) + len(m)
            potential += sum(1 for v in by_suit.values() if v >= CANASTA_SIZE)
        if potential < short:
            return None
    minimum = 0
    if not melds and not rules.concealed_needs_no_minimum:
        minimum = rules.opening_minimum(state.score_of(p))
    try:
        if minimum or rules.sequences:
            plan, _problems = find_go_out(tuple(hand), tuple(melds), rules, need=rules.canastas_to_go_out,
                                          minimum=minimum)
        else:   # the same plan, by the engine's fast path (it skips the discards that surely fail)
            plan = check_go_out(_situation(state, p)).plan
    except SituationError:
        return None
    if plan is None:
        return None
    return Action(GO_OUT, melds=tuple(plan.new_melds), lay_offs=tuple(plan.lay_offs),
                  swaps=tuple(plan.swaps), discard=plan.discard)


# --- applying an action --------------------------------------------------------------------------------------

def apply(state: State, action: Action) -> State:
    """Apply ``action`` for the player to move. Changes ``state`` in place and returns it (``clone()``
    first to keep the old one). Raises :class:`IllegalMove`, carrying the engine's reasons, when the action
    is not legal now; the state is then unchanged."""
    if not isinstance(action, Action):
        raise CanastaError(f"apply: an Action is needed, not {clip(repr(action), 60)}")
    if state._legal is None:
        legal_actions(state)
    if not _listed(state, action) and not _allowed_beyond_list(state, action):
        raise IllegalMove(why_illegal(state, action), action)
    _do(state, action)
    state.history.append(action)
    state._legal = state._legal_set = None
    return state


def _listed(state: State, action: Action) -> bool:
    """Is ``action`` one of ``legal_actions`` (the same object, as random play and bots pass it back, or an
    equal one)?"""
    for a in state._legal:
        if a is action:
            return True
    if state._legal_set is None:
        state._legal_set = frozenset(state._legal)
    return action in state._legal_set


def _allowed_beyond_list(state: State, a: Action) -> bool:
    """A ``meld`` or ``lay_off`` that ``legal_actions`` does not list (it offers each rank's cards together)
    but the engine's checks allow: three of four kings, a meld with another choice of wild cards. The player
    must keep two cards; a team that has not opened must reach its minimum (``check_opening``)."""
    if state.phase != MELD_PHASE or a.kind not in (MELD, LAY_OFF) or a.swaps or a.lay_offs or a.discard:
        return False
    p = state.current_player
    t = state.team_of(p)
    melds = state.melds[t]
    rest = list(state.hands[p])
    used = [c for m in a.melds for c in m] if a.kind == MELD else list(a.cards)
    if not used or a.wild is not None:
        return False
    for c in used:
        if c not in rest:
            return False
        rest.remove(c)
    if len(rest) < 2:
        return False
    rules = state.rules
    if a.kind == LAY_OFF:
        if a.melds or a.target is None or not 0 <= a.target < len(melds):
            return False
        return bool(check_add_to_meld(melds[a.target], a.cards, rules))
    if a.cards or a.target is not None or not all(len(m) for m in a.melds):
        return False
    if not melds:
        return bool(check_opening(Situation(melds=a.melds, score=state.score_of(p), rules=rules)))
    table = check_team_melds(tuple(melds) + tuple(a.melds), rules)
    return bool(table)


def _take_from_hand(hand: list, cards) -> None:
    for c in cards:
        hand.remove(c)


def _next_turn(state: State) -> None:
    n = state.game.num_players
    state.current_player = (state.current_player + 1) % n
    state.phase = DRAW_PHASE
    state.took_pile = False
    state.turn_opened = bool(state.melds[state.team_of(state.current_player)])


def _do(state: State, a: Action) -> None:
    p = state.current_player
    t = state.team_of(p)
    hand = state.hands[p]
    melds = state.melds[t]
    k = a.kind
    if k == DRAW:
        need = state.rules.draw_count
        stock = state.stock
        while need and stock:
            c = stock.pop()
            if c.is_red_three:      # laid down at once and replaced
                state.red_threes[state.game.team_of(p)].append(c)
            else:
                hand.append(c)
                need -= 1
        state.phase = MELD_PHASE
        state.turn_opened = bool(melds)
    elif k == TAKE_PILE:
        pile = state.pile
        top = pile[-1]
        _take_from_hand(hand, a.cards)
        if a.melds:
            for m in a.melds[1:]:
                _take_from_hand(hand, m)
                if len(m) >= CANASTA_SIZE:
                    state.concealed_canastas[t] += 1
            melds.extend(a.melds)
        elif a.target is None:
            melds.append((top,) + tuple(a.cards))
        else:
            melds[a.target] = melds[a.target] + (top,) + tuple(a.cards)
        for c in pile[:-1]:
            (state.red_threes[state.game.team_of(p)] if c.is_red_three else hand).append(c)
        state.pile = []
        state.took_pile = True
        state.melded[p] = True
        state.phase = MELD_PHASE
        if state.rules.lone_hand and state.lone is None:
            _form_partnership(state, p)
    elif k == MELD:
        for m in a.melds:
            _take_from_hand(hand, m)
            if len(m) >= CANASTA_SIZE:
                state.concealed_canastas[t] += 1
        melds.extend(a.melds)
        state.melded[p] = True
    elif k == LAY_OFF:
        _take_from_hand(hand, a.cards)
        melds[a.target] = melds[a.target] + tuple(a.cards)
        state.melded[p] = True
    elif k == SWAP:
        natural = a.cards[0]
        hand.remove(natural)
        m = list(melds[a.target])
        m[m.index(a.wild)] = natural
        melds[a.target] = tuple(m)
        hand.append(a.wild)
    elif k == DISCARD:
        hand.remove(a.cards[0])
        state.pile.append(a.cards[0])
        _next_turn(state)
    elif k == GO_OUT:
        for i, natural, wild in a.swaps:
            hand.remove(natural)
            m = list(melds[i])
            m[m.index(wild)] = natural
            melds[i] = tuple(m)
            hand.append(wild)
        for i, cards in a.lay_offs:
            _take_from_hand(hand, cards)
            melds[i] = melds[i] + tuple(cards)
        for m in a.melds:
            _take_from_hand(hand, m)
            melds.append(tuple(m))
            if len(m) >= CANASTA_SIZE:
                state.concealed_canastas[t] += 1
        if a.discard is not None:
            hand.remove(a.discard)
            state.pile.append(a.discard)
        concealed = not state.turn_opened and not (state.took_pile and state.rules.sequences)
        state.went_out = (p, concealed)
        state.phase = HAND_OVER
        if state.rules.lone_hand and state.lone is None:
            _form_partnership(state, p)
    elif k == END:
        state.phase = HAND_OVER


def _form_partnership(state: State, lone: int) -> None:
    """``lone_hand``: ``lone`` plays alone; the other players become one side for the rest of the hand, on the
    lowest of their seats, and their melds one table. Two groups of one rank become one meld: the second
    partner's cards join the first's; wild cards beyond what the joined meld may hold (``wild_capacity``) go
    back to the hand of the partner who melded them (the sources are silent; see the package notes)."""
    rules = state.rules
    others = [q for q in range(state.game.num_players) if q != lone]
    into = state.side[others[0]]
    table = state.melds[into]
    for q in others[1:]:
        t = state.side[q]
        if t == into:
            continue
        for m in state.melds[t]:
            kind, key = meld_key(m)
            i = next((i for i, x in enumerate(table) if kind == GROUP and meld_key(x) == (GROUP, key)), None)
            if i is None:
                table.append(m)
                continue
            joined = table[i] + tuple(c for c in m if not c.is_wild)
            room = rules.wild_capacity(sum(1 for c in joined if not c.is_wild)) - sum(1 for c in joined if c.is_wild)
            for c in m:
                if c.is_wild:
                    if room > 0:
                        joined += (c,)
                        room -= 1
                    else:
                        state.hands[q].append(c)
            table[i] = joined
        state.melds[t] = []
        state.concealed_canastas[into] += state.concealed_canastas[t]
        state.concealed_canastas[t] = 0
    state.side = tuple(lone if q == lone else into for q in range(state.game.num_players))
    state.lone = lone


# --- why an action is refused ----------------------------------------------------------------------------------

def why_illegal(state: State, action: Action) -> Verdict:
    """The engine's reasons why ``action`` is not legal now (a falsy :class:`Verdict`)."""
    reasons: list[Reason] = []
    if state.phase == HAND_OVER:
        return Verdict(False, (Reason("hand-over", "The hand is over: no more moves."),))
    p = state.current_player
    t = state.team_of(p)
    hand = list(state.hands[p])
    melds = state.melds[t]
    k = action.kind
    draw_kinds = (DRAW, TAKE_PILE, END)
    if state.phase == DRAW_PHASE and k not in draw_kinds:
        return Verdict(False, (Reason("draw-first", "First draw from the stock or take the pile."),))
    if state.phase == MELD_PHASE and k in draw_kinds:
        return Verdict(False, (Reason("already-drawn", "You have drawn already this turn: meld, lay off, then "
                                                       "discard or go out."),))
    used = list(action.cards) + [c for m in action.melds for c in m if k != TAKE_PILE] + \
        [c for _i, cs in action.lay_offs for c in cs] + [n for _i, n, _w in action.swaps] + \
        ([action.discard] if action.discard is not None else [])
    rest = list(hand)
    missing = []
    for c in used:
        if c in rest:
            rest.remove(c)
        else:
            missing.append(c)
    if missing and k not in (GO_OUT,):
        reasons.append(Reason("not-in-hand", f"You do not hold {format_cards(missing)}."))
    if k == DRAW and not state.stock:
        reasons.append(Reason("stock-empty", "The stock is used up: take the pile, or the hand ends."))
    elif k == END and state.stock:
        reasons.append(Reason("stock-left", f"The stock still holds {len(state.stock)} cards: draw or take the pile."))
    elif k == TAKE_PILE:
        reasons += _engine_refusal(state, check_take_pile, lambda v: "You may take the pile, but not this way: "
                                   + " or ".join(a.describe(melds) for a in _take_actions(state)))
    elif k == MELD:
        for m in action.melds:
            v = check_meld(m, state.rules)
            if not v.ok:
                reasons.extend(v.reasons)
        if not melds and not reasons:
            v = check_opening(Situation(melds=action.melds, score=state.score_of(p), rules=state.rules))
            if not v.ok:
                reasons.extend(v.reasons)
        if not reasons and len(rest) < 2:
            reasons.append(Reason("keep-a-card", "After melding you must keep a card to discard and one to hold, "
                                                 "unless you go out."))
    elif k == LAY_OFF:
        if action.target is None or not 0 <= action.target < len(melds):
            reasons.append(Reason("no-such-meld", f"Your team has no meld {action.target}."))
        else:
            v = check_add_to_meld(melds[action.target], action.cards, state.rules)
            if not v.ok:
                reasons.extend(v.reasons)
            elif len(rest) < 2:
                reasons.append(Reason("keep-a-card", "After laying off you must keep a card to discard and one to "
                                                     "hold, unless you go out."))
    elif k == SWAP:
        v = check_swap(tuple(hand), tuple(melds), state.rules, card=action.cards[:1] or None)
        if not v.ok:
            reasons.extend(v.reasons)
    elif k == DISCARD:
        if len(hand) < 2 and not missing:
            reasons.append(Reason("last-card", "Discarding your last card would be going out, which needs "
                                               f"{state.rules.canastas_to_go_out} canasta(s) on your team's side."))
    elif k == GO_OUT:
        reasons += _engine_refusal(state, check_go_out, lambda v: "You may go out, but not this way: "
                                   + " ".join(r.text for r in v.reasons[:1]))
    if not reasons:
        reasons.append(Reason("not-legal", "That is not one of the moves open now."))
    return Verdict(False, tuple(reasons))


def _engine_refusal(state: State, check, not_this_way) -> list[Reason]:
    """Why a take or a way out is refused: the engine's reasons (``check``, ``check_take_pile`` or
    ``check_go_out``, on the situation of the player to move); when the engine allows it, the action was not
    the way the game offers, and ``not_this_way(verdict)`` says so."""
    try:
        v = check(_situation(state, state.current_player))
    except SituationError as e:
        return [Reason("too-large", str(e))]
    if not v.ok:
        return list(v.reasons)
    return [Reason("not-this-way", not_this_way(v))]


# --- what a player sees ----------------------------------------------------------------------------------------

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
