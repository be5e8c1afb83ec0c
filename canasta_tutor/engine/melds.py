"""Melds: is a group of cards a meld, what kind, and what does it count?

A meld (a *set*) is three or more cards of one rank with at least two natural
cards and no more wild cards than the rule set allows; under ``samba`` a
sequence of three to seven natural cards of one suit is a meld too. Black
threes are melded only by a player going out.

>>> from canasta_tutor.engine.rules import CLASSIC, HOYLE
>>> check_meld("5H 5S 2C 2D 2S", CLASSIC).ok, check_meld("5H 5S 2C 2D 2S", HOYLE).ok
(True, False)
>>> check_meld("KH KS KD KC KH KS 2C").canasta
'mixed'
>>> print(check_meld("5H 2C 2D").sentence)
No: a meld needs at least two natural cards; 5♥ 2♣ 2♦ has only one (5♥).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from operator import attrgetter

from . import speedups
from .cards import (
    COPIES_HIGH,
    EVERY_CARD,
    MELD_WEIGHT,
    NATURAL_POINTS,
    NATURAL_RANKS,
    RANK_PLURALS,
    SEQUENCE_ORDER,
    W_JOKER_SHIFT,
    W_RANK_SQUARES_SHIFT,
    W_RANK_SUM_SHIFT,
    W_SUITS,
    W_THREE,
    W_TWO_SHIFT,
    WEIGHT_MAX_CARDS,
    Card,
    card_points,
    format_cards,
    parse_cards,
    rank_plural,
    too_many_copies,
)
from .i18n import gettext as _
from .i18n import ngettext
from .numbers import join_words, number_word
from .rules import CLASSIC, RuleSet, get_rules
from .verdict import LazyReasons, Reason, Verdict, lower_first, verdict_type

GROUP, SEQUENCE, BLACK_THREES = "group", "sequence", "black-threes"
#: The kinds of canasta a meld may be (``canasta`` of a :data:`MeldVerdict`), in one place.
NONE, NATURAL, MIXED, SAMBA = "none", "natural", "mixed", "samba"
CANASTA_KINDS = (NONE, NATURAL, MIXED, SAMBA)
SEQUENCE_MAX = 7
CANASTA_SIZE = 7
def _n(k: int) -> str:
    return number_word(k, "none")


MeldVerdict = verdict_type(
    "MeldVerdict", "kind rank canasta points cards", ("", "", NONE, 0, ()),
    """A meld check: ``ok`` plus the meld's ``kind`` (group, sequence, black-threes),
    ``rank`` (or suit for a sequence), ``canasta`` (none, natural, mixed, samba), card ``points`` and ``cards``.""")


def as_cards(cards) -> tuple[Card, ...]:
    if cards.__class__ is tuple and EVERY_CARD.issuperset(cards):  # every item a card (one test, in C)
        return cards
    return parse_cards(cards)


def as_groups(groups, name: str = "melds") -> list:
    """A list of card groups (``melds``, ``hands``) as tuples of cards; ``None`` means none."""
    if groups is None:
        return []
    if not isinstance(groups, (list, tuple)) or (groups and isinstance(groups[0], Card)):
        from .errors import NotationError
        raise NotationError(_("{name} must be a list of card groups, like ['KH KS KD'], not {value}").format(
            name=name, value=repr(str(groups)[:60])))
    return [as_cards(g) for g in groups]


def wild_limit_problem(naturals: int, wild: int, rules: RuleSet, shown: str) -> Reason | None:
    """The reason a meld with these counts breaks the wild-card limit, or ``None``."""
    if wild <= rules.wild_capacity(naturals):
        return None
    if wild > rules.max_wild:
        return Reason("too-many-wild", ngettext("A meld may hold at most {limit} wild card; {shown} has {wild}.",
                                                "A meld may hold at most {limit} wild cards; {shown} has {wild}.",
                                                rules.max_wild).format(limit=_n(rules.max_wild), shown=shown,
                                                                       wild=_n(wild)))
    if rules.wild_limit == "not-more-than-natural":
        return Reason("more-wild-than-natural", _("A meld may never hold more wild cards than natural ones; "
                                                  "{shown} has {wild} wild and {natural} natural.").format(
                                                      shown=shown, wild=_n(wild), natural=_n(naturals)))
    return Reason("not-fewer-wild-than-natural", _("A meld must hold more natural cards than wild ones; "
                                                   "{shown} has {natural} natural and {wild} wild.").format(
                                                       shown=shown, natural=_n(naturals), wild=_n(wild)))


def check_meld(cards, rules: RuleSet | str = CLASSIC, *, going_out: bool = False) -> MeldVerdict:
    """Is ``cards`` a legal meld under ``rules``? Classifies it and counts its points.

    ``going_out``: the player goes out this turn (black threes may then be melded).
    The reasons are written when first read (:class:`~canasta_tutor.engine.verdict.LazyReasons`).
    Where the compiled module ``_speedups/meld.pyx`` is built, it answers a call with a tuple or list of cards,
    a ``RuleSet`` and a bool ``going_out`` in C (same verdict, same fields); any other call, a card seen more often
    than the decks hold, and threes or two-card groups under samba come here.
    """
    if rules.__class__ is not RuleSet:
        rules = get_rules(rules)
    if cards.__class__ is not tuple or not EVERY_CARD.issuperset(cards):
        cards = as_cards(cards)
    # Fast path: the answer and the fields from the cards' weights (_weigh), without a sentence; the reasons are
    # the explained path's, written when read. Threes, sequences, big groups and doubtful copies are explained.
    facts = _weigh(cards, rules, False)
    if facts is None or (rules.sequences and not facts[1]):
        return _explain_meld(cards, rules, going_out)
    rank, ok, canasta, points = facts
    return _MeldVerdict_new(MeldVerdict, (ok, LazyReasons(_meld_reasons, cards, rules, going_out),
                                          GROUP if rank else "", rank, canasta, points, cards))


def _weigh(cards: tuple[Card, ...], rules: RuleSet, copies_checked: bool):
    """A group's facts from the sum of its cards' weights (:data:`cards.MELD_WEIGHT`, one pass in C):
    ``(rank, ok, canasta, points)``, with rank ``''`` when the natural cards are of several ranks or none; or
    ``None`` when the explained path must decide (threes, more than 15 cards, perhaps more copies of a card than
    the decks hold, unless ``copies_checked``). The one decoder behind :func:`check_meld` and :func:`meld_facts`."""
    n = len(cards)
    if n > WEIGHT_MAX_CARDS:
        return None
    w = sum(map(_weight, cards))
    if w >= W_THREE:
        return None
    twos = w >> W_TWO_SHIFT & 15
    jokers = w >> W_JOKER_SHIFT
    n_nat = n - twos - jokers
    if n_nat:
        ranks = w >> W_RANK_SUM_SHIFT & 255
        if n_nat * (w >> W_RANK_SQUARES_SHIFT & 2047) == ranks * ranks:  # one natural rank
            if not copies_checked and (jokers > rules.jokers or n > rules.decks and (
                    ((w & W_SUITS) + rules._copies_offset) & COPIES_HIGH
                    or (twos > rules.decks and max(map(cards.count, _TWOS)) > rules.decks))):
                return None  # perhaps more copies of a card than the decks hold
            field = ranks // n_nat - 1
            points = n_nat * NATURAL_POINTS[field] + 20 * twos + 50 * jokers
            if n >= 3 and n_nat >= 2 and twos + jokers <= rules._wild_caps[n_nat]:
                return (NATURAL_RANKS[field], True, NONE if n < CANASTA_SIZE else MIXED if twos + jokers else NATURAL,
                        points)
            return (NATURAL_RANKS[field], False, NONE, points)
    # natural cards of several ranks, or none: no group (the explained path also finds impossible copies)
    return ("", False, NONE, sum(map(_points, cards)))


_MeldVerdict_new = tuple.__new__
_meld_rank = attrgetter("meld_rank")
_points = attrgetter("points")
_weight = MELD_WEIGHT.__getitem__
_TWOS = tuple(c for c in MELD_WEIGHT if c.rank == "2")
_JOKER_CARD = Card("JK")


def _meld_reasons(cards, rules, going_out):
    return _explain_meld(cards, rules, going_out).reasons


def _explain_meld(cards, rules: RuleSet, going_out: bool) -> MeldVerdict:
    """:func:`check_meld` with its sentences written at once: the explained path."""
    naturals, wilds, threes, points = _sort_cards(cards)
    shown = format_cards(cards)
    if (len(cards) > rules.decks and len(set(cards)) < len(cards)) or cards.count(_JOKER_CARD) > rules.jokers:
        impossible = _impossible_copies(cards, shown, rules)
        if impossible:
            return MeldVerdict(False, impossible, points=points, cards=cards)
    red, black = _threes(cards) if threes else ((), ())
    problems = [_red_three_problem(red)] if red else []
    if black or (rules.sequences and not red):
        low = _low_run_problem(cards, shown, rules)
        if low is not None:
            return MeldVerdict(False, (low,), kind=SEQUENCE, rank=cards[0].suit, points=points, cards=cards)
    if black:
        return _check_black_threes(cards, shown, black, naturals, wilds, problems, rules, going_out, points)
    rank = naturals[0].rank if naturals else ""
    for c in naturals:
        if c.rank != rank:
            if rules.sequences and not red and _one_suit(naturals):
                return _check_sequence(cards, shown, naturals, wilds, rules, points)
            problems.append(_mixed_ranks_problem(shown, naturals, rules))
            rank = ""
            break
    if naturals or wilds or not red:  # (only red threes: the red-three reason says it all)
        problems += _group_problems(cards, shown, naturals, wilds, bool(red), rules)
    if problems:
        return MeldVerdict(False, tuple(problems), kind=GROUP if rank else "", rank=rank, points=points, cards=cards)
    return _group_meld(cards, shown, rank, naturals, wilds, rules, points)


def _sort_cards(cards) -> tuple[list[Card], list[Card], bool, int]:
    """``(natural cards, wild cards, whether there are threes, card points)`` of a meld."""
    naturals = []
    wilds = []
    threes = False
    points = 0
    for c in cards:
        points += c.points
        if c.is_natural:
            naturals.append(c)
        elif c.is_wild:
            wilds.append(c)
        else:
            threes = True
    return naturals, wilds, threes, points


def _threes(cards) -> tuple[list[Card], list[Card]]:
    """The red threes and the black threes among ``cards``."""
    return [c for c in cards if c.is_red_three], [c for c in cards if c.is_black_three]


def _one_suit(cards) -> bool:
    suit = cards[0].suit
    return all(c.suit == suit for c in cards)


def _impossible_copies(cards, shown: str, rules: RuleSet) -> tuple[Reason, ...]:
    """A reason for each card the meld holds more often than the decks do (perhaps none: a card seen twice may be
    in two decks)."""
    return tuple(Reason("impossible-copies", ngettext("{shown} holds {n} copy of {card}, but {rules} is played with "
                                                      "only {allowed}.",
                                                      "{shown} holds {n} copies of {card}, but {rules} is played with "
                                                      "only {allowed}.", n).format(
                                                          shown=shown, n=n, card=card, rules=rules.name,
                                                          allowed=allowed))
                 for card, n, allowed in too_many_copies(cards, rules.decks, rules.jokers))


def _red_three_problem(red: list[Card]) -> Reason:
    return Reason("red-three", ngettext("Red threes are never melded: {cards} is a bonus card, laid down by itself.",
                                        "Red threes are never melded: {cards} are bonus cards, laid down by "
                                        "themselves.", len(red)).format(cards=format_cards(red)))


def _mixed_ranks_problem(shown: str, naturals: list[Card], rules: RuleSet) -> Reason:
    # in the order of the English plurals (as before), each written in the reader's language
    kinds = join_words(rank_plural(r) for r in sorted({c.rank for c in naturals}, key=RANK_PLURALS.__getitem__))
    if rules.sequences:
        text = _("A meld is cards of one rank; {shown} mixes {ranks}. A sequence must be of one suit.")
    else:
        text = _("A meld is cards of one rank; {shown} mixes {ranks}.")
    return Reason("mixed-ranks", text.format(shown=shown, ranks=kinds))


def _group_problems(cards, shown: str, naturals: list[Card], wilds: list[Card], red: bool,
                    rules: RuleSet) -> list[Reason]:
    """What a group lacks: three cards, two natural cards, or room for its wild cards within the limit (``red``:
    it holds a red three)."""
    problems = []
    if len(cards) < 3:
        if not shown:
            text = _("A meld needs at least three cards; this has only none.")
        elif len(cards) == 1:
            text = _("A meld needs at least three cards; {shown} is only one.")
        else:
            text = _("A meld needs at least three cards; {shown} has only {count}.")
        problems.append(Reason("too-few-cards", text.format(shown=shown, count=_n(len(cards)))))
    if len(naturals) >= 2:
        if len(wilds) > rules.wild_capacity(len(naturals)):
            problems.append(wild_limit_problem(len(naturals), len(wilds), rules, shown))
    elif naturals:
        problems.append(Reason("too-few-natural", _("A meld needs at least two natural cards; {shown} has only "
                                                    "{count} ({naturals}).").format(
                                                        shown=shown, count=_n(len(naturals)),
                                                        naturals=format_cards(naturals))))
    elif wilds and not red:
        problems.append(Reason("too-few-natural", _("A meld needs at least two natural cards; {shown} has none: "
                                                    "wild cards cannot make a meld by themselves.").format(
                                                        shown=shown)))
    else:
        problems.append(Reason("too-few-natural", _("A meld needs at least two natural cards; {shown} has "
                                                    "none.").format(shown=shown)))
    return problems


def _group_meld(cards, shown: str, rank: str, naturals: list[Card], wilds: list[Card], rules: RuleSet,
                points: int) -> MeldVerdict:
    """The verdict on a legal group: its natural and wild cards, and how far it is from a canasta."""
    canasta = NONE
    if len(cards) >= CANASTA_SIZE:
        canasta = MIXED if wilds else NATURAL
        if wilds:
            detail = _("With {count} cards it is a mixed canasta (bonus {bonus}).")
        else:
            detail = _("With {count} cards it is a natural canasta (bonus {bonus}).")
        detail = detail.format(count=_n(len(cards)), bonus=rules.mixed_canasta_bonus if wilds
                               else rules.natural_canasta_bonus)
    else:
        short = CANASTA_SIZE - len(cards)
        detail = ngettext("It needs {count} more for a canasta.", "It needs {count} more for a canasta.",
                          short).format(count=_n(short))
    if wilds:
        text = ngettext("{shown} is a meld of {ranks}: {natural} natural and {wild} wild. {detail}",
                        "{shown} is a meld of {ranks}: {natural} natural and {wild} wild. {detail}", len(wilds))
    else:
        text = _("{shown} is a meld of {ranks}: {natural} natural. {detail}")
    text = text.format(shown=shown, ranks=rank_plural(rank), natural=_n(len(naturals)), wild=_n(len(wilds)),
                       detail=detail)
    return MeldVerdict(True, (Reason("meld", text),), kind=GROUP, rank=rank, canasta=canasta, points=points,
                       cards=cards)


def _low_run_problem(cards, shown, rules) -> Reason | None:
    """Samba: cards of one suit in a row through the ace, two or three (A-2-3, 2-3-4...): not a sequence."""
    if not rules.sequences or len(cards) < 2 or any(c.rank == "JK" for c in cards):
        return None
    if len({c.suit for c in cards}) != 1 or len({c.rank for c in cards}) != len(cards):
        return None
    low = {"A": 1, "2": 2, "3": 3}
    order = sorted(low.get(c.rank, SEQUENCE_ORDER.get(c.rank, 0)) for c in cards)
    if not any(c.rank in ("2", "3") for c in cards) or order[-1] - order[0] != len(order) - 1:
        return None
    names = {1: "A", 2: "2", 3: "3", **{o: k for k, o in SEQUENCE_ORDER.items()}}
    run = "-".join(names[v] for v in order)
    if any(c.rank == "A" for c in cards):
        text = _("{run} is not a sequence: the ace is high only (J-Q-K-A), and twos and threes never stand in a "
                 "sequence; {shown} is no meld.")
    else:
        text = _("{run} is not a sequence: twos and threes never stand in a sequence; {shown} is no meld.")
    return Reason("low-sequence", text.format(run=run, shown=shown))


def _check_black_threes(cards, shown, black, naturals, wilds, problems, rules, going_out, points) -> MeldVerdict:
    others = [c for c in naturals]
    if others:
        problems.append(Reason("mixed-ranks", _("Black threes are melded only with each other; {shown} also holds "
                                                "{others}.").format(shown=shown, others=format_cards(others))))
    if not going_out:
        problems.append(Reason("black-three-not-going-out",
                               _("Black threes ({cards}) may be melded only by a player who goes out in that "
                                 "turn.").format(cards=format_cards(black))))
    if wilds and not rules.black_threes_with_wild:
        problems.append(Reason("black-three-wild", _("A meld of black threes may hold no wild card; {shown} holds "
                                                     "{wilds}.").format(shown=shown, wilds=format_cards(wilds))))
    elif wilds and not (len(black) == 2 and len(wilds) == 1):
        problems.append(Reason("black-three-shape", _("Black threes are melded as three or four black threes, or as "
                                                      "two black threes and one wild card; {shown} is "
                                                      "neither.").format(shown=shown)))
    if not wilds and len(black) not in (3, 4):
        problems.append(Reason("black-three-count", _("Black threes are melded three or four together; {shown} has "
                                                      "{count}.").format(shown=shown, count=_n(len(black)))))
    if problems:
        return MeldVerdict(False, tuple(problems), kind=BLACK_THREES, rank="3", points=points, cards=cards)
    return MeldVerdict(True, (Reason("black-threes", _("{shown} is a meld of black threes, allowed because the "
                                                       "player goes out this turn.").format(shown=shown)),),
                       kind=BLACK_THREES, rank="3", points=points, cards=cards)


def _check_sequence(cards, shown, naturals, wilds, rules, points) -> MeldVerdict:
    problems = []
    suit = naturals[0].suit
    if wilds:
        problems.append(Reason("wild-in-sequence", _("A sequence may hold no wild card; {shown} holds "
                                                     "{wilds}.").format(shown=shown, wilds=format_cards(wilds))))
    order = sorted(SEQUENCE_ORDER[c.rank] for c in naturals)
    if len(set(order)) != len(order):
        problems.append(Reason("sequence-repeat", _("A sequence holds each rank once; {shown} repeats a "
                                                    "rank.").format(shown=shown)))
    elif order[-1] - order[0] != len(order) - 1:
        in_row = format_cards(sorted(naturals, key=lambda c: SEQUENCE_ORDER[c.rank]))
        if "A" in {c.rank for c in naturals} and order[-2] - order[0] == len(order) - 2 and order[0] == 4:
            problems.append(Reason("ace-high-only", _("The ace is high only (J-Q-K-A): it cannot follow on below a "
                                                      "4, so {cards} is not a sequence.").format(cards=in_row)))
        else:
            problems.append(Reason("sequence-gap", _("A sequence is cards in a row of one suit; {cards} has a "
                                                     "gap.").format(cards=in_row)))
    if len(cards) < 3:
        problems.append(Reason("too-few-cards", _("A sequence needs at least three cards; {shown} has "
                                                  "{count}.").format(shown=shown, count=_n(len(cards)))))
    if len(cards) > SEQUENCE_MAX:
        problems.append(Reason("sequence-too-long", _("A sequence holds at most seven cards (seven make a closed "
                                                      "samba); {shown} has {count}.").format(
                                                          shown=shown, count=_n(len(cards)))))
    if problems:
        return MeldVerdict(False, tuple(problems), kind=SEQUENCE, rank=suit, points=points, cards=cards)
    if len(cards) == SEQUENCE_MAX:
        return MeldVerdict(True, (Reason("samba", _("{shown} is a sequence of seven: a samba (bonus {bonus}), closed "
                                                    "to further cards.").format(shown=shown,
                                                                                bonus=rules.samba_bonus)),),
                           kind=SEQUENCE, rank=suit, canasta=SAMBA, points=points, cards=cards)
    return MeldVerdict(True, (Reason("sequence", _("{shown} is a sequence of {count} in one suit; seven make a "
                                                   "samba.").format(shown=shown, count=_n(len(cards)))),),
                       kind=SEQUENCE, rank=suit, points=points, cards=cards)


def meld_facts(cards: tuple[Card, ...], rules: RuleSet, going_out: bool = False, *, copies_checked: bool = False):
    """``(kind, rank, canasta, points)`` of a legal meld, or ``None`` if it is not one.

    The same judgement as :func:`check_meld` without writing the sentences: for the
    engine's inner loops (scoring, going out). Unusual melds defer to :func:`check_meld`.
    ``copies_checked``: the caller has already made sure no card appears more often
    than the decks hold (so this check is not done twice).
    Compiled (``_speedups/meld.pyx``) for a tuple of cards, a ``RuleSet`` and a bool ``going_out``, where built.
    """
    facts = _weigh(cards, rules, copies_checked)
    if facts is not None:
        if facts[1]:
            return GROUP, facts[0], facts[2], facts[3]
        if not rules.sequences:
            return None
    v = check_meld(cards, rules, going_out=going_out)
    return (v.kind, v.rank, v.canasta, v.points) if v.ok else None


def is_meld(cards, rules: RuleSet | str = CLASSIC, *, going_out: bool = False) -> bool:
    return check_meld(cards, rules, going_out=going_out).ok


def canasta_kind(cards, rules: RuleSet | str = CLASSIC) -> str:
    """``'none'``, ``'natural'``, ``'mixed'`` or ``'samba'`` for a meld (``'none'`` if invalid)."""
    return check_meld(cards, rules, going_out=True).canasta


def is_canasta(cards, rules: RuleSet | str = CLASSIC) -> bool:
    return canasta_kind(cards, rules) != NONE


def meld_key(cards: Sequence[Card]) -> tuple[str, str]:
    """``('group', rank)`` or ``('sequence', suit)`` for a meld on the table."""
    ranks = set(map(_meld_rank, cards))  # the cards' ranks, "*" for a wild card (in C)
    ranks.discard("*")
    if len(ranks) == 1:
        return (GROUP, ranks.pop())
    if ranks:
        return (SEQUENCE, next(c.suit for c in cards if not c.is_wild))
    return (GROUP, "")


def check_add_to_meld(meld, cards, rules: RuleSet | str = CLASSIC, *, going_out: bool = False) -> MeldVerdict:
    """May ``cards`` be laid off on the meld ``meld`` (already on the table)?

    >>> check_add_to_meld("KH KS KD KC KH KS KD", "JK").canasta
    'mixed'
    """
    rules = get_rules(rules)
    meld = as_cards(meld)
    cards = as_cards(cards)
    before = check_meld(meld, rules, going_out=going_out)
    if not before.ok:
        return MeldVerdict(False, (Reason("not-a-meld", _("{target} is not a meld on the table.").format(
                                              target=format_cards(meld))),)
                           + before.reasons, points=before.points, cards=meld)
    if before.canasta == SAMBA:
        return MeldVerdict(False, (Reason("samba-closed", _("{target} is a samba: it is closed, nothing more may be "
                                                            "added.").format(target=format_cards(meld))),),
                           kind=SEQUENCE, rank=before.rank, canasta=SAMBA, points=before.points, cards=meld)
    after = check_meld(meld + cards, rules, going_out=going_out)
    if not after.ok:
        lead = Reason("cannot-add", _("{cards} cannot be laid off on {target}.").format(
            cards=format_cards(cards), target=format_cards(meld)))
        return MeldVerdict(False, (lead,) + after.reasons, kind=after.kind, rank=after.rank,
                           points=after.points, cards=meld + cards)
    extra = []
    if before.canasta == NATURAL and after.canasta == MIXED:
        extra.append(Reason("natural-becomes-mixed", _("Adding {cards} turns the natural canasta into a mixed one: "
                                                       "its bonus drops from {natural} to {mixed}.").format(
                                                           cards=format_cards(cards),
                                                           natural=rules.natural_canasta_bonus,
                                                           mixed=rules.mixed_canasta_bonus)))
    lead = Reason("added", _("{cards} can be laid off on {target}.").format(cards=format_cards(cards),
                                                                          target=format_cards(meld)))
    return MeldVerdict(True, (lead,) + after.reasons[:1] + tuple(extra), kind=after.kind, rank=after.rank,
                       canasta=after.canasta, points=after.points, cards=meld + cards)


SwapVerdict = verdict_type(
    "SwapVerdict", "card wild meld", (None, None, ()),
    """May a natural ``card`` from hand replace the ``wild`` card in the team's group ``meld``
    (the player keeps the wild card to use in the same turn)?""")


def check_swap(hand, melds=(), rules: RuleSet | str = CLASSIC, *, card=None) -> SwapVerdict:
    """May the player swap a natural card from ``hand`` (``card``, or any) for a wild card in one of the
    team's unfinished groups, keeping the wild card? Samba allows it (004 rule 4); never in a canasta or
    a sequence (a sequence holds no wild card).

    >>> check_swap("9C 5D", ["9H 9S JK"], "samba").sentence
    'Yes: you may put 9♣ in place of the joker in 9♥ 9♠ Joker and keep the joker to use this turn.'
    >>> check_swap("9C 5D", ["9H 9S JK"], "classic").codes
    ('no-swap-rule',)
    """
    rules = get_rules(rules)
    hand = as_cards(hand)
    melds = as_groups(melds)
    if card is not None:
        card = as_cards(card)
        if len(card) != 1:
            from .errors import SituationError

            raise SituationError(_("card: name one card to swap, not {count}").format(count=len(card)))
        card = card[0]
        if card not in hand:
            return SwapVerdict(False, (Reason("not-in-hand", _("You do not hold {card}.").format(card=card)),),
                               card=card)
    if not rules.wild_swap:
        return SwapVerdict(False, (Reason("no-swap-rule", _("Under these rules a wild card is never taken back from "
                                                            "a meld.")),), card=card)
    candidates = [card] if card is not None else sorted({c for c in hand if c.is_natural},
                                                        key=lambda c: (c.rank, c.suit))
    problems: list[Reason] = []
    for c in candidates:
        if not c.is_natural:
            problems.append(Reason("not-natural", _("{card} is not a natural card: only a natural card takes a wild "
                                                    "card's place.").format(card=c)))
            continue
        meld = next((m for m in melds if meld_key(m) == (GROUP, c.rank)), None)
        wilds = [w for w in meld if w.is_wild] if meld is not None else []
        if meld is None:
            if card is not None:
                problems.append(Reason("no-group", _("Your team has no group of {ranks} for {card} to go "
                                                     "into.").format(ranks=rank_plural(c.rank), card=c)))
        elif len(meld) >= CANASTA_SIZE:
            problems.append(Reason("swap-canasta", _("{target} is a canasta: its wild cards stay.").format(
                target=format_cards(meld))))
        elif not wilds:
            if card is not None:
                problems.append(Reason("no-wild-in-group", _("{target} holds no wild card to swap.").format(
                    target=format_cards(meld))))
        else:
            wild = max(wilds, key=lambda w: w.points)
            if wild.rank == "JK":
                text = _("You may put {card} in place of the joker in {target} and keep the joker to use this turn.")
            else:
                text = _("You may put {card} in place of {wild} in {target} and keep {wild} to use this turn.")
            return SwapVerdict(True, (Reason("swap", text.format(card=c, wild=wild, target=format_cards(meld))),),
                               card=c, wild=wild, meld=meld)
    if not problems:
        problems.append(Reason("nothing-to-swap", _("None of your team's unfinished groups holds a wild card that a "
                                                    "natural card from your hand could replace.")))
    return SwapVerdict(False, tuple(problems), card=card)


def check_team_melds(melds: Iterable, rules: RuleSet | str = CLASSIC, *, going_out: bool = False,
                     verdicts: Sequence[MeldVerdict] | None = None) -> Verdict:
    """Are these a team's legal melds on the table: each a meld, and no two groups of one rank?

    ``verdicts``: the melds' own checks, when the caller has made them already.
    """
    rules = get_rules(rules)
    problems = []
    seen: dict[str, tuple] = {}
    for i, meld in enumerate(as_groups(melds), 1):
        meld = as_cards(meld)
        v = verdicts[i - 1] if verdicts is not None else check_meld(meld, rules, going_out=going_out)
        if not v.ok:
            texts = [r.text for r in v.reasons]
            first = lower_first(texts[0], any_word=True)
            if meld:
                text = _("Meld {number} ({target}) is not a legal meld: {reasons}")
            else:
                text = _("Meld {number} (empty) is not a legal meld: {reasons}")
            problems.append(Reason("invalid-meld", text.format(number=i, target=format_cards(meld),
                                                               reasons=" ".join([first] + texts[1:]))))
            continue
        if v.kind in (GROUP, BLACK_THREES):
            if v.rank in seen:
                problems.append(Reason("same-rank-twice", _("A team holds at most one meld of a rank: {first} and "
                                                            "{second} are both {ranks}; the second belongs on the "
                                                            "first.").format(first=format_cards(seen[v.rank]),
                                                                             second=format_cards(meld),
                                                                             ranks=rank_plural(v.rank))))
            else:
                seen[v.rank] = meld
    if problems:
        return Verdict(False, tuple(problems))
    return Verdict(True, (Reason("melds-ok", _("Every meld on the table is legal.")),))


def count_canastas(melds: Iterable, rules: RuleSet | str = CLASSIC) -> int:
    """How many canastas (sambas included) these melds hold."""
    rules = get_rules(rules)
    facts = (meld_facts(as_cards(m), rules, True) for m in melds)
    return sum(1 for f in facts if f is not None and f[2] != NONE)


def table_canastas(melds: Iterable) -> int:
    """How many canastas a team's melds on the table hold: a meld the game accepted (a legal meld) is a canasta
    from :data:`CANASTA_SIZE` cards on (:func:`count_canastas` judges melds not yet checked)."""
    return sum(1 for m in melds if len(m) >= CANASTA_SIZE)


def meld_points(cards) -> int:
    """The card points of a meld (bonuses are counted by scoring, not here)."""
    return card_points(as_cards(cards))


# --- the compiled twins (_speedups/meld.pyx), where built: they answer the common call in C and hand every other to
# the pure-Python functions above (speedups.pure_twin gives those back)
check_meld = speedups.compiled("meld", check_meld, verdict_type=MeldVerdict, lazy_reasons=LazyReasons,
                               reasons=_meld_reasons, kinds=("", GROUP, BLACK_THREES, SEQUENCE),
                               canastas=(NONE, NATURAL, MIXED, SAMBA))
meld_facts = speedups.compiled("meld", meld_facts)
