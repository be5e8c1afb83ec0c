"""The opening (initial meld): the minimum for a score, and whether melds reach it.

>>> opening_minimum(-35), opening_minimum(0), opening_minimum(1495), opening_minimum(3000)
(15, 50, 50, 120)
>>> v = check_opening(["KH KS KD", "7C 7D 2S"], score=0)
>>> v.ok, v.points, v.minimum
(True, 60, 50)
"""

from __future__ import annotations

from .cards import Card, card_points, format_cards
from .counts import most_meld_points
from .i18n import gettext as _
from .melds import as_cards, check_team_melds
from .rules import CLASSIC, RuleSet, get_rules
from .situation import Situation, ensure_hand_size, takes_situation
from .verdict import Reason, verdict_type

OpeningVerdict = verdict_type("OpeningVerdict", "minimum points", (0, 0),
                              "Is this a legal initial meld? With the ``minimum`` and the melds' card ``points``.")


def opening_minimum(score: int, rules: RuleSet | str = CLASSIC) -> int:
    """The initial-meld minimum for a team whose cumulative score before the hand is ``score``."""
    return get_rules(rules).opening_minimum(score)


def explain_minimum(score: int, rules: RuleSet | str = CLASSIC) -> Reason:
    rules = get_rules(rules)
    return Reason("minimum", _("With a score of {score} ({band}) your team's first meld must count at least "
                               "{minimum} points.").format(score=score, band=rules.opening_band(score),
                                                           minimum=rules.opening_minimum(score)))


@takes_situation("melds", "score", "rules")
def check_opening(situation: Situation) -> OpeningVerdict:
    """Do ``melds``, put down together as the team's first meld this hand, make a legal opening?

    Only card points count (no bonus); several melds may be combined. Takes a :class:`Situation`
    (``melds``, ``score``, ``rules``), or the old ``check_opening(melds, score=0, rules=CLASSIC)``.
    """
    rules, score = situation.rules, situation.score
    melds = list(situation.melds)
    minimum = rules.opening_minimum(score)
    points = sum(card_points(m) for m in melds)
    reasons = [explain_minimum(score, rules)]
    ok = True
    if not melds:
        ok = False
        reasons.append(Reason("no-melds", _("You put down no meld.")))
    else:
        melds_ok = check_team_melds(melds, rules)
        if not melds_ok.ok:
            ok = False
            reasons.extend(melds_ok.reasons)
        shown = " + ".join(f"{format_cards(m)} ({card_points(m)})" for m in melds)
        fields = {"points": points, "melds": shown, "minimum": minimum}
        if points >= minimum and not ok:
            reasons.append(Reason("enough-points", _("Your melds count {points} points: {melds}; that would reach "
                                                     "{minimum} if every meld were legal.").format(**fields)))
        elif points >= minimum:
            reasons.append(Reason("enough-points", _("Your melds count {points} points: {melds}; that reaches "
                                                     "{minimum}.").format(**fields)))
        else:
            ok = False
            reasons.append(Reason("too-few-points", _("Your melds count only {points} points: {melds}; you need "
                                                      "{minimum}.").format(**fields)))
    if any(c.is_wild for m in melds for c in m) and ok:
        reasons.append(Reason("wild-count", _("Wild cards count their own points (joker 50, two 20).")))
    return OpeningVerdict(ok, tuple(reasons), minimum=minimum, points=points)


def max_meld_points(cards, rules: RuleSet | str = CLASSIC, *, top: Card | None = None) -> int:
    """The most card points the player can meld from ``cards`` in one go (no black threes).

    With ``top`` (the pile's top card), the top card must be melded with at
    least two natural cards of its rank from ``cards``; returns -1 if it cannot.
    Used for "can an unopened team take the pile": the top card counts, no
    other pile card does. Samba sequences are searched too.
    """
    rules = get_rules(rules)
    cards = as_cards(cards)
    ensure_hand_size(rules, cards)
    return most_meld_points(cards, rules, top=top)   # the counting core (issue 19): any hand, no search
