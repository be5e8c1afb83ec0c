"""One sentence on how a learner's move differs from a bot's: what the coach says after a turn.

>>> import random
>>> from canasta_tutor.engine.cards import parse_cards
>>> from canasta_tutor.game import Action
>>> from canasta_tutor.game import Observation
>>> obs = Observation(hand=parse_cards("9H 9S 4C"), pile=parse_cards("5H 2C KD 9D"), rules="classic")
>>> explain_difference(obs, Action("draw"), Action("take_pile", cards=parse_cards("9H 9S")))
'You could have taken the pile: four cards, one of them wild.'
"""

from __future__ import annotations

from ..engine.i18n import gettext as _
from ._common import (
    DISCARD,
    DRAW,
    GO_OUT,
    LAY_OFF,
    MELD,
    TAKE_PILE,
    action_cards,
    counted,
    opponents_ranks,
    pile_is_frozen,
    pile_words,
)
from .club import ClubBot


def _first_lower(text: str) -> str:
    return text[:1].lower() + text[1:]


def explain_difference(observation, learner_action, bot_action) -> str:
    """A plain sentence saying what the bot's move would have done better; ``""`` when the moves agree."""
    if learner_action == bot_action:
        return ""
    for explain in (_pile_difference, _going_out_difference, _discard_difference, _melding_difference):
        text = explain(observation, learner_action, bot_action)
        if text is not None:
            return text
    return _("I would have chosen: {move}").format(move=bot_action.describe(observation.melds))


def _pile_difference(obs, learner_action, bot_action) -> str | None:
    """The bot took the pile and the learner did not, or the learner took the pile where the bot drew."""
    mine, theirs = learner_action.kind, bot_action.kind
    if theirs == TAKE_PILE and mine != TAKE_PILE:
        return _("You could have taken the pile: {pile}.").format(pile=pile_words(obs.pile))
    if mine != TAKE_PILE or theirs != DRAW:
        return None
    n = obs.rules.draw_count
    if ClubBot.pile_gain(obs) >= n:   # enough of the others' cards: the black threes under them decided
        threes = ClubBot.black_threes_in_pile(obs)
        return _("I would have drawn {cards} from the stock: your side has the canastas it needs to go out, and "
                 "this pile ({pile}) gives back {black_threes} you would only discard again; a card from the stock "
                 "may let you go out.").format(cards=counted(n, "card"), pile=pile_words(obs.pile),
                                               black_threes=counted(threes, "black three"))
    return _("I would have drawn {cards} from the stock: this pile ({pile}) is mostly your own discards and black "
             "threes.").format(cards=counted(n, "card"), pile=pile_words(obs.pile))


def _going_out_difference(obs, learner_action, bot_action) -> str | None:
    """One of the two went out and the other did not."""
    mine, theirs = learner_action.kind, bot_action.kind
    if theirs == GO_OUT and mine != GO_OUT:
        steps = bot_action.go_out_steps(obs.melds)
        if not steps:
            return _("You could have gone out: your hand is empty.")
        return _("You could have gone out: {steps}.").format(steps=_first_lower(steps))
    if mine == GO_OUT and theirs != GO_OUT:
        return _("I would have waited before going out: the other side's melds are worth more than ours, and going "
                 "out now ends the hand while they are ahead.")
    return None


def _discard_difference(obs, learner_action, bot_action) -> str | None:
    """Both discarded, different cards: why the bot's card was the better one."""
    if learner_action.kind != DISCARD or bot_action.kind != DISCARD:
        return None
    card, better = learner_action.cards[0], bot_action.cards[0]
    if card.is_wild and better.is_wild:
        return _("I would have frozen the pile with {better} instead: it costs fewer points if the other side "
                 "takes the pile.").format(better=better)
    if card.is_wild:
        return _("Your discard of {card} gives away a wild card you could keep for a canasta; I would discard "
                 "{better}.").format(card=card, better=better)
    if card.rank in opponents_ranks(obs) and not pile_is_frozen(obs):
        return _("Your {card} fits a meld of the other side, so they may take the pile with it; {better} was "
                 "safer.").format(card=card, better=better)
    if better.is_black_three:
        return _("A black three ({better}) was the safer discard: nobody may take the pile on it.").format(
            better=better)
    if better.is_wild:
        return _("I would have frozen the pile with {better}: the other side is close to going out.").format(
            better=better)
    return _("I would have discarded {better}: you keep more pairs that way.").format(better=better)


def _melding_difference(obs, learner_action, bot_action) -> str | None:
    """One put cards down and the other discarded instead."""
    mine, theirs = learner_action.kind, bot_action.kind
    if theirs in (MELD, LAY_OFF) and mine == DISCARD:
        return _("You could have put more cards down first: {move}").format(
            move=_first_lower(bot_action.describe(obs.melds)))
    if mine not in (MELD, LAY_OFF) or theirs != DISCARD:
        return None
    if any(c.is_wild for c in action_cards(learner_action)):
        return _("I would have kept those cards in hand for now and discarded {card}: wild cards are worth more in "
                 "a canasta later.").format(card=bot_action.cards[0])
    return _("I would have kept those cards in hand for now and discarded {card}: cards kept in hand can still "
             "take the pile.").format(card=bot_action.cards[0])


__all__ = ["explain_difference"]
