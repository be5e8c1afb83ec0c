"""Kind ``score-hand``: what does the team score for this hand?"""

from __future__ import annotations

import random

from ...engine.i18n import N_
from ...engine.i18n import gettext as _
from ...engine.melds import count_canastas
from ...engine.scoring import score_hand
from .. import paper
from ..dealing import Pool, codes, not_red_three, team_melds, team_size
from ._record import PuzzleKind, Solution, first_value, register

LABEL = N_("Your team's melds at the end of the hand")


def solve(s) -> Solution:
    sheet = score_hand(s)
    return Solution({"score": sheet.total}, sheet.explanation, sheet)


def hints(s) -> list[str]:
    rules = s.rules
    melded = sum(c.points for m in s.melds for c in m)
    return [_("Start with the card points of every melded card: {melded}.").format(melded=melded),
            _("Then bonuses: canastas ({natural} natural, {mixed} mixed), red threes, going out; then subtract the "
              "cards left in hand.").format(natural=rules.natural_canasta_bonus, mixed=rules.mixed_canasta_bonus)]


def generate(rng, rules, d, want):
    """A candidate situation (in notation) for the generator, or ``None``."""
    pool = Pool(rules, rng)
    opened = rng.random() < 0.9
    melds = team_melds(pool, rules, rng, rng.randint(1, 1 + d), max(d, 3)) if opened else []
    went_out = False
    if melds and count_canastas(melds, rules) >= rules.canastas_to_go_out:
        went_out = rng.choice([False, True, True] + (["concealed"] if d >= 3 else []))
    red = pool.draw(rng.choice([0, 0, 1, 1, 2] + ([rules.red_threes_in_game] if d >= 3 else [])),
                    allow=lambda c: c.is_red_three)
    hands = []  # your hand first, then your partners' (when the side has partners)
    for _hand in range(rng.randint(0 if went_out else 1, team_size(rules))):
        hands.append(pool.draw(rng.randint(1, 1 + d), allow=not_red_three))
    if went_out and hands:
        hands[rng.randrange(len(hands))] = []  # the player who went out
    return {"melds": [codes(m) for m in melds], "red_threes": codes(red), "hands": [codes(h) for h in hands],
            "went_out": went_out}


def features(s) -> dict[str, float]:
    """The melds, the cards to count (melded and left in hand), red threes, hands, going out concealed,
    canastas."""
    melds = list(s.melds)
    cards = [c for m in melds for c in m]
    left = [c for h in s.hands for c in h]
    return {"melds": len(melds), "cards": len(cards) + len(left), "red_threes": len(s.red_threes),
            "hands": len(left), "concealed": int(s.went_out == "concealed"),
            "canastas": count_canastas(melds, s.rules) if melds else 0}


def problems(s) -> list[str]:
    """A score sheet lists at most one hand per player of the side, and an empty hand only for a side that went
    out (the player who went out)."""
    out = []
    if len(s.hands) > team_size(s.rules):
        out.append(f"{len(s.hands)} hands are listed for a side of {team_size(s.rules)}")
    empty = sum(1 for h in s.hands if not h)
    if empty and not s.went_out:
        out.append("a hand is empty, but the side did not go out")
    if empty > 1:
        out.append("two hands are empty, but only one player goes out")
    return out


def score_sheet_position(state, team: int, rng: random.Random) -> dict:
    """One side's end of the hand as a score-hand situation: its melds, red threes, the cards left in its
    players' hands (the learner's first), and whether it went out."""
    # ``team`` is a score column; its side in the hand (classic-3p's lone hand: the partnership's table and hands,
    # with this column's own red threes, as the game scores it; other presets: the same team)
    side = state.team_of(state.game.teams[team][0])
    players = [p for p in range(state.game.num_players) if state.team_of(p) == side]
    rng.shuffle(players)
    went = False
    if state.went_out is not None and state.team_of(state.went_out[0]) == side:
        went = "concealed" if state.went_out[1] else True
    out = {"melds": [codes(m) for m in state.melds[side]], "red_threes": codes(state.red_threes[team]),
           "hands": [codes(state.hands[p]) for p in players], "went_out": went}
    if went != "concealed" and state.concealed_canastas[side]:
        canastas = sum(1 for m in state.melds[side] if len(m) >= 7)
        if min(state.concealed_canastas[side], canastas):
            out["concealed_canastas"] = min(state.concealed_canastas[side], canastas)
    return out


def cut(state, rng) -> list[dict]:
    """At the end of the hand: each score column's side (its melds, red threes, hands, going out)."""
    return [score_sheet_position(state, t, rng) for t in range(state.game.num_teams)]


def worksheet(s) -> list[paper.Row]:
    """The melds, red threes, hands left and going out (a worksheet does not print concealed canastas)."""
    return (paper.melds_rows(s, LABEL) + paper.cards_rows(s, "red_threes", small=True) + paper.hands_rows(s)
            + paper.went_out_rows(s))


KIND = register(PuzzleKind(
    name="score-hand", fields=("melds", "red_threes", "hands", "went_out", "concealed_canastas"),
    required=("melds",), answers={"score": int}, solve=solve, hints=hints,
    question=N_("What does your team score for this hand?"), answer_control="number", describe=first_value,
    generate=generate, topic=N_("scoring"),
    layout=("melds", "red_threes", "hands", "went_out", "concealed_canastas"),
    labels={"melds": LABEL}, features=features, problems=problems, cut_moments=("end",), cut=cut,
    worksheet=worksheet,
    headline=lambda answer: _("Your team scores {score} for this hand.").format(score=answer["score"]),
    reasons_as_list=True))
