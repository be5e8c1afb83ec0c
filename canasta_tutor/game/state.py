"""The state of a game: :class:`Game` (the fixed rules and the seating) and :class:`State` (one hand as it is
played). Legal actions are in :mod:`.legal`, playing one in :mod:`.moves`, what a player sees in :mod:`.view`;
the rules decided by the game model are in ``docs/game-model.md``."""

from __future__ import annotations

import random

from ..engine.cards import ALL_CARDS, JOKER
from ..engine.counts import group_wilds
from ..engine.errors import CanastaError, clip
from ..engine.i18n import gettext
from ..engine.melds import CANASTA_SIZE, check_team_melds, table_canastas
from ..engine.numbers import is_whole_number
from ..engine.rules import RuleSet, get_rules
from ..engine.scoring import score_hand
from ..engine.situation import Situation
from ..engine.verdict import Reason
from .actions import DRAW_PHASE, HAND_OVER, TAKE_PILE, Action
from .legal import legal_actions
from .moves import apply

_DEFAULT_TEAMS = {2: 2, 3: 3, 4: 2, 6: 2}


def _covered(card, rules: RuleSet) -> bool:
    """Must the first upcard ``card`` be covered by another (002: a wild card or a red three; 003 also a black
    three, ``black_three_upcard_covered``)?"""
    return card.is_wild or card.is_red_three or (rules.black_three_upcard_covered and card.is_black_three)


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
            raise CanastaError(gettext("teams: {teams} teams cannot seat {players} players evenly").format(
                teams=clip(repr(nt), 20), players=n))
        if self.rules.lone_hand and nt != n:
            text = gettext("teams: {rules} plays each player alone until the pile is first taken (lone_hand), so "
                           "{players} players keep {players} score columns, not {teams}")
            raise CanastaError(text.format(rules=self.rules.name, players=n, teams=nt))
        self.num_teams = nt
        self.teams = tuple(tuple(p for p in range(n) if p % nt == t) for t in range(nt))
        deck = []
        for card in ALL_CARDS:
            deck += [card] * (self.rules.jokers if card.rank == JOKER else self.rules.decks)
        self.deck = tuple(deck)
        #: ``rules.wild_capacity(n)`` for ``n`` natural cards, and the wild-card counts a group of ``n`` natural cards
        #: may take (the counting core's rule, ``counts.group_wilds``), read from tables in the enumeration's loops
        self.wild_caps = tuple(self.rules.wild_capacity(n) for n in range(4 * len(deck) + 2))
        self.group_wilds = tuple(group_wilds(n, self.wild_caps) for n in range(len(self.wild_caps)))
        #: lay-offs judged so far: ``(meld, card) -> bool`` (``meld_facts``), for the enumeration
        self.fits: dict = {}
        #: the new groups of one rank's cards offered (``legal._new_group_actions``), remembered
        self.new_groups: dict = {}
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
            raise CanastaError(gettext("hand_number: a hand is numbered from 1, not {value}").format(
                value=clip(repr(hand_number), 20)))
        scores = (0,) * self.num_teams if scores is None else tuple(scores)
        if len(scores) != self.num_teams:
            raise CanastaError(gettext("scores: {count} scores for {teams} teams").format(count=len(scores),
                                                                                    teams=self.num_teams))
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

    The turn (set when the player draws or takes the pile, :meth:`begin_turn`): ``melded`` (per player, has he
    put a card on the table in this hand), ``melded_before`` (had the player to move, before this turn),
    ``turn_melds_from`` (the index of his side's first meld made this turn), ``red_three_last`` (he drew a red
    three as the last card of the stock: the hand ends with this turn, 000).

    Sides and columns: ``melds`` and ``concealed_canastas`` are indexed by the side (``team_of(p)``), ``scores``
    and ``red_threes`` by the game's team (``game.team_of(p)``, the score column). They are the same except under
    ``rules.lone_hand`` (``classic-3p``), where ``side`` (per player, his side's index) starts as each player
    alone and, once ``lone`` (the first player to take the pile, or to go out before anyone took it) is known,
    the others share one side, the lowest of their seat numbers, and one table.
    """

    __slots__ = ("game", "rules", "seed", "hand_number", "dealer", "scores", "hands", "stock", "pile", "melds",
                 "red_threes", "current_player", "phase", "history", "went_out", "took_pile", "turn_opened",
                 "concealed_canastas", "melded", "side", "lone", "melded_before", "turn_melds_from", "red_three_last",
                 "_legal", "_legal_set", "_results")

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
        # The first upcard: a wild card or a red three (and where the rules say so, a black three) is covered by
        # the next card, until a plain one lies on top.
        self.pile = [self.stock.pop()]
        while _covered(self.pile[-1], rules) and self.stock:
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
        self.melded_before, self.turn_melds_from, self.red_three_last = False, 0, False
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
        new.melded_before, new.turn_melds_from, new.red_three_last = \
            self.melded_before, self.turn_melds_from, self.red_three_last
        new._legal, new._legal_set, new._results = self._legal, self._legal_set, self._results
        return new

    def next_hand(self) -> State:
        """The next hand of the same game (the deal passes to the left), once this one is over."""
        if not self.is_terminal():
            raise CanastaError(gettext("the hand is not over yet: play it to its end first"))
        if self.is_game_over():
            text = gettext("the game is over: a team reached {target}")
            raise CanastaError(text.format(target=self.rules.target_score))
        return State._deal(self.game, self.seed, hand_number=self.hand_number + 1,
                           dealer=(self.dealer + 1) % self.game.num_players, scores=self.totals())

    # --- the turn: what going out concealed and the last card of the stock ask about -------------------------
    def begin_turn(self) -> None:
        """The player to move draws or takes the pile: remember whether he had melded before (going out concealed
        is the player's, not the team's: rule-decisions) and where his side's melds of this turn will begin."""
        p = self.current_player
        self.melded_before = self.melded[p]
        self.turn_melds_from = len(self.melds[self.team_of(p)])
        self.red_three_last = False

    def note_concealed_canasta(self, meld) -> None:
        """A new meld of the player to move, melded in one go from his hand (003: or from his hand and the pile's
        top card only, when taking the pile): a canasta is a concealed one."""
        if len(meld) >= CANASTA_SIZE:
            self.concealed_canastas[self.team_of(self.current_player)] += 1

    def allows_take_in_one_go(self, a: Action) -> bool:
        """A ``take_pile`` that ``legal_actions`` does not list but the rules allow: a team that has opened takes
        the pile as listed (the top card with a pair, as a new meld), showing more cards from hand (more of the
        top card's rank, wild cards) that go into that new meld at once, as 003's concealed canasta "wat in die
        hand van die speler gemonteer is ... of slegs die boonste kaart van die weggooipaal vereis". The new
        meld must be legal on the team's table, and two cards must be left in hand (one to discard, one to
        keep) with the pile's other cards."""
        p = self.current_player
        melds = self.melds[self.team_of(p)]
        if self.phase != DRAW_PHASE or a.kind != TAKE_PILE or not melds or a.target is not None or a.melds \
                or a.lay_offs or a.swaps or a.wild is not None or a.discard is not None:
            return False
        rest = list(self.hands[p])
        for c in a.cards:
            if c not in rest:
                return False
            rest.remove(c)
        shown = list(a.cards)
        listed = [b for b in (self._legal or ()) if b.kind == TAKE_PILE and b.target is None and not b.melds]
        if not any(all(shown.count(c) >= b.cards.count(c) for c in b.cards) for b in listed):
            return False
        pile_rest = sum(1 for c in self.pile[:-1] if not c.is_red_three)
        if len(rest) + pile_rest < 2:
            return False
        return bool(check_team_melds(tuple(melds) + ((self.pile[-1],) + tuple(a.cards),), self.rules))

    def goes_out_concealed(self) -> bool:
        """Does the player to move, whose cards are all on the table now, go out concealed? He has melded nothing
        before this turn (his partner's melds do not matter: 000 "als je in één beurt al je kaarten op tafel kunt
        leggen", 004 "zonder eerdere meldingen van de speler"); under ``concealed_without_pile`` he did not take the
        pile (004); under ``concealed_needs_canasta`` the melds he made this turn include a canasta (002 "hele
        hand in één beurt, met canasta")."""
        if self.melded_before or (self.rules.concealed_without_pile and self.took_pile):
            return False
        if not self.rules.concealed_needs_canasta:
            return True
        made = self.melds[self.team_of(self.current_player)][self.turn_melds_from:]
        return table_canastas(made) > 0

    def red_three_last_reason(self) -> Reason | None:
        """Why the player to move may not discard or go out (``None`` when he may): he drew a red three as the last
        card of the stock (000 "Als de laatste kaart van de pot een rode drie is eindigt het spel")."""
        if not self.red_three_last:
            return None
        return Reason("red-three-last", "The last card of the stock was a red three: the hand ends with this turn. "
                                        "You may still meld and lay off, but not discard, and there is no bonus "
                                        "for going out.")

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
        canastas = table_canastas(self.melds[t])
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
            raise CanastaError(gettext("the hand is not over yet: there is no result to score"))
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
                canastas = table_canastas(self.melds[t])
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
