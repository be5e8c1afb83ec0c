"""The ``club`` bot: plays as a club player would.

On top of the beginner's habits it
- takes the pile whenever it may (its big piles are what wins games);
- freezes the pile (discards a wild card) when the opponents are close to going out and the pile is worth having;
- keeps wild cards for canastas: it lays a wild card off only when that completes a canasta;
- goes out when its side is ahead in the hand, or when waiting is dangerous (the opponents are close to going
  out, or the stock is running low); otherwise it keeps building canastas;
- holds a new meld back while its side cannot go out yet and melding would leave it fewer than five cards;
- blocks with black threes, and never discards a rank the opponents could lay off to take the pile.
"""

from __future__ import annotations

from . import register
from ..cards import count_of
from ._common import (CANASTA_SIZE, DISCARD, DRAW, GO_OUT, LAY_OFF, MELD, TAKE_PILE, action_cards, best_discard, format_cards,
                      opponents_ranks, pile_is_frozen, pile_words, team_canastas)
from .beginner import BeginnerBot

#: The club player holds a new meld back when melding would leave fewer cards than this in its hand.
HOLD_BACK_BELOW = 5


def _table_points(melds) -> int:
    points = 0
    for m in melds:
        points += sum(c.points for c in m)
        if len(m) >= CANASTA_SIZE:
            points += 500 if not any(c.is_wild for c in m) else 300
    return points


class ClubBot(BeginnerBot):
    """A stronger bot; see the module's notes."""

    name = "club"
    careful = True

    def opponents_close(self, obs) -> bool:
        """An opponent holds few cards and their side may go out (it has the canastas it needs)."""
        need = obs.rules.canastas_to_go_out if isinstance(obs.rules.canastas_to_go_out, int) else 1
        if team_canastas(obs.opponents_melds) < need:
            return False
        me = obs.player
        sizes = obs.hand_sizes
        n = len(sizes)
        partners = {p for p in range(n) if p % len(obs.table) == obs.team} if obs.table else {me}
        return any(sizes[p] <= 4 for p in range(n) if p not in partners)

    @staticmethod
    def pile_gain(obs) -> int:
        """The cards of the pile the bot can use: all but the black threes (a black three in hand only waits to
        be discarded again)."""
        return sum(1 for c in obs.pile if not c.is_black_three)

    @staticmethod
    def pile_worth_at_least(obs) -> int:
        """How many usable cards make the pile worth more than the stock: ``2 * draw_count - 1``. With one card
        from the stock, the pile's top card (sure to be melded) beats one unknown card; with two, a pile must
        bring three usable cards, or the bot takes back little more than its own discard."""
        return 2 * obs.rules.draw_count - 1

    def wants_pile(self, obs) -> bool:
        return self.pile_gain(obs) >= self.pile_worth_at_least(obs)

    def draw_phase(self, obs, acts, rng):
        takes = acts.get(TAKE_PILE, [])
        if takes and DRAW in acts and not self.wants_pile(obs):
            gain, n = self.pile_gain(obs), obs.rules.draw_count
            return acts[DRAW][0], (f"I draw {count_of(n, 'card')} from the stock instead of taking the pile "
                                   f"({pile_words(obs.pile)}): it holds only {count_of(gain, 'card')} I could "
                                   f"use{'' if gain == len(obs.pile) else ' besides black threes'}.")
        return super().draw_phase(obs, acts, rng)

    def wants_to_go_out(self, obs, acts) -> bool:
        ours = _table_points(obs.melds)
        theirs = _table_points(obs.opponents_melds)
        if ours + 100 >= theirs:
            return True
        return self.opponents_close(obs) or obs.stock_left < 20 or len(obs.hand) <= 3

    def pick_lay_off(self, obs, lay_offs):
        natural = [a for a in lay_offs if not any(c.is_wild for c in a.cards)]
        if natural:
            # the meld nearest a canasta first
            return max(natural, key=lambda a: len(obs.melds[a.target]) if a.target is not None
                       and a.target < len(obs.melds) else 0)
        for a in lay_offs:   # a wild card only where it completes a canasta
            if a.target is not None and a.target < len(obs.melds) and len(obs.melds[a.target]) == CANASTA_SIZE - 1:
                return a
        return None

    def pick_meld(self, obs, melds):
        if not melds:
            return None
        if obs.melds:   # opened: meld natural cards only, keep the wild cards for canastas
            natural = [a for a in melds if not any(c.is_wild for m in a.melds for c in m)]
            if not natural:
                return None
            melds = natural
        return super().pick_meld(obs, melds)

    def meld_phase(self, obs, acts, rng):
        discards = acts.get(DISCARD, [])
        if discards and self.should_freeze(obs):
            wilds = [a for a in discards if a.cards[0].is_wild]
            blacks = [a for a in discards if a.cards[0].is_black_three]
            if blacks and not acts.get("go_out"):
                pass   # a black three on top blocks as well, and costs nothing
            elif wilds and not acts.get("go_out"):
                choice = min(wilds, key=lambda a: a.cards[0].points)
                return choice, (f"I freeze the pile with {choice.cards[0]}: the other side is close to going "
                                f"out and the pile holds {pile_words(obs.pile)}.")
        held = self.hold_back(obs, acts)
        if held is not None:
            return held
        return super().meld_phase(obs, acts, rng)

    def hold_back(self, obs, acts):
        """Keep a new natural meld in hand while the side cannot go out yet and melding would leave too few cards:
        a short hand must soon discard what the other side can take, and a pair in hand can still take the pile.
        Returns (discard, reason) or None."""
        melds, discards = acts.get(MELD, []), acts.get(DISCARD, [])
        if not obs.melds or not melds or not discards or acts.get(GO_OUT) or acts.get(LAY_OFF):
            return None
        need = obs.rules.canastas_to_go_out if isinstance(obs.rules.canastas_to_go_out, int) else 1
        if team_canastas(obs.melds) >= need or self.opponents_close(obs) or obs.stock_left < 20:
            return None
        meld = self.pick_meld(obs, melds)
        if meld is None or len(obs.hand) - len(action_cards(meld)) >= HOLD_BACK_BELOW:
            return None
        held = [a for a in discards if a.cards[0] not in action_cards(meld)]
        if not held:
            return None
        d = best_discard(held, obs, careful=True)
        if d.cards[0].is_wild:
            return None
        kept = format_cards(action_cards(meld))
        return d, (f"I keep {kept} in hand and discard {d.cards[0]}: melding now would leave me too few cards "
                   "to take the pile or to discard safely, and we cannot go out yet.")

    def should_freeze(self, obs) -> bool:
        return (not pile_is_frozen(obs) and len(obs.pile) >= 5 and self.opponents_close(obs)
                and len(obs.hand) > 3)

    def discard_reason(self, obs, action) -> str:
        card = action.cards[0]
        if card.is_black_three:
            return f"I discard {card}: with a black three on top nobody may take the pile."
        if (card.rank not in opponents_ranks(obs)) and not pile_is_frozen(obs) and opponents_ranks(obs):
            return f"I discard {card}: the other side has no meld it fits, so they cannot take the pile with it."
        return f"I discard {card}: it is the card I can least use, and the safest."


register("club", ClubBot)
