"""Random play, as OpenSpiel's random simulation test: for every preset, many hands played by choosing
uniformly among the legal actions, checking after every action that

- every card of the decks is in exactly one place (cards conserved);
- the player to move has a legal action until the hand ends, and apply accepts every legal action;
- every meld on the table is a legal meld (the engine's ``check_team_melds``);
- what a player observes holds no hidden card;
- a take or a way out that is offered is one the engine's ``check_take_pile`` / ``check_go_out`` allows;
- the sides are the game's teams, or under classic-3p's lone hand each player alone until the pile is first
  taken, then the taker alone and the other two on one table (the going-out player alone when nobody took it);

and at the end of each hand that the scores (per team; in classic-3p per player, with his own red threes) are
``score_hand``'s and agree with an independent tally written
here, and that every hand and every game ends. 2,030 hands per run across the presets.
"""

import random
from collections import Counter

import pytest

from canasta_tutor.engine.cards import ALL_CARDS, JOKER
from canasta_tutor.engine.going_out import check_go_out, find_go_out
from canasta_tutor.engine.melds import check_team_melds
from canasta_tutor.engine.pile import check_take_pile
from canasta_tutor.engine.rules import PRESETS
from canasta_tutor.engine.scoring import score_hand
from canasta_tutor.engine.situation import Situation, max_hand_cards
from canasta_tutor.game import GO_OUT, TAKE_PILE, Game, apply, legal_actions, observation

HANDS_PER_PRESET = 290          # 7 presets: 2,030 hands
MAX_ACTIONS = 3000              # far above any hand seen (about 100-300 actions)
SEQ = {"4": 4, "5": 5, "6": 6, "7": 7, "8": 8, "9": 9, "10": 10, "J": 11, "Q": 12, "K": 13, "A": 14}


def deck(rules):
    return Counter({c: (rules.jokers if c.rank == JOKER else rules.decks) for c in ALL_CARDS})


def where_cards_are(state):
    seen = Counter(state.stock) + Counter(state.pile)
    for h in state.hands:
        seen.update(h)
    for team in state.melds:
        for m in team:
            seen.update(m)
    for r in state.red_threes:
        seen.update(r)
    return seen


def points(cards):
    """Card points, written out here (not the engine's table)."""
    value = {"JK": 50, "A": 20, "2": 20, "K": 10, "Q": 10, "J": 10, "10": 10, "9": 10, "8": 10,
             "7": 5, "6": 5, "5": 5, "4": 5}
    return sum(0 if c.rank == "3" and c.suit in "HD" else 5 if c.rank == "3" else value[c.rank] for c in cards)


def tally(state, team, players=None, red_threes=None):
    """The team's score for the hand, counted independently of the engine's scoring module: the side ``team``
    (its ``melds`` index) of ``players`` (default: the game's team), with ``red_threes`` (default: the team's)."""
    rules = state.rules
    melds = state.melds[team]
    players = state.game.teams[team] if players is None else players
    red_threes = state.red_threes[team] if red_threes is None else red_threes
    total = sum(points(m) for m in melds)
    for m in melds:
        if len(m) >= 7:
            ranks = {c.rank for c in m if c.rank not in ("2", "JK")}
            if len(ranks) > 1:
                total += rules.samba_bonus
            elif any(c.rank in ("2", "JK") for c in m):
                total += rules.mixed_canasta_bonus
            else:
                total += rules.natural_canasta_bonus
    canastas = sum(1 for m in melds if len(m) >= 7)
    went = state.went_out is not None and state.team_of(state.went_out[0]) == team
    concealed = went and state.went_out[1]
    total += rules.concealed_canasta_bonus * (canastas if concealed else min(canastas, state.concealed_canastas[team]))
    reds = len(red_threes)
    if reds:
        if reds == 2 * rules.decks:
            value = rules.all_red_threes_bonus if melds else -rules.all_red_threes_penalty
        else:
            value = reds * (rules.red_three_bonus if melds else -rules.red_three_penalty)
        total += value
    if went:
        total += rules.concealed_going_out_bonus if concealed else rules.going_out_bonus
    for p in players:
        total -= points(state.hands[p])
    return total


def check_state(state, full_deck, rng, deep):
    assert where_cards_are(state) == full_deck
    rules = state.rules
    for t, melds in enumerate(state.melds):
        if melds and deep:
            going_out = state.went_out is not None and state.team_of(state.went_out[0]) == t
            verdict = check_team_melds(melds, rules, going_out=going_out)
            assert verdict.ok, (rules.name, verdict.sentence, melds)
    if state.is_terminal():
        assert legal_actions(state) == []
        return
    acts = legal_actions(state)
    assert acts, f"no legal action: {state!r}"
    assert len(set(acts)) == len(acts)
    p = state.current_player
    assert all(len(h) >= 1 for q, h in enumerate(state.hands) if q != p)
    if deep:
        obs = observation(state, p)
        visible = Counter(obs.hand) + Counter(obs.pile) + Counter(c for ms in obs.table for m in ms for c in m) + \
            Counter(c for r in obs.table_red_threes for c in r)
        hidden = Counter(state.stock)
        for q, h in enumerate(state.hands):
            if q != p:
                hidden.update(h)
        assert visible + hidden == full_deck  # what the player sees plus what is hidden: every card, once
        assert obs.hand_sizes == tuple(len(h) for h in state.hands)
        situation = Situation(hand=tuple(state.hands[p]), melds=tuple(state.melds[state.team_of(p)]),
                              score=state.scores[state.game.team_of(p)], pile=tuple(state.pile), rules=rules,
                              stock_empty=not state.stock)
        if len(state.hands[p]) <= max_hand_cards(rules):
            if any(a.kind == TAKE_PILE for a in acts):
                assert check_take_pile(situation).ok
            if any(a.kind == GO_OUT for a in acts) and state.melds[state.team_of(p)]:
                assert check_go_out(situation).ok
            if state.phase == "meld" and len(situation.hand) <= rules.hand_size and not state.red_three_last:
                # the game's quick filters never hide a way out the engine's search finds (after a red three
                # drawn as the stock's last card nobody goes out: 000, the hand ends)
                plan, _ = find_go_out(situation.hand, situation.melds, rules)
                if state.melds[state.team_of(p)] or rules.concealed_needs_no_minimum:
                    assert (plan is not None) == any(a.kind == GO_OUT for a in acts), (rules.name, situation)
        # apply accepts every legal action (on copies)
        for a in acts:
            copy = state.clone()
            apply(copy, a)
            assert where_cards_are(copy) == full_deck


def check_sides(state, first_taker):
    """``lone_hand`` (classic-3p): each player alone until the pile is first taken; then the taker alone and the
    others one side with one table (the other partner's index empty); a player going out before any take is
    the lone hand. Without ``lone_hand`` the sides are the game's teams throughout."""
    n = state.game.num_players
    sides = [state.team_of(p) for p in range(n)]
    if not state.rules.lone_hand:
        assert sides == [p % state.game.num_teams for p in range(n)]
        return
    lone = first_taker
    if lone is None and state.went_out is not None:
        lone = state.went_out[0]
    if lone is None:
        assert sides == list(range(n)) and state.sides() == tuple((p,) for p in range(n))
        return
    others = [p for p in range(n) if p != lone]
    assert sides[lone] == lone and all(sides[p] == others[0] for p in others), (lone, sides)
    assert state.sides() == tuple(sorted([(lone,), tuple(others)]))
    assert all(not state.melds[p] for p in others[1:])
    obs = observation(state, others[-1])
    assert obs.partners == tuple(others[:-1]) and obs.melds == tuple(state.melds[others[0]])
    assert observation(state, lone).partners == ()


def play_hand(state, rng, *, deep_every=11):
    full_deck = deck(state.rules)
    n = 0
    first_taker = None
    while not state.is_terminal():
        check_state(state, full_deck, rng, deep=n % deep_every == 0)
        acts = legal_actions(state)
        action = acts[rng.randrange(len(acts))]
        if action.kind == TAKE_PILE and first_taker is None:
            first_taker = state.current_player
        apply(state, action)
        if n % deep_every == 0:
            check_sides(state, first_taker)
        n += 1
        assert n < MAX_ACTIONS, "the hand did not end"
    check_state(state, full_deck, rng, deep=True)
    check_sides(state, first_taker)
    sheets = state.hand_result()
    # one score per team of the game (under lone_hand: per player): its side's melds, hands and going out, with
    # the team's own red threes
    for c, players in enumerate(state.game.teams):
        t = state.team_of(players[0])
        side = [p for p in range(state.game.num_players) if state.team_of(p) == t]
        went = False
        if state.went_out is not None and state.team_of(state.went_out[0]) == t:
            went = "concealed" if state.went_out[1] else True
        expected = score_hand(Situation(melds=tuple(state.melds[t]), red_threes=tuple(state.red_threes[c]),
                                        hands=tuple(tuple(state.hands[p]) for p in side), went_out=went,
                                        concealed_canastas=None if went == "concealed" else
                                        min(state.concealed_canastas[t], sum(len(m) >= 7 for m in state.melds[t])),
                                        rules=state.rules))
        assert sheets[c].total == expected.total
        assert sheets[c].total == tally(state, t, side, state.red_threes[c]), (state.rules.name, sheets[c].items)
    return n


@pytest.mark.parametrize("name", list(PRESETS))
def test_random_play_keeps_every_invariant(name):
    game = Game(name)
    stats = Counter()
    for seed in range(HANDS_PER_PRESET):
        rng = random.Random(seed)
        state = game.new_initial_state(seed)
        stats["actions"] += play_hand(state, rng)
        stats["went out"] += state.went_out is not None
        stats["hands"] += 1
        kinds = Counter(a.kind for a in state.history)
        for k in kinds:
            stats[k] += 1
    assert stats["hands"] == HANDS_PER_PRESET
    # random play reaches every kind of move (in samba, the swap too), and some hands end by going out
    expected = {"draw", "take_pile", "meld", "lay_off", "discard", "end"} | ({"swap"} if name == "samba" else set())
    assert expected <= set(stats), (name, stats)
    assert stats["went out"] > 0, stats


@pytest.mark.parametrize("name", ["classic", "classic-2p", "classic-3p", "samba"])
def test_random_games_end_at_the_target(name):
    game = Game(name)
    for seed in range(2):
        rng = random.Random(seed)
        state = game.new_initial_state(f"game-{seed}")
        hands = 0
        while True:
            play_hand(state, rng, deep_every=50)
            hands += 1
            if state.is_game_over():
                break
            state = state.next_hand()
            assert hands < 80, "the game did not end"
        assert max(state.totals()) >= state.rules.target_score
