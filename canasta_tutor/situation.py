"""Checks that a situation could occur with the rule set's decks."""

from __future__ import annotations

from collections import Counter
from contextvars import ContextVar
from itertools import chain

from .cards import Card, format_card
from .errors import SituationError
from .rules import RuleSet

_NUMBERS = {1: "one", 2: "two", 3: "three", 4: "four"}
_JOKER = Card("JK")


def copies_problem(rules: RuleSet, groups: dict) -> tuple[str, str] | None:
    """``(fields, message)`` for the first card seen more often than the decks hold, else ``None``.

    ``groups`` maps a field name to a group of cards or a list of groups.
    """
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
    packs = f"{_NUMBERS.get(decks, decks)} pack{'s' if decks != 1 else ''}"
    holds = f"only {allowed} jokers" if card is _JOKER else f"only {allowed} of each card"
    return (", ".join(where),
            f"{n} copies of {format_card(card)}, but {rules.name} is played with {packs} and "
            f"{jokers} jokers, which hold {holds}")


def ensure_possible(rules: RuleSet, **groups) -> None:
    """Raise :class:`SituationError` if the cards could not all come from the decks."""
    problem = copies_problem(rules, groups)
    if problem:
        fields, message = problem
        raise SituationError(f"{fields}: {message}")


def ensure_no_red_three_in_hand(hand) -> None:
    """A red three is laid down at once and replaced from the stock: it is never held."""
    red = [c for c in hand if c.is_red_three]
    if red:
        names = " ".join(str(c) for c in red)
        raise SituationError(f"hand: {names} in the hand, but a red three is laid down at once and replaced "
                             f"from the stock")


# --- bounded searches -------------------------------------------------------
#: Units of search work (sequence arrangements, placements tried, meld sums) that one public check may spend.
#: Real hands need a few hundred at most; a hand far beyond any real game's gets a clear error instead of
#: running for minutes.
SEARCH_LIMIT = 20_000
_budget: ContextVar[list | None] = ContextVar("canasta_search_budget", default=None)


class search_budget:
    """Give the searches inside this block (one public check) :data:`SEARCH_LIMIT` units of work in all.

    ``what`` names the field and size for the error message. Nested blocks share the outer budget.
    """

    __slots__ = ("what", "token")

    def __init__(self, what: str):
        self.what = what
        self.token = None

    def __enter__(self):
        if _budget.get() is None:
            self.token = _budget.set([SEARCH_LIMIT, self.what])

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
        raise SituationError(f"{budget[1]}: too many ways to arrange these cards to search them all "
                             f"(more than {SEARCH_LIMIT} steps); no game deals such a hand")


def max_hand_cards(rules: RuleSet) -> int:
    """The largest hand a check accepts: three times the hand dealt (``hand_size``).

    A player holds the dealt hand, draws ``draw_count`` a turn and melds as he goes; only a big pile
    makes a hand grow fast. Three dealt hands (33 cards in classic, 45 in samba) is more than a real
    game gives, and keeps every search within bounds.
    """
    return 3 * rules.hand_size


def ensure_hand_size(rules: RuleSet, hand, field: str = "hand") -> None:
    """Raise :class:`SituationError` for a hand bigger than :func:`max_hand_cards`."""
    cap = max_hand_cards(rules)
    if len(hand) > cap:
        raise SituationError(f"{field}: {len(hand)} cards, but a hand under {rules.name} holds at most {cap} "
                             f"(three times the {rules.hand_size} cards dealt); no game gives such a hand")
