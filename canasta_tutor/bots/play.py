"""Bot-only hands, one record per hand: what ``canasta-tutor play`` prints.

>>> record = next(play_hands("classic", seed=1, hands=1))
>>> sorted(record)
['hand', 'pile', 'rules', 'seed', 'stock_left', 'teams', 'went_out']
>>> [team["players"] for team in record["teams"]]
[[0, 2], [1, 3]]
"""

from __future__ import annotations

import random
from collections.abc import Iterator, Sequence

from ..engine.cards import format_cards
from ..engine.errors import CanastaError
from ..engine.i18n import gettext as _
from ..engine.i18n import ngettext
from ..engine.rules import RuleSet, get_rules
from ..game import Game, State, apply, legal_actions, observation


def _codes(cards) -> str:
    return format_cards(cards, symbols=False)


def hand_record(state: State, seed, hand: int) -> dict:
    """The JSON-lines record of a finished hand (the issue's format): ``rules``, ``seed``, ``hand`` (1-based),
    ``went_out`` (``None`` or ``{"player", "concealed"}``), ``teams`` (``players``, ``melds``, ``red_threes``,
    ``hands_left``, ``score``), ``stock_left`` and ``pile`` (bottom first).

    Under ``lone_hand`` (``classic-3p``) ``teams`` are the sides as they stood at the end of the hand (the lone
    hand ``[p]`` and the partners ``[a, b]``, or three sides of one when nobody took the pile); a side's
    ``red_threes`` are its players' (in player order), its ``score`` is what the side made before red threes
    (melds, going out, minus the cards left), and ``player_scores`` (in player order) each player's score for the
    hand: that plus or minus his own red threes."""
    scores = state.hand_scores()
    went = None if state.went_out is None else {"player": state.went_out[0], "concealed": bool(state.went_out[1])}
    teams = []
    if state.rules.lone_hand:
        for players in state.sides():
            teams.append({"players": list(players),
                          "melds": [_codes(m) for m in state.melds[state.team_of(players[0])]],
                          "red_threes": _codes([c for p in players for c in state.red_threes[state.game.team_of(p)]]),
                          "hands_left": [_codes(state.hands[p]) for p in players],
                          "score": state.side_sheet(players).total,
                          "player_scores": [scores[state.game.team_of(p)] for p in players]})
        return {"rules": state.rules.name, "seed": seed, "hand": hand, "went_out": went, "teams": teams,
                "stock_left": len(state.stock), "pile": _codes(state.pile)}
    for t, players in enumerate(state.game.teams):
        teams.append({"players": list(players),
                      "melds": [_codes(m) for m in state.melds[t]],
                      "red_threes": _codes(state.red_threes[t]),
                      "hands_left": [_codes(state.hands[p]) for p in players],
                      "score": scores[t]})
    return {"rules": state.rules.name, "seed": seed, "hand": hand, "went_out": went, "teams": teams,
            "stock_left": len(state.stock), "pile": _codes(state.pile)}


def make_bots(names: Sequence[str] | str | None, players: int) -> list:
    """One bot per seat from ``names`` (one name for every seat, or one per seat; default ``random``)."""
    from . import get_bot

    if names is None:
        names = ["random"]
    if isinstance(names, str):
        names = [n.strip() for n in names.split(",")]
    if len(names) == 1:
        names = list(names) * players
    if len(names) != players:
        raise CanastaError(f"--bots: {len(names)} bots for {players} players: name one bot for every seat, "
                           f"or one bot for all")
    return [get_bot(n) for n in names]


def play_hands(rules: RuleSet | str, seed: int = 0, hands: int = 1, bots=None, *, progress=None) -> Iterator[dict]:
    """Play ``hands`` bot-only hands and yield each hand's :func:`hand_record`. Hands follow each other in a
    game (scores carried, the deal passing left); when a game ends, the next hand starts a new game.
    The same arguments give the same hands. ``progress``: called with no argument after each hand."""
    rules = get_rules(rules)
    game = Game(rules)
    seats = make_bots(bots, game.num_players)
    state = game.new_initial_state(seed)
    games = 1
    for k in range(1, hands + 1):
        rng = random.Random(f"{seed}:bots:{k}")
        while not state.is_terminal():
            p = state.current_player
            acts = legal_actions(state)
            action, _why = seats[p].choose(observation(state, p), acts, rng)
            apply(state, action)
        yield hand_record(state, seed, k)
        if progress is not None:
            progress()
        if k < hands:
            if state.is_game_over():
                games += 1
                state = game.new_initial_state(f"{seed}:game {games}")
            else:
                state = state.next_hand()


def summary_line(record: dict) -> str:
    """A short readable line for one hand."""
    went = record["went_out"]
    if went is None:
        how = _("the stock ran out")
    else:
        how = (_("player {player} went out concealed") if went["concealed"] else
               _("player {player} went out")).format(player=went["player"])
    teams = []
    for i, t in enumerate(record["teams"]):
        team = _("team {number} ({players}) {score}").format(number=i + 1, players="+".join(map(str, t["players"])),
                                                             score=f"{t['score']:+d}")
        if "player_scores" in t:
            scores = ", ".join(f"{p}: {v:+d}" for p, v in zip(t["players"], t["player_scores"]))
            team = ngettext("{team} (player {scores})", "{team} (players {scores})", len(t["players"])).format(
                team=team, scores=scores)
        teams.append(team)
    left = record["stock_left"]
    # Translators: one line of "canasta-tutor play" for a hand: "hand 1: player 2 went out; team 1 (0+2) +120,
    # team 2 (1+3) -45; 41 cards left in the stock"
    return ngettext("hand {number}: {how}; {teams}; {count} card left in the stock",
                    "hand {number}: {how}; {teams}; {count} cards left in the stock", left).format(
        number=record["hand"], how=how, teams=", ".join(teams), count=left)
