"""Checks that a situation could occur with the rule set's decks."""

from __future__ import annotations

from collections import Counter
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
