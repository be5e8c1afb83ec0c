"""The ``beginner`` bot: follows the rules sensibly, one plain habit per decision.

- Takes the pile whenever it may (the top card fits), else draws; but where the first player to take the pile
  plays alone against the others (``rules.lone_hand``, classic-3p) it does not take the hand's first pile unless
  it holds at least ``LONE_PILE_MIN`` cards or the stock is used up: in 300 games of club against two beginners
  the player who took the first pile scored 300-620 points that hand on average, each of his two opponents
  1300-1540 (bucketed by the pile's cards from the other players, 1 to 6 or more).
- Goes out as soon as it may.
- Lays off natural cards on its team's melds, then makes new melds (natural cards first, wild cards only when a
  meld or the opening needs them).
- Discards a black three if it has one, else a lone card (never a wild card while it has another choice).
"""

from __future__ import annotations

from ..engine.i18n import gettext as _
from ..engine.i18n import ngettext
from ..engine.numbers import number_word
from ._common import (
    DISCARD,
    DRAW,
    END,
    GO_OUT,
    LAY_OFF,
    MELD,
    TAKE_PILE,
    best_discard,
    by_kind,
    meld_score,
    pile_words,
    wild_count,
)
from ._registry import register

#: Under ``rules.lone_hand`` the hand's first pile is taken only when it holds at least this many cards.
LONE_PILE_MIN = 15


def first_take_plays_alone(obs) -> bool:
    """Would taking the pile now make this player the lone hand (``rules.lone_hand`` and nobody has taken the
    pile yet: every side is one player)? An observation that names no sides says nothing of them: no."""
    return bool(obs.rules.lone_hand and obs.sides) and all(len(side) == 1 for side in obs.sides)


class BeginnerBot:
    """A bot that plays by the rules and simple habits; see the module's notes."""

    name = "beginner"
    careful = False
    lone_pile_min = LONE_PILE_MIN

    def choose(self, observation, legal_actions, rng):
        obs = observation
        acts = by_kind(legal_actions)
        if TAKE_PILE in acts or DRAW in acts or (END in acts and len(acts) == 1):
            return self.draw_phase(obs, acts, rng)
        return self.meld_phase(obs, acts, rng)

    # --- the start of a turn --------------------------------------------------------------------------------
    def draw_phase(self, obs, acts, rng):
        takes = acts.get(TAKE_PILE, [])
        if takes and DRAW in acts and first_take_plays_alone(obs) and len(obs.pile) < self.lone_pile_min:
            others = len(obs.hand_sizes) - 1
            return acts[DRAW][0], ngettext(
                "I draw from the stock instead of taking the pile ({pile}): whoever takes the pile first plays alone "
                "against the other {others} for the rest of the hand, and {count} card is not worth that.",
                "I draw from the stock instead of taking the pile ({pile}): whoever takes the pile first plays alone "
                "against the other {others} for the rest of the hand, and {count} cards are not worth that.",
                len(obs.pile)).format(pile=pile_words(obs.pile), others=number_word(others),
                                      count=number_word(len(obs.pile)))
        if takes and self.wants_pile(obs):
            take = max(takes, key=lambda a: (-len(a.cards), -wild_count(a.cards)))
            return take, _("I take the pile: {pile}.").format(pile=pile_words(obs.pile))
        if DRAW in acts:
            if takes:
                return acts[DRAW][0], _("I draw from the stock: the pile ({pile}) is not worth the cards I would "
                                        "have to show.").format(pile=pile_words(obs.pile))
            return acts[DRAW][0], _("I draw from the stock: I cannot take the pile.")
        if takes:
            take = takes[0]
            return take, _("I take the pile: {pile}, and the stock is used up.").format(pile=pile_words(obs.pile))
        return acts[END][0], _("The stock is used up and I cannot take the pile, so the hand ends.")

    def wants_pile(self, obs) -> bool:
        return True

    # --- melding and the end of a turn ----------------------------------------------------------------------
    def meld_phase(self, obs, acts, rng):
        if GO_OUT in acts and self.wants_to_go_out(obs, acts):
            out = max(acts[GO_OUT], key=lambda a: (a.discard is None, len(a.melds)))
            return out, _("I go out: every card of my hand finds a place.")
        lay = self.pick_lay_off(obs, acts.get(LAY_OFF, []))
        if lay is not None:
            return lay, _("I lay off {card}: it fits one of our melds.").format(card=lay.cards[0])
        meld = self.pick_meld(obs, acts.get(MELD, []))
        if meld is not None:
            if not obs.melds:
                return meld, _("I open: my melds together reach the minimum.")
            return meld, _("I put down a new meld: cards on the table count for us, cards in hand count against us.")
        if DISCARD in acts:
            d = best_discard(acts[DISCARD], obs, careful=self.careful)
            return d, self.discard_reason(obs, d)
        if GO_OUT in acts:
            return acts[GO_OUT][0], _("I go out: nothing else is left to do.")
        action = next(iter(acts.values()))[0]
        return action, _("This is the only move left.")

    def wants_to_go_out(self, obs, acts) -> bool:
        return True

    def pick_lay_off(self, obs, lay_offs):
        natural = [a for a in lay_offs if not any(c.is_wild for c in a.cards)]
        return natural[0] if natural else None

    def pick_meld(self, obs, melds):
        if not melds:
            return None
        return max(melds, key=meld_score)

    def discard_reason(self, obs, action) -> str:
        card = action.cards[0]
        if card.is_black_three:
            return _("I discard {card}: with a black three on top nobody may take the pile.").format(card=card)
        if card.is_wild:
            return _("I discard {card}: I have nothing else to discard.").format(card=card)
        return _("I discard {card}: it is the card I can least use.").format(card=card)


register("beginner", BeginnerBot)
