"""What the rule-following bots share: facts read from an observation, and sentences about actions.

Everything here reads only the :class:`~canasta_tutor.game.Observation` of the bot's own seat (its hand, the
table, the pile, the hand sizes) and the legal actions: never another player's hand or the stock.
"""

from __future__ import annotations

from collections import Counter

from ..engine import i18n
from ..engine.cards import format_cards
from ..engine.i18n import gettext as _
from ..engine.i18n import ngettext, pgettext
from ..engine.melds import table_canastas
from ..engine.numbers import count_of, number_word
from ..engine.pile import frozen_for_everyone, ranks_taken_onto
from ..game import DISCARD, DRAW, END, GO_OUT, LAY_OFF, MELD, SWAP, TAKE_PILE


def by_kind(legal_actions) -> dict[str, list]:
    """The legal actions grouped by kind, each list in the order given."""
    groups: dict[str, list] = {}
    for a in legal_actions:
        groups.setdefault(a.kind, []).append(a)
    return groups


def wild_count(cards) -> int:
    return sum(1 for c in cards if c.is_wild)


def pile_words(pile) -> str:
    """'11 cards, two of them wild': the pile as a player would describe it."""
    wild, n = wild_count(pile), len(pile)
    if wild:
        text = ngettext("{count} card, {wild} of them wild", "{count} cards, {wild} of them wild", n)
    else:
        text = ngettext("{count} card", "{count} cards", n) if n else _("no card")
    return text.format(count=number_word(n), wild=number_word(wild))


def counted(n: int, noun: str) -> str:
    """``'two cards'``, ``'no black three'`` in the current language: English as :func:`numbers.count_of` writes
    it, another language from the catalog's counted nouns (:func:`i18n.count_of`; nought as the catalog's "no")."""
    if i18n.get_language() == "en":
        return count_of(n, noun)
    if n == 0:
        context, singular, plural = i18n.COUNT_MESSAGES[noun]
        return i18n.npgettext(context, singular, plural, 0).format(number=pgettext("zero", "no"))
    return i18n.count_of(n, noun)


def action_cards(action) -> list:
    """Every card from hand that an action puts on the table."""
    cards = list(action.cards)
    for m in action.melds:
        cards.extend(m)
    for _idx, cs in action.lay_offs:
        cards.extend(cs)
    return cards


def meld_score(action) -> tuple[int, int]:
    """How good a meld or lay-off looks: more natural cards first, fewer wild cards next."""
    cards = action_cards(action)
    wild = wild_count(cards)
    return (len(cards) - wild, -wild)


def pile_is_frozen(obs) -> bool:
    """Is the pile the bot sees frozen for everybody (the engine's rule, ``pile.frozen_for_everyone``)?"""
    return frozen_for_everyone(obs.pile, obs.rules)


def opponents_ranks(obs) -> set[str]:
    """The ranks of the opponents' group melds they may lay the top card off on to take the pile (a discard of
    such a rank may give them the pile): the engine's rule, ``pile.ranks_taken_onto``."""
    return ranks_taken_onto(obs.opponents_melds, obs.rules)


def team_canastas(melds) -> int:
    """The canastas among a team's melds on the table (the engine's count, ``melds.table_canastas``)."""
    return table_canastas(melds)


def discard_keep_value(card, hand_counts: Counter, obs, *, careful: bool) -> float:
    """How much the bot wants to keep ``card``: the discard is the card worth least.

    Wild cards are kept; a black three is the best discard (nobody can take the pile on it); a lone card is
    discarded before a pair. ``careful`` (the club player) also keeps cards the opponents could take the pile
    with and discards ranks already dead in the pile.
    """
    if card.is_wild:
        return 1000.0 + card.points
    if card.is_black_three:
        return -50.0
    value = 10.0 * hand_counts[card.rank] - card.points / 100.0
    if careful:
        if card.rank in opponents_ranks(obs) and not pile_is_frozen(obs):
            value += 60.0   # they could lay it off and take the pile
        in_pile = sum(1 for c in obs.pile if c.rank == card.rank)
        value -= 3.0 * in_pile   # a rank already thrown is less likely to be paired in their hands
    return value


def best_discard(discards, obs, *, careful: bool):
    counts = Counter(c.rank for c in obs.hand)
    return min(discards, key=lambda a: (discard_keep_value(a.cards[0], counts, obs, careful=careful),
                                       -a.cards[0].points, a.cards[0].code))


def describe(action, obs) -> str:
    """The action as a sentence in the first person, naming the team's melds."""
    text = action.describe(obs.melds if obs is not None else None)
    return text


__all__ = ["by_kind", "wild_count", "pile_words", "meld_score", "pile_is_frozen", "opponents_ranks",
           "team_canastas", "best_discard", "describe", "DRAW", "TAKE_PILE", "MELD", "LAY_OFF", "SWAP",
           "DISCARD", "GO_OUT", "END", "format_cards"]
