"""The expert bot: legal choices in every preset, no peeking at hidden cards, the same choice from the same seed,
deals of the unseen cards consistent with what the seat sees, what it remembers of the pile, and its estimates.
Its strength and its think time are measured in benchmarks/bots.py (``--duplicate``), not here."""

import random
import threading
from collections import Counter

import pytest
from test_bots_policies import _hide_differently

from canasta_tutor.bots import get_bot
from canasta_tutor.bots.determinize import sample_state, unseen_cards
from canasta_tutor.bots.expert import Estimate, ExpertBot, PileMemory
from canasta_tutor.engine.rules import PRESETS
from canasta_tutor.game import Game, apply, legal_actions, observation


def fixed(**kw):
    """An expert without a clock: a fixed number of deals, so its choices do not depend on the machine."""
    kw.setdefault("playouts", 4)
    return ExpertBot(think=None, **kw)


def test_the_registry_and_the_play_command_know_the_expert():
    from canasta_tutor.bots.play import make_bots

    assert get_bot("expert").name == "expert"
    assert [b.name for b in make_bots("expert,club", 2)] == ["expert", "club"]


@pytest.mark.parametrize("rules", sorted(PRESETS))
def test_the_expert_chooses_only_legal_actions_and_says_why_in_every_preset(rules):
    game = Game(rules)
    state = game.new_initial_state("expert-legal")
    expert, club = fixed(playouts=2, horizon=4), get_bot("club")
    rng = random.Random(1)
    steps = 0
    while not state.is_terminal() and steps < 120:
        p = state.current_player
        acts = legal_actions(state)
        bot = expert if p % 2 == 0 else club
        action, why = bot.choose(observation(state, p), acts, rng)
        assert action in acts, (rules, action)
        assert isinstance(why, str) and why[:1].isupper() and why.endswith("."), why
        apply(state, action)
        steps += 1
    assert steps > 10


def test_a_sampled_deal_keeps_what_the_seat_sees_and_deals_every_unseen_card_once():
    state = Game("classic").new_initial_state("deal")
    for _ in range(30):   # into the hand: melds, a pile
        apply(state, get_bot("club").choose(observation(state), legal_actions(state), random.Random(0))[0])
    me = state.current_player
    obs = observation(state, me)
    guess = sample_state(obs, random.Random(3))
    assert guess.hands[me] == state.hands[me] and guess.pile == state.pile and guess.melds == state.melds
    assert [len(h) for h in guess.hands] == [len(h) for h in state.hands] and len(guess.stock) == len(state.stock)
    hidden = Counter(c for p, h in enumerate(state.hands) if p != me for c in h) + Counter(state.stock)
    dealt = Counter(c for p, h in enumerate(guess.hands) if p != me for c in h) + Counter(guess.stock)
    assert dealt == hidden == unseen_cards(obs)
    assert not any(c.is_red_three for p, h in enumerate(guess.hands) for c in h)
    assert guess.hands != state.hands   # a new deal, not the real one


def test_cards_known_to_be_in_a_hand_are_dealt_to_it():
    state = Game("classic").new_initial_state("known")
    obs = observation(state, 0)
    card = next(iter(unseen_cards(obs)))
    if card.is_red_three:
        card = next(c for c in unseen_cards(obs) if not c.is_red_three)
    for k in range(5):
        assert card in sample_state(obs, random.Random(k), {2: [card]}).hands[2]


def test_the_expert_never_peeks_at_hidden_cards():
    bot = fixed(playouts=3, horizon=6)
    state = Game("classic").new_initial_state("peek")
    compared = 0
    while not state.is_terminal() and compared < 40:
        p = state.current_player
        twin = _hide_differently(state, random.Random(compared))
        assert twin.hands[p] == state.hands[p] and twin.hands != state.hands
        a, why_a = bot.choose(observation(state, p), legal_actions(state), random.Random(5))
        b, why_b = bot.choose(observation(twin, p), legal_actions(twin), random.Random(5))
        assert (a, why_a) == (b, why_b)
        apply(state, a)
        compared += 1
    assert compared >= 20


def _a_decision(rules="classic", seed="choice", moves=14):
    state = Game(rules).new_initial_state(seed)
    club = get_bot("club")
    while True:
        for _ in range(moves):
            apply(state, club.choose(observation(state), legal_actions(state), random.Random(0))[0])
        if len(legal_actions(state)) > 2:
            return state
        moves = 1


def test_the_same_seed_gives_the_same_choice_and_the_same_estimates():
    state = _a_decision()
    obs, acts = observation(state), legal_actions(state)
    first = fixed(seed=7).evaluate(obs, acts)
    again = fixed(seed=7).evaluate(obs, acts)
    assert first == again and len(first) > 1
    assert all(isinstance(e, Estimate) and e.low <= e.mean <= e.high and e.action in acts for e in first)
    other = fixed(seed=8).evaluate(obs, acts)
    assert [e.mean for e in other] != [e.mean for e in first]   # the seed is used


def test_the_estimates_come_from_the_deals_played():
    state = _a_decision()
    bot = fixed(playouts=6)
    estimates = bot.evaluate(observation(state), legal_actions(state))
    plans, values = bot._values
    for e in estimates:
        vs = values[plans.index(e.plan)]
        assert e.deals == len(vs) and e.mean == pytest.approx(sum(vs) / len(vs))


def test_a_stop_ends_the_search_at_once():
    state = _a_decision()
    bot = ExpertBot(think=60.0, playouts=10_000)
    timer = threading.Timer(0.3, bot.stop)
    timer.start()
    estimates = bot.evaluate(observation(state), legal_actions(state))
    timer.cancel()
    assert max(e.deals for e in estimates) < 10_000


class _SlowClock:
    """A clock that goes on by ``step`` seconds each time it is read: a machine on which every step is slow."""

    def __init__(self, step):
        self.t, self.step = 0.0, step

    def perf_counter(self):
        self.t += self.step
        return self.t


def test_the_hard_stop_of_three_times_think_holds_inside_the_first_deal(monkeypatch):
    # the search stops at 3 x think even while it plays the first deal (before, the first deal played every plan
    # out whatever the clock said); what was played out counts, and the club's plan is the one played
    import canasta_tutor.bots.expert as expert

    state = _a_decision("samba", moves=30)
    obs, acts = observation(state), legal_actions(state)
    clock = _SlowClock(0.25)
    monkeypatch.setattr(expert.time, "perf_counter", clock.perf_counter)
    started = []
    real = expert.playout
    monkeypatch.setattr(expert, "playout", lambda *a, **k: started.append(a) or real(*a, **k))
    bot = ExpertBot(think=1.0, playouts=400)
    estimates = bot.evaluate(obs, acts)
    plans, _values = bot._values
    assert len(plans) > 2 and len(started) < len(plans)   # the first deal did not play every plan
    assert clock.t <= 3.0 + 6 * clock.step   # a few readings past the stop at most
    assert all(e.deals <= 1 for e in estimates)
    assert bot.pick(estimates).plan == plans[0] and bot.pick(estimates).action in acts


def test_the_pile_memory_remembers_what_a_player_took_until_he_shows_it():
    game = Game("classic")
    right = wrong = 0
    for seed in range(4):
        state = game.new_initial_state(f"memory{seed}")
        club = get_bot("club")
        memories = {p: PileMemory() for p in range(4)}
        while not state.is_terminal():
            p = state.current_player
            obs = observation(state, p)
            memories[p].update(obs)
            for q, cards in memories[p].known.items():
                assert q != p
                missing = Counter(cards) - Counter(state.hands[q])
                wrong += sum(missing.values())
                right += len(cards) - sum(missing.values())
            action, _ = club.choose(obs, legal_actions(state), random.Random(0))
            memories[p].note(obs, action)
            apply(state, action)
    # what it remembers is nearly always in that hand (two takes between its turns may mislead it)
    assert right > 50 and wrong <= right / 10, (right, wrong)


def test_an_unfinished_sequence_counts_on_its_way_to_a_samba_at_the_horizon(monkeypatch):
    # 004: a samba (seven cards of one suit in sequence) earns 1500; a playout cut at the horizon credits each
    # unfinished run of the side with a share of it by its length, nothing under rules without sambas
    import canasta_tutor.bots.expert as expert
    from canasta_tutor.engine.cards import parse_cards
    from canasta_tutor.engine.rules import get_rules

    samba = get_rules("samba")
    six, three = parse_cards("4H 5H 6H 7H 8H 9H"), parse_cards("9S 10S JS")
    group, done = parse_cards("KC KD KS"), parse_cards("4D 5D 6D 7D 8D 9D 10D")
    assert expert._sequence_progress([six, three, group, done], samba) == pytest.approx(
        (expert.SEQUENCE_PROGRESS[6] + expert.SEQUENCE_PROGRESS[3]) * 1500)
    assert expert.SEQUENCE_PROGRESS[3] < expert.SEQUENCE_PROGRESS[4] < expert.SEQUENCE_PROGRESS[5] < \
        expert.SEQUENCE_PROGRESS[6] < 1
    assert expert._sequence_progress([six], get_rules("classic")) == 0
    state = _a_decision("samba", moves=20)
    mine = state.melds[state.team_of(0)]
    monkeypatch.setattr(expert, "_sequence_progress", lambda melds, rules: 0.0)
    without = expert.position_value(state, 0)
    monkeypatch.setattr(expert, "_sequence_progress", lambda melds, rules: 700.0 if melds is mine else 0.0)
    assert expert.position_value(state, 0) == pytest.approx(without + 700.0)   # the horizon's value counts it
