"""Checks that a situation could occur with the rule set's decks."""

from __future__ import annotations

from collections import Counter

from .cards import Card, format_card
from .errors import SituationError
from .rules import RuleSet

_NUMBERS = {1: "one", 2: "two", 3: "three", 4: "four"}


def copies_problem(rules: RuleSet, groups: dict) -> tuple[str, str] | None:
    """``(fields, message)`` for the first card seen more often than the decks hold, else ``None``.

    ``groups`` maps a field name to a group of cards or a list of groups.
    """
    seen: Counter = Counter()
    where: dict[Card, list[str]] = {}
    for name, value in groups.items():
        parts = value if value and not isinstance(value[0], Card) else [value]
        for group in parts:
            for card in group:
                seen[card] += 1
                if name not in where.setdefault(card, []):
                    where[card].append(name)
    for card, n in sorted(seen.items(), key=lambda kv: kv[0].code):
        allowed = rules.jokers if card.rank == "JK" else rules.decks
        if n > allowed:
            packs = f"{_NUMBERS.get(rules.decks, rules.decks)} pack{'s' if rules.decks != 1 else ''}"
            holds = f"only {allowed} jokers" if card.rank == "JK" else f"only {allowed} of each card"
            return (", ".join(where[card]),
                    f"{n} copies of {format_card(card)}, but {rules.name} is played with {packs} and "
                    f"{rules.jokers} jokers, which hold {holds}")
    return None


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
