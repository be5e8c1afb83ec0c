"""Cards: notation, point values and the kinds of card that Canasta tells apart.

A card is a rank and a suit; a joker has no suit. The notation is the one of
the puzzle contract: ranks ``A 2 3 4 5 6 7 8 9 10 J Q K`` (``T`` means 10),
suits ``S H D C`` or ``♠ ♥ ♦ ♣``, ``JK`` (or ``Joker``) for a joker; case does
not matter.

>>> Card("7h")
Card('7H')
>>> parse_cards("7H 7S, KD 10♣ JK")
(Card('7H'), Card('7S'), Card('KD'), Card('10C'), Card('JK'))
>>> format_cards(parse_cards("th 2c joker"))
'10♥ 2♣ Joker'
>>> Card("JK").points, Card("AS").points, Card("3C").points
(50, 20, 5)
>>> Card("2D").is_wild, Card("3H").is_red_three, Card("3S").is_black_three
(True, True, True)

Cards have no order of their own (so that comparing two cards for equality stays fast): sort them with
:func:`sort_key`, threes first and wild cards last.

>>> sorted(parse_cards("2C KH 7S 3D"), key=sort_key)
[Card('3D'), Card('7S'), Card('KH'), Card('2C')]
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterable

from .errors import NotationError
from .i18n import N_, NP_, gettext, pgettext

RANKS = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")
SUITS = ("S", "H", "D", "C")
JOKER = "JK"
SUIT_SYMBOLS = {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}
_SYMBOL_TO_SUIT = {v: k for k, v in SUIT_SYMBOLS.items()}
_SYMBOL_TO_SUIT.update({"♤": "S", "♡": "H", "♢": "D", "♧": "C"})
RED_SUITS = frozenset({"H", "D"})

#: Card point values (the same in every source once 003's swapped threes are
#: put right: a black three is 5 points, a red three scores only as a bonus).
RANK_POINTS = {
    "JK": 50, "A": 20, "2": 20,
    "K": 10, "Q": 10, "J": 10, "10": 10, "9": 10, "8": 10,
    "7": 5, "6": 5, "5": 5, "4": 5, "3": 5,
}
#: Order of ranks in a Samba sequence: the ace is high only, twos and threes never stand in one.
SEQUENCE_ORDER = {"4": 4, "5": 5, "6": 6, "7": 7, "8": 8, "9": 9, "10": 10,
                  "J": 11, "Q": 12, "K": 13, "A": 14}
#: Display order of ranks, low to high (jokers last).
RANK_ORDER = {r: i for i, r in enumerate(("3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A", "2", "JK"))}
RANK_NAMES = {"A": "ace", "2": "two", "3": "three", "4": "four", "5": "five", "6": "six",
              "7": "seven", "8": "eight", "9": "nine", "10": "ten", "J": "jack", "Q": "queen",
              "K": "king", "JK": "joker"}
RANK_PLURALS = {"A": "aces", "2": "twos", "3": "threes", "4": "4s", "5": "5s", "6": "6s",
                "7": "7s", "8": "8s", "9": "9s", "10": "10s", "J": "jacks", "Q": "queens",
                "K": "kings", "JK": "jokers"}
#: The same plurals as catalog entries (context "ranks"): :func:`rank_plural` reads them in the current language.
_RANK_PLURAL_MARKS = {
    "A": NP_("ranks", "aces"), "2": NP_("ranks", "twos"), "3": NP_("ranks", "threes"), "4": NP_("ranks", "4s"),
    "5": NP_("ranks", "5s"), "6": NP_("ranks", "6s"), "7": NP_("ranks", "7s"), "8": NP_("ranks", "8s"),
    "9": NP_("ranks", "9s"), "10": NP_("ranks", "10s"), "J": NP_("ranks", "jacks"), "Q": NP_("ranks", "queens"),
    "K": NP_("ranks", "kings"), "JK": NP_("ranks", "jokers"),
}

_TOKEN = re.compile(r"[\s,]+")


class Card:
    """One playing card; instances are interned, so ``Card('7H') is Card('7h')``.

    Attributes (all read-only): ``rank`` (``'A'``..``'K'`` or ``'JK'``),
    ``suit`` (``'S' 'H' 'D' 'C'`` or ``''`` for a joker), ``code`` (``'7H'``),
    ``points``, ``is_wild``, ``is_natural``, ``is_red_three``,
    ``is_black_three``, ``is_red``, ``index`` (the card's place in :data:`ALL_CARDS`, 0..52: a small int for
    the compiled modules' tables).
    """

    __slots__ = ("rank", "suit", "code", "points", "is_wild", "is_natural",
                 "is_red_three", "is_black_three", "is_red", "_text", "meld_rank", "index")
    _cache: dict[str, Card] = {}

    def __new__(cls, notation: str | Card) -> Card:
        if isinstance(notation, Card):
            return notation
        card = cls._cache.get(notation)
        if card is None:
            card = cls._cache.get(_normalise(notation))
            if card is None:
                raise NotationError(_explain_bad_token(notation), token=notation)
            cls._cache[notation] = card
        return card

    @classmethod
    def _make(cls, rank: str, suit: str) -> Card:
        card = object.__new__(cls)
        s = object.__setattr__
        s(card, "rank", rank)
        s(card, "suit", suit)
        s(card, "code", rank + suit)
        s(card, "is_wild", rank in ("2", "JK"))
        s(card, "is_red_three", rank == "3" and suit in RED_SUITS)
        s(card, "is_black_three", rank == "3" and suit not in RED_SUITS)
        # A natural card is one that can form a meld: not wild and not a three.
        s(card, "is_natural", rank not in ("2", "3", "JK"))
        s(card, "is_red", suit in RED_SUITS)
        s(card, "points", 0 if card.is_red_three else RANK_POINTS[rank])
        s(card, "_text", "Joker" if rank == JOKER else rank + SUIT_SYMBOLS[suit])
        # what the card is in a group: its rank if natural, "*" if wild, "3" for a three (one read, for the
        # engine's fast paths)
        s(card, "meld_rank", "*" if card.is_wild else rank)
        return card

    def __setattr__(self, name, value):
        raise AttributeError("cards are immutable")

    def __repr__(self) -> str:
        return f"Card({self.code!r})"

    def __str__(self) -> str:
        return self._text

    def __reduce__(self):
        return (Card, (self.code,))

    # Cards are interned (one object per card, also after copying or unpickling), so the
    # default identity equality and hash are right, and fast. A card defines no ordering
    # (sort with ``key=sort_key``): one comparison method written in Python would make every
    # ``==`` between cards (``in``, ``count``, ``remove`` on a hand) go through Python, about
    # ten times slower.

    @property
    def text(self) -> str:
        """The card with its suit symbol: ``'7♥'``, ``'10♠'``, ``'Joker'``."""
        return self._text


def _normalise(token: str) -> str:
    t = token.strip().upper()
    if t in ("JK", "JOKER", "JKR", "🃏"):
        return JOKER
    if len(t) < 2:
        return t
    rank, suit = t[:-1], t[-1]
    suit = _SYMBOL_TO_SUIT.get(token.strip()[-1], suit)
    if rank == "T":
        rank = "10"
    return rank + suit


#: How to write a card, said after a token that is not one (English; :func:`how_to_write_a_card` reads it in the
#: current language). The rank letters and suit letters stay the ones the cards are written with in every language.
HOW_TO_WRITE_A_CARD = N_("write a rank (2-10, J, Q, K, A) and a suit (H, D, C, S), like 7H, or JK for a joker")


def how_to_write_a_card() -> str:
    return gettext(HOW_TO_WRITE_A_CARD)


def _explain_bad_token(token: str, position: int | None = None) -> str:
    """``ZZ is not a card: write a rank ...``; ``position``: the token's place in a group (``card 2, ZZ, is not
    a card: ...``)."""
    t = token.strip()
    how = how_to_write_a_card()
    if position is not None:
        text = (gettext("card {position} is empty: {how}") if not t else
                gettext("card {position}, {token}, is not a card: {how}"))
        return text.format(position=position, token=t, how=how)
    text = gettext("an empty card: {how}") if not t else gettext("{token} is not a card: {how}")
    return text.format(token=t, how=how)


for _r in RANKS:
    for _s in SUITS:
        _c = Card._make(_r, _s)
        Card._cache[_c.code] = _c
Card._cache[JOKER] = Card._make(JOKER, "")
del _r, _s, _c

#: Every distinct card, jokers last.
ALL_CARDS: tuple[Card, ...] = tuple(Card._cache[r + s] for r in RANKS for s in SUITS) + (Card._cache[JOKER],)
for _i, _c in enumerate(ALL_CARDS):
    object.__setattr__(_c, "index", _i)
del _i, _c
#: The kinds of card as sets, for membership tests in C (``RED_THREES.isdisjoint(hand)``).
#: Every card (the interned ones): ``EVERY_CARD.issuperset(group)`` tells in C that a group holds only cards.
EVERY_CARD = frozenset(ALL_CARDS)
WILD_CARDS = frozenset(c for c in ALL_CARDS if c.is_wild)
RED_THREES = frozenset(c for c in ALL_CARDS if c.is_red_three)
BLACK_THREES = frozenset(c for c in ALL_CARDS if c.is_black_three)


# --- small ints for the engine's inner loops -----------------------------------------------------------------
# A group of cards is summed into one int, in C: ``sum(map(MELD_WEIGHT.__getitem__, cards))``. Its fields (low bits
# first): the natural cards per suit (4 x 5 bits, for the copies check), the sum of the natural cards' rank numbers
# (8 bits) and of their squares (11 bits: the naturals are all of one rank exactly when count x squares = sum x sum),
# the twos, the jokers and the threes (4 bits each). Valid for up to 15 cards (no field overflows); callers take
# the explained path for bigger groups.
#: The ranks that can form a meld; rank number = position + 1.
NATURAL_RANKS = ("A", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")
#: Card points of each natural rank, by position.
NATURAL_POINTS = tuple(RANK_POINTS[r] for r in NATURAL_RANKS)
WEIGHT_MAX_CARDS = 15
W_SUITS = (1 << 20) - 1
W_RANK_SUM_SHIFT, W_RANK_SQUARES_SHIFT, W_TWO_SHIFT, W_JOKER_SHIFT = 20, 28, 39, 43
W_THREE = 1 << 47
#: Card -> its weight (see above).
MELD_WEIGHT: dict[Card, int] = {}
for _c in ALL_CARDS:
    if _c.rank in NATURAL_RANKS:
        _k = NATURAL_RANKS.index(_c.rank) + 1
        MELD_WEIGHT[_c] = ((1 << (5 * SUITS.index(_c.suit))) + (_k << W_RANK_SUM_SHIFT)
                           + (_k * _k << W_RANK_SQUARES_SHIFT))
    elif _c.rank == "2":
        MELD_WEIGHT[_c] = 1 << W_TWO_SHIFT
    elif _c.rank == JOKER:
        MELD_WEIGHT[_c] = 1 << W_JOKER_SHIFT
    else:
        MELD_WEIGHT[_c] = W_THREE
del _c, _k
#: Bit 4 of each 5-bit suit field: set after adding :func:`copies_offset` when a field is over its limit.
COPIES_HIGH = sum(16 << (5 * i) for i in range(4))


def copies_offset(decks: int) -> int:
    """What to add to a weight's suit fields so that bit 4 of a field is set exactly when the natural cards of one
    rank hold more than ``decks`` copies of a card (one rank: one field per card)."""
    return sum(max(0, 15 - decks) << (5 * i) for i in range(4))


def sort_key(card: Card) -> tuple[int, str]:
    """Sort by rank (threes first, wild cards last), then suit."""
    return _SORT_KEYS[card]


_SORT_KEYS = {c: (RANK_ORDER[c.rank], c.suit) for c in ALL_CARDS}
#: :func:`sort_key` as a dict lookup (in C): ``sorted(cards, key=SORT_KEY)``.
SORT_KEY = _SORT_KEYS.__getitem__


def parse_card(token: str) -> Card:
    """Read one card; raise :class:`NotationError` naming the token if it is not one."""
    if not isinstance(token, str):
        if isinstance(token, Card):
            return token
        raise NotationError(gettext("{token} is not a card: {how}").format(token=repr(token),
                                                                            how=how_to_write_a_card()),
                            token=str(token))
    return Card(token)


def parse_cards(group) -> tuple[Card, ...]:
    """Read a group of cards: a string separated by spaces and/or commas, or a list.

    An error names the bad token and its 1-based position in the group.

    >>> parse_cards("")
    ()
    >>> parse_cards("7H XH")  # doctest: +NORMALIZE_WHITESPACE
    Traceback (most recent call last):
    ...
    canasta_tutor.engine.errors.NotationError: card 2, XH, is not a card: write a rank (2-10, J, Q, K, A) and a
    suit (H, D, C, S), like 7H, or JK for a joker
    """
    if group is None:
        return ()
    if isinstance(group, Card):
        return (group,)
    if isinstance(group, str):
        tokens = group.split() if "," not in group else [t for t in _TOKEN.split(group) if t]
    elif isinstance(group, (list, tuple)):
        tokens = list(group)
    else:
        raise NotationError(gettext("{group} is not a group of cards: write cards separated by spaces, like "
                                    "'7H 7S KD', or as a list").format(group=repr(group)))
    out = []
    cache = Card._cache
    for i, tok in enumerate(tokens, 1):
        card = cache.get(tok) if isinstance(tok, str) else None
        if card is None:
            try:
                card = parse_card(tok)
            except NotationError as e:
                text = _explain_bad_token(str(tok), i) if len(tokens) > 1 else str(e)
                raise NotationError(text, token=str(tok), position=i) from None
        out.append(card)
    return tuple(out)


def format_cards(cards: Iterable[Card], *, symbols: bool = True, sep: str = " ") -> str:
    """Write cards as text: with suit symbols (``7♥``) or as codes (``7H``)."""
    if symbols:
        return sep.join([c._text for c in cards])
    return sep.join([c.code for c in cards])


def format_card(card: Card, *, symbols: bool = True) -> str:
    return card._text if symbols else card.code


def card_points(cards: Iterable[Card]) -> int:
    """The cards' point values added up (a red three adds nothing: it is a bonus card)."""
    return sum(c.points for c in cards)


def deck_counts(decks: int, jokers: int) -> dict[Card, int]:
    """How many copies of each card a game with ``decks`` packs and ``jokers`` jokers holds."""
    counts = {c: decks for c in ALL_CARDS if c.rank != JOKER}
    counts[Card(JOKER)] = jokers
    return counts


def too_many_copies(cards: Iterable[Card], decks: int, jokers: int) -> list[tuple[Card, int, int]]:
    """The cards that appear more often than the decks hold: ``(card, seen, allowed)``."""
    seen = Counter(cards)
    out = []
    for card, n in seen.items():
        allowed = jokers if card.rank == JOKER else decks
        if n > allowed:
            out.append((card, n, allowed))
    return sorted(out, key=lambda t: sort_key(t[0]))


def rank_plural(rank: str) -> str:
    """``'kings'``, ``'7s'`` in the current language (``'heren'``, ``'7’ere'``)."""
    return pgettext(*_RANK_PLURAL_MARKS[rank])
