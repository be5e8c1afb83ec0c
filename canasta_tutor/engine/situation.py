"""The :class:`Situation` every check and puzzle takes, and checks that a situation could occur with the
rule set's decks."""

from __future__ import annotations

import inspect
from collections import (
    Counter,
    _count_elements,  # Counter's own counting loop (in C on CPython)
)
from contextvars import ContextVar
from dataclasses import dataclass, fields, replace
from functools import wraps
from itertools import chain

from .cards import EVERY_CARD, RED_THREES, Card, format_card
from .errors import SituationError
from .i18n import gettext as _
from .i18n import ngettext
from .melds import as_cards as _as_cards
from .melds import as_groups as _as_groups
from .numbers import number_word
from .rules import CLASSIC, MAX_SCORE, RuleSet, ensure_score
from .rules import get_rules as _get_rules

_JOKER = Card("JK")


def copies_problem(rules: RuleSet, groups: dict) -> tuple[str, str] | None:
    """``(fields, message)`` for the first card seen more often than the decks hold, else ``None``.

    ``groups`` maps a field name to a group of cards or a list of groups.
    """
    every: list[Card] = []
    for value in groups.values():  # the common case first: nothing seen too often
        if value and value[0].__class__ is not Card:
            for group in value:
                every.extend(group)
        else:
            every.extend(value)
    seen = Counter(every)
    if not seen or (max(seen.values()) <= rules.decks and seen.get(_JOKER, 0) <= rules.jokers):
        return None
    flat: dict[str, list[Card]] = {}
    for name, value in groups.items():
        if value and not isinstance(value[0], Card):
            flat[name] = list(chain.from_iterable(value))
        else:
            flat[name] = value
    counts = Counter(chain.from_iterable(flat.values()))
    decks, jokers = rules.decks, rules.jokers
    over = [c for c, n in counts.items() if n > (jokers if c is _JOKER else decks)]
    if not over:
        return None
    card = min(over, key=lambda c: c.code)
    n = counts[card]
    allowed = jokers if card is _JOKER else decks
    where = [name for name, cards in flat.items() if card in cards]
    packs = ngettext("{number} pack", "{number} packs", decks).format(number=number_word(decks))
    if card is _JOKER:
        text = ngettext("{count} copy of {card}, but {rules} is played with {packs} and {jokers} jokers, which hold "
                        "only {allowed} jokers",
                        "{count} copies of {card}, but {rules} is played with {packs} and {jokers} jokers, which hold "
                        "only {allowed} jokers", n)
    else:
        text = ngettext("{count} copy of {card}, but {rules} is played with {packs} and {jokers} jokers, which hold "
                        "only {allowed} of each card",
                        "{count} copies of {card}, but {rules} is played with {packs} and {jokers} jokers, which hold "
                        "only {allowed} of each card", n)
    return (", ".join(where), text.format(count=n, card=format_card(card), rules=rules.name, packs=packs,
                                          jokers=jokers, allowed=allowed))


def ensure_possible(rules: RuleSet, **groups) -> None:
    """Raise :class:`SituationError` if the cards could not all come from the decks."""
    problem = copies_problem(rules, groups)
    if problem:
        fields, message = problem
        raise SituationError(_("{fields}: {problem}").format(fields=fields, problem=message))


def ensure_no_red_three_in_hand(hand) -> None:
    """A red three is laid down at once and replaced from the stock: it is never held."""
    if RED_THREES.isdisjoint(hand):
        return
    red = [c for c in hand if c.is_red_three]
    if red:
        names = " ".join(str(c) for c in red)
        raise SituationError(_("hand: {cards} in the hand, but a red three is laid down at once and replaced from "
                               "the stock").format(cards=names))


# --- bounded searches -------------------------------------------------------
#: Units of search work (sequence arrangements, placements tried, meld sums) that one public check may spend.
#: Real hands need a few hundred at most; a hand far beyond any real game's gets a clear error instead of
#: running for minutes.
SEARCH_LIMIT = 20_000


class SearchTooLarge(SituationError):
    """A search that ran out of its budget: the counting core (:mod:`.counts`) answers instead."""

_budget: ContextVar[list | None] = ContextVar("canasta_search_budget", default=None)


class search_budget:
    """Give the searches inside this block (one public check) :data:`SEARCH_LIMIT` units of work in all.

    ``what`` names the field and size for the error message. Nested blocks share the outer budget.
    """

    __slots__ = ("what", "token", "limit")

    def __init__(self, what: str, limit: int = SEARCH_LIMIT):
        self.what = what
        self.token = None
        self.limit = limit

    def __enter__(self):
        if _budget.get() is None:
            self.token = _budget.set([self.limit, self.what, self.limit])

    def __exit__(self, *exc):
        if self.token is not None:
            _budget.reset(self.token)
            self.token = None
        return False


def spend(units: int = 1) -> None:
    """Count search work against the current budget; raise :class:`SituationError` when it runs out."""
    budget = _budget.get()
    if budget is None:
        return
    budget[0] -= units
    if budget[0] < 0:
        raise SearchTooLarge(_("{what}: too many ways to arrange these cards to search them all (more than "
                               "{steps} steps)").format(what=budget[1], steps=budget[2]))


def max_hand_cards(rules: RuleSet) -> int:
    """The largest hand a game can give: every card of the decks but the red threes (laid down at once, never
    held) and the one card each other player holds at least. Issue 19: a smaller cap (three dealt hands) refused
    takes and go-outs that bots reach (a 43-card hand in danish); every check answers any such hand by counting.
    """
    return 52 * rules.decks + rules.jokers - 2 * rules.decks - (rules.players - 1)


def ensure_hand_size(rules: RuleSet, hand, field: str = "hand") -> None:
    """Raise :class:`SituationError` for a hand bigger than :func:`max_hand_cards`."""
    cap = max_hand_cards(rules)
    if len(hand) > cap:
        raise SituationError(_("{field}: {count} cards, but a hand under {rules} holds at most {cap} (the decks' "
                               "cards but the red threes and one card for each other player); no game gives such a "
                               "hand").format(field=field, count=len(hand), rules=rules.name, cap=cap))


WENT_OUT_VALUES = {False: False, True: True, "no": False, "yes": True, "false": False, "true": True,
                   "concealed": "concealed"}


def parse_went_out(value) -> bool | str:
    """``False``, ``True`` or ``'concealed'`` from what a puzzle may write."""
    key = value.lower() if isinstance(value, str) else value
    if isinstance(key, (bool, str)) and key in WENT_OUT_VALUES:
        return WENT_OUT_VALUES[key]
    raise SituationError(_("went_out must be false, true or concealed, not {value}").format(value=repr(value)))


# --- the situation a player sees ---------------------------------------------------------------------------------
#: Fields holding one group of cards, and fields holding a list of groups, in the order copies are counted.
CARD_FIELDS = ("cards", "hand", "pile", "red_threes")
GROUPS_FIELDS = ("melds", "hands", "opponents_melds")
_COPIES_ORDER = ("hand", "pile", "melds", "red_threes", "hands", "cards", "opponents_melds")


@dataclass(frozen=True, kw_only=True)
class Situation:
    """What one player sees on the table, as one immutable, hashable value that every check and puzzle takes.

    Cards may be given in notation (``"7H 7S"``, ``["KH KS KD"]``) and rules by preset name; they are read
    once, here: the fields then hold tuples of :class:`~canasta_tutor.engine.cards.Card` and a ``RuleSet``. A
    situation whose cards could not all come from the rule set's decks raises :class:`SituationError`.

    ``hand``: the player's cards; ``melds``: his team's melds; ``score``: his team's score before the hand;
    ``pile``: the discard pile, bottom to top; ``stock_empty``: the stock is used up; ``cards``: the cards
    asked about (a meld, a count); ``going_out``: the player goes out this turn; for scoring a hand:
    ``red_threes``, ``hands`` (cards left in each player's hand), ``went_out`` (``False``, ``True`` or
    ``'concealed'``) and ``concealed_canastas``; ``opponents_melds``: the other team's melds.

    >>> s = Situation(hand="7H 7S KD", melds=["KH KS KD"], pile="5D 9S 7C")
    >>> s
    Situation(hand='7H 7S KD', melds=['KH KS KD'], pile='5D 9S 7C')
    >>> (s.pile[-1], s.replace(score=1500).score,
    ...  s == Situation.parse(hand="7H 7S KD", melds=["KH KS KD"], pile="5D 9S 7C"))
    (Card('7C'), 1500, True)
    """

    rules: RuleSet = CLASSIC
    hand: tuple[Card, ...] = ()
    melds: tuple[tuple[Card, ...], ...] = ()
    score: int = 0
    pile: tuple[Card, ...] = ()
    stock_empty: bool = False
    cards: tuple[Card, ...] = ()
    going_out: bool = False
    red_threes: tuple[Card, ...] = ()
    hands: tuple[tuple[Card, ...], ...] = ()
    went_out: bool | str = False
    concealed_canastas: int | None = None
    opponents_melds: tuple[tuple[Card, ...], ...] = ()

    def __post_init__(self):
        self._read(SITUATION_FIELDS)

    def _read(self, names) -> None:
        """Read the fields ``names`` once (the others hold their defaults): preset names to rule sets, the score and
        ``went_out`` checked, notation to cards; then the copies check. The first bad field is reported in one order,
        whatever the call's: the score, ``went_out``, the groups of cards, the lists of groups. Written for speed, as
        the adapter of the old call forms makes one situation per call: fields are set in the instance's __dict__
        (the frozen dataclass's own __setattr__ refuses), cards already read are only looked at."""
        d = self.__dict__
        rules = d["rules"]
        if rules.__class__ is not RuleSet:
            rules = d["rules"] = _get_rules(rules)
        score = d["score"]  # (a field not in names holds its default, which passes)
        if score.__class__ is not int or not -MAX_SCORE <= score <= MAX_SCORE:
            ensure_score(score)
        went_out = d["went_out"]
        if went_out is not False and went_out is not True:
            d["went_out"] = parse_went_out(went_out)
        card_fields, groups_fields = _READ_ORDER.get(names) or _read_order(names)
        every: list[Card] = []
        for name in card_fields:  # one group of cards each
            value = d[name]
            if value.__class__ is not tuple or not EVERY_CARD.issuperset(value):
                value = d[name] = _as_cards(value)
            every += value
        for name in groups_fields:  # a list of groups each
            value = d[name]
            if value.__class__ is not tuple and value.__class__ is not list:
                value = d[name] = tuple(_as_groups(value, name))
            else:
                for g in value:
                    if g.__class__ is not tuple or not EVERY_CARD.issuperset(g):
                        value = d[name] = tuple(_as_groups(value, name))
                        break
                else:
                    if value.__class__ is list:
                        value = d[name] = tuple(value)
            for g in value:
                every += g
        # the copies check, the common case in C (no card more often than the decks hold); the explained check
        # names the card and the fields
        if len(every) > rules.decks:
            seen: dict = {}
            _count_elements(seen, every)
            if seen.pop(_JOKER, 0) > rules.jokers or (seen and max(seen.values()) > rules.decks):
                self.ensure_possible()
        elif len(every) > rules.jokers and every.count(_JOKER) > rules.jokers:  # a house rule with few jokers
            self.ensure_possible()

    @classmethod
    def _make(cls, values: dict) -> Situation:
        """``Situation(**values)`` for known field names, without the generated ``__init__``'s frozen
        ``__setattr__`` per field: the adapter of the old call forms makes one situation per call."""
        self = object.__new__(cls)
        d = self.__dict__
        d.update(_DEFAULTS)
        d.update(values)
        self.__post_init__()
        return self

    @classmethod
    def _positional(cls, names: tuple[str, ...], args: tuple) -> Situation:
        """:meth:`_make` for field values given in the order ``names`` (the adapter's positional call form)."""
        self = object.__new__(cls)
        d = self.__dict__
        d.update(_DEFAULTS)
        for name, value in zip(names, args):
            d[name] = value
        if d["rules"] is None:
            d["rules"] = CLASSIC
        self._read(names)
        return self

    @classmethod
    def parse(cls, **fields) -> Situation:
        """A situation from notation: ``Situation.parse(hand="7H 7S", melds=["KH KS KD"], rules="samba")``."""
        return cls(**fields)

    def ensure_possible(self) -> None:
        """Raise :class:`SituationError` if a card is seen more often than the rule set's decks hold."""
        d = self.__dict__
        every: list[Card] = []
        for name in _COPIES_ORDER:  # the common case first: every card within the decks, checked in C
            value = d[name]
            if value:
                if value[0].__class__ is Card:
                    every += value
                else:
                    for group in value:
                        every += group
        rules = self.rules
        if len(every) <= rules.decks or len(set(every)) == len(every):
            if _JOKER not in every or every.count(_JOKER) <= rules.jokers:
                return
        else:
            seen = Counter(every)
            if seen.pop(_JOKER, 0) <= rules.jokers and (not seen or max(seen.values()) <= rules.decks):
                return
        ensure_possible(rules, **{name: d[name] for name in _COPIES_ORDER if d[name] != ()})

    def replace(self, **changes) -> Situation:
        """A copy with some fields changed (read and checked like a new situation)."""
        return replace(self, **changes)

    def get(self, name: str, default=None):
        """A field by name (``default`` if the situation has no such field), as a mapping would give it."""
        return getattr(self, name, default) if name in _FIELD_NAMES else default

    def given(self) -> dict:
        """The fields that differ from their defaults (rules left out), in declaration order."""
        return {f.name: getattr(self, f.name) for f in fields(self)
                if f.name != "rules" and getattr(self, f.name) != f.default}

    def __repr__(self) -> str:
        from .cards import format_cards

        parts = []
        for name, value in self.given().items():
            if name in CARD_FIELDS:
                value = format_cards(value, symbols=False)
            elif name in GROUPS_FIELDS:
                value = [format_cards(g, symbols=False) for g in value]
            parts.append(f"{name}={value!r}")
        if self.rules is not CLASSIC:
            from .rules import PRESETS

            shown = self.rules.name if PRESETS.get(self.rules.name) == self.rules else self.rules
            parts.append(f"rules={shown!r}")
        return f"Situation({', '.join(parts)})"


_FIELD_NAMES = frozenset(f.name for f in fields(Situation))
#: The fields a call form gives -> the fields :meth:`Situation._read` reads as cards (in :data:`CARD_FIELDS`' order)
#: and as lists of groups (in :data:`GROUPS_FIELDS`' order).
_READ_ORDER: dict[tuple, tuple[tuple[str, ...], tuple[str, ...]]] = {}


def _read_order(names) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """The entry of :data:`_READ_ORDER` for ``names``, made on first use."""
    order = _READ_ORDER[names] = (tuple(n for n in CARD_FIELDS if n in names),
                                  tuple(n for n in GROUPS_FIELDS if n in names))
    return order


_DEFAULTS = {f.name: f.default for f in fields(Situation)}
SITUATION_FIELDS = tuple(f.name for f in fields(Situation))


def takes_situation(*order: str, extras: tuple[str, ...] = ()):
    """Let a check written as ``impl(situation, **extras)`` also be called the old way, with its fields
    positionally in ``order`` or by keyword: ``check_take_pile(hand, melds, score, pile, rules)`` and
    ``check_take_pile(Situation(...))`` give the same verdict. ``extras`` are keyword arguments that are not
    part of the situation (e.g. the cards ``shown``); name them in ``order`` too where they come positionally."""
    positional = order + tuple(e for e in extras if e not in order)

    def decorate(impl):
        @wraps(impl)
        def check(*args, **kwargs):
            if args and isinstance(args[0], Situation):
                situation, rest = args[0], args[1:]
                if rest:
                    raise TypeError(f"{impl.__name__}() takes a Situation and keyword arguments only")
                extra = {k: kwargs.pop(k) for k in extras if k in kwargs}
                if kwargs:
                    situation = situation.replace(**kwargs)
                return impl(situation, **extra)
            if not kwargs and not extras and args and len(args) <= len(positional):
                return impl(Situation._positional(positional, args))
            if len(args) > len(positional):
                raise TypeError(f"{impl.__name__}() takes at most {len(positional)} positional arguments "
                                f"({', '.join(positional)}), {len(args)} given")
            values = dict(zip(positional, args))
            if kwargs:
                for key in kwargs:
                    if key in values:
                        raise TypeError(f"{impl.__name__}() got multiple values for argument {key!r}")
                values.update(kwargs)
            if extras:
                extra = {k: values.pop(k) for k in extras if k in values}
            unknown = [k for k in values if k not in _FIELD_NAMES] if kwargs else ()
            if unknown:
                raise TypeError(f"{impl.__name__}() got an unexpected keyword argument {unknown[0]!r}")
            if values.get("rules", CLASSIC) is None:
                values["rules"] = CLASSIC
            return impl(Situation._make(values), **extra) if extras else impl(Situation._make(values))

        check.__signature__ = _old_signature(impl, positional)
        return check

    return decorate


def _old_signature(impl, positional):
    """The signature shown by ``help()``: the situation first, then the old fields by name."""
    params = [inspect.Parameter("situation", inspect.Parameter.POSITIONAL_OR_KEYWORD, default=None)]
    params += [inspect.Parameter(n, inspect.Parameter.KEYWORD_ONLY, default=None) for n in positional]
    return inspect.signature(impl).replace(parameters=params)
