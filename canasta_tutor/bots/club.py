"""The ``club`` bot: plays as a club player would.

On top of the beginner's habits it
- takes the pile when it brings at least as many cards discarded by the other players (black threes aside) as
  the stock gives (``draw_count``): with one card from the stock any pile it may take, with two (``classic-2p``,
  ``classic-3p``, samba) not a pile that is little more than its own last discard; once its side has the
  canastas it needs to go out (``canastas_to_go_out``), each black three in the pile counts against it too: a
  black three taken back is only discarded again, so a pile of one card on a black three leaves the hand as it
  was, while a card from the stock may let it go out (with three players to a side, ``classic-6p``, the side
  otherwise passed its black three round the table and nobody's hand changed);
- freezes the pile (discards a wild card) when the opponents are close to going out and the pile is worth having;
- keeps wild cards for canastas: once opened it lays a wild card off only when that completes a canasta, and puts
  none into a new meld; but while its side lacks canastas and needs two or more (``canastas_to_go_out``), new
  melds take wild cards, and where a wild card can be swapped back later (``wild_swap``) it goes onto the
  unfinished meld the wild cards in hand can make a canasta; once the side has its canastas, a pair and a wild
  card go down as a new meld too: two cards fewer to place before it can go out;
- goes out when its side is ahead in the hand, or when waiting is dangerous (the opponents are close to going
  out, or the stock is running low); otherwise it keeps building canastas;
- under the lone hand (``rules.lone_hand``, classic-3p) leaves the hand's first pile until it holds 30 cards or
  the stock is used up (the beginner: 15): whoever takes it first plays alone against the other two;
- holds a new meld back while its side cannot go out yet and melding would leave it fewer than five cards;
- blocks with black threes, and never discards a rank the opponents could lay off to take the pile (what freezes
  the pile and whether a finished canasta takes it are read from the rule set).
"""

from __future__ import annotations

from ..engine.i18n import gettext as _
from ..engine.i18n import ngettext
from ..engine.melds import CANASTA_SIZE
from ..engine.numbers import number_word
from ._common import (
    DISCARD,
    DRAW,
    GO_OUT,
    LAY_OFF,
    MELD,
    TAKE_PILE,
    action_cards,
    best_discard,
    counted,
    format_cards,
    opponents_ranks,
    pile_is_frozen,
    pile_words,
    team_canastas,
)
from ._registry import register
from .beginner import BeginnerBot

#: The club player holds a new meld back when melding would leave fewer cards than this in its hand.
HOLD_BACK_BELOW = 5


def _canastas_needed(obs) -> int:
    need = obs.rules.canastas_to_go_out
    return need if isinstance(need, int) else 1


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
    #: ``rules.lone_hand``: the club leaves the hand's first pile longer than the beginner (``LONE_PILE_MIN``, 15):
    #: whoever gives in first plays alone against two (200 games of classic-3p against two beginners: at 10 the
    #: club won 3.5 % first of three, at 15 35.8 %, at 20 85.5 %, at 30 93.0 %)
    lone_pile_min = 30

    def opponents_close(self, obs) -> bool:
        """An opponent holds few cards and their side may go out (it has the canastas it needs)."""
        if team_canastas(obs.opponents_melds) < _canastas_needed(obs):
            return False
        me = obs.player
        sizes = obs.hand_sizes
        n = len(sizes)
        partners = {me, *obs.partners}  # the side as it stands (classic-3p: it changes when the pile is first taken)
        return any(sizes[p] <= 4 for p in range(n) if p not in partners)

    @staticmethod
    def pile_gain(obs) -> int:
        """The pile's cards the other players discarded, black threes left out: one discard a turn, so the card
        ``k`` places from the top came from the player ``k`` seats back, and every ``players``-th card from the
        top is the bot's own discard (a card it did not want; a black three in hand only waits to be discarded
        again)."""
        n = max(1, len(obs.hand_sizes))
        size = len(obs.pile)
        return sum(1 for i, c in enumerate(obs.pile) if not c.is_black_three and (size - i) % n != 0)

    def side_may_go_out(self, obs) -> bool:
        """Has the side the canastas it needs to go out (``rules.canastas_to_go_out``)?"""
        return self.canastas_missing(obs) == 0

    @staticmethod
    def black_threes_in_pile(obs) -> int:
        return sum(1 for c in obs.pile if c.is_black_three)

    def wants_pile(self, obs) -> bool:
        """The pile must bring at least as many of the other players' cards as the stock gives
        (``draw_count``): with one card from the stock any pile it may take; with two, not a pile that is little
        more than its own last discard. Once the side may go out, every black three in the pile counts against
        it: taken back, it is only discarded again."""
        gain = self.pile_gain(obs)
        if self.side_may_go_out(obs):
            gain -= self.black_threes_in_pile(obs)
        return gain >= obs.rules.draw_count

    def draw_phase(self, obs, acts, rng):
        takes = acts.get(TAKE_PILE, [])
        if takes and DRAW in acts and not self.wants_pile(obs):
            gain, n = self.pile_gain(obs), obs.rules.draw_count
            if gain >= n:   # enough cards, but the black threes under them would come back to be discarded again
                threes = self.black_threes_in_pile(obs)
                return acts[DRAW][0], _(
                    "I draw {draw} from the stock instead of taking the pile ({pile}): we have the canastas we need "
                    "to go out, and the pile would give me {gain} and {threes} I would only discard again, so my "
                    "hand would stay as it is; a card from the stock may let me go out.").format(
                        draw=counted(n, "card"), pile=pile_words(obs.pile), gain=counted(gain, "card"),
                        threes=counted(threes, "black three"))
            if len(obs.pile) > gain:  # (a pile of one: no rest)
                text = _("I draw {draw} from the stock instead of taking the pile ({pile}): it holds only {gain} the "
                         "other players discarded, black threes aside, and the rest are my own discards.")
            else:
                text = _("I draw {draw} from the stock instead of taking the pile ({pile}): it holds only {gain} the "
                         "other players discarded, black threes aside.")
            return acts[DRAW][0], text.format(draw=counted(n, "card"), pile=pile_words(obs.pile),
                                              gain=counted(gain, "card"))
        return super().draw_phase(obs, acts, rng)

    def wants_to_go_out(self, obs, acts) -> bool:
        ours = _table_points(obs.melds)
        theirs = _table_points(obs.opponents_melds)
        if ours + 100 >= theirs:
            return True
        return self.opponents_close(obs) or obs.stock_left < 20 or len(obs.hand) <= 3

    def canastas_missing(self, obs) -> int:
        """How many more canastas the side needs before it may go out (``rules.canastas_to_go_out``)."""
        return max(0, _canastas_needed(obs) - team_canastas(obs.melds))

    def pick_lay_off(self, obs, lay_offs):
        natural = [a for a in lay_offs if not any(c.is_wild for c in a.cards)]
        if natural:
            # the meld nearest a canasta first
            return max(natural, key=lambda a: len(obs.melds[a.target]) if a.target is not None
                       and a.target < len(obs.melds) else 0)
        for a in lay_offs:   # a wild card where it completes a canasta
            if a.target is not None and a.target < len(obs.melds) and len(obs.melds[a.target]) == CANASTA_SIZE - 1:
                return a
        return self.pick_swappable_wild_lay_off(obs, lay_offs)

    def pick_swappable_wild_lay_off(self, obs, lay_offs):
        """Where a wild card may be swapped back later (``rules.wild_swap``) and the side still lacks canastas,
        a wild card goes onto the unfinished meld nearest a canasta, if the wild cards in hand can finish it."""
        if not obs.rules.wild_swap or not self.canastas_missing(obs):
            return None
        wild_in_hand = sum(1 for c in obs.hand if c.is_wild)
        reachable = [a for a in lay_offs if a.target is not None and a.target < len(obs.melds)
                     and len(obs.melds[a.target]) < CANASTA_SIZE
                     and len(obs.melds[a.target]) + wild_in_hand >= CANASTA_SIZE]
        if not reachable:
            return None
        return max(reachable, key=lambda a: len(obs.melds[a.target]))

    def pick_meld(self, obs, melds):
        if not melds:
            return None
        if obs.melds and not self.wild_melds_allowed(obs):
            # opened: meld natural cards only, keep the wild cards for canastas
            natural = [a for a in melds if not any(c.is_wild for m in a.melds for c in m)]
            if not natural:
                return None
            melds = natural
        return super().pick_meld(obs, melds)

    def wild_melds_allowed(self, obs) -> bool:
        """A side that needs two canastas or more (``rules.canastas_to_go_out``) and lacks some puts wild cards
        into new melds: each meld on the table is a canasta begun. A side that has its canastas does too: a pair
        and a wild card melded are two cards fewer to place before going out."""
        return (_canastas_needed(obs) >= 2 and self.canastas_missing(obs) > 0) or self.side_may_go_out(obs)

    def meld_phase(self, obs, acts, rng):
        discards = acts.get(DISCARD, [])
        if discards and self.should_freeze(obs):
            wilds = [a for a in discards if a.cards[0].is_wild]
            blacks = [a for a in discards if a.cards[0].is_black_three]
            if blacks and not acts.get("go_out"):
                pass   # a black three on top blocks as well, and costs nothing
            elif wilds and not acts.get("go_out"):
                choice = min(wilds, key=lambda a: a.cards[0].points)
                return choice, _("I freeze the pile with {card}: the other side is close to going out and the pile "
                                 "holds {pile}.").format(card=choice.cards[0], pile=pile_words(obs.pile))
        held = self.hold_back(obs, acts)
        if held is not None:
            return held
        action, why = super().meld_phase(obs, acts, rng)
        return action, self.reword(obs, action, why)

    def reword(self, obs, action, why) -> str:
        """The club's own reasons for the wild cards it puts down (the beginner's sentence otherwise)."""
        wilds = [c for c in action_cards(action) if c.is_wild]
        if not wilds or action.kind not in (MELD, LAY_OFF) or not obs.melds:
            return why
        need = _canastas_needed(obs)
        have = need - self.canastas_missing(obs)
        lack = ngettext("we have {have} of the {need} canasta we need to go out",
                        "we have {have} of the {need} canastas we need to go out", need).format(
                            have=number_word(have, "none"), need=number_word(need))
        if action.kind == MELD:
            cards, with_wild = format_cards(action_cards(action)), counted(len(wilds), "wild card")
            if self.side_may_go_out(obs):
                return ngettext("I put down {cards} with {wild}: we have the {need} canasta we need to go out, so I "
                                "empty my hand to go out.",
                                "I put down {cards} with {wild}: we have the {need} canastas we need to go out, so I "
                                "empty my hand to go out.", need).format(cards=cards, wild=with_wild,
                                                                         need=number_word(need))
            return _("I put down {cards} with {wild}: {lack}, so every new meld is a canasta begun.").format(
                cards=cards, wild=with_wild, lack=lack)
        target = obs.melds[action.target]
        if len(target) == CANASTA_SIZE - 1:
            return _("I lay off {wild} on {target}: it completes a canasta.").format(wild=wilds[0],
                                                                                   target=format_cards(target))
        return _("I lay off {wild} on {target}: my wild cards can make it a canasta, {lack}, and a wild card can be "
                 "swapped back later.").format(wild=wilds[0], target=format_cards(target), lack=lack)

    def hold_back(self, obs, acts):
        """Keep a new natural meld in hand while the side cannot go out yet and melding would leave too few cards:
        a short hand must soon discard what the other side can take, and a pair in hand can still take the pile.
        Returns (discard, reason) or None."""
        melds, discards = acts.get(MELD, []), acts.get(DISCARD, [])
        if not obs.melds or not melds or not discards or acts.get(GO_OUT) or acts.get(LAY_OFF):
            return None
        if team_canastas(obs.melds) >= _canastas_needed(obs) or self.opponents_close(obs) or obs.stock_left < 20:
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
        return d, _("I keep {kept} in hand and discard {card}: melding now would leave me too few cards to take the "
                    "pile or to discard safely, and we cannot go out yet.").format(kept=kept, card=d.cards[0])

    def should_freeze(self, obs) -> bool:
        return (not pile_is_frozen(obs) and len(obs.pile) >= 5 and self.opponents_close(obs)
                and len(obs.hand) > 3)

    def discard_reason(self, obs, action) -> str:
        card = action.cards[0]
        if card.is_black_three:
            return _("I discard {card}: with a black three on top nobody may take the pile.").format(card=card)
        if (card.rank not in opponents_ranks(obs)) and not pile_is_frozen(obs) and opponents_ranks(obs):
            return _("I discard {card}: the other side has no meld it fits, so they cannot take the pile with "
                     "it.").format(card=card)
        return _("I discard {card}: it is the card I can least use, and the safest.").format(card=card)


register("club", ClubBot)
