"""Bots: the registry, the interface, and the random bot (sees only its observation)."""

import random
from collections import Counter

import pytest

from canasta_tutor.bots import Bot, bot_names, get_bot
from canasta_tutor.bots.play import play_hands
from canasta_tutor.engine.errors import CanastaError
from canasta_tutor.game import Action, Observation


def test_the_registry_finds_bots_by_name_and_explains_an_unknown_one():
    assert "random" in bot_names()
    bot = get_bot("random")
    assert isinstance(bot, Bot) and bot.name == "random"
    with pytest.raises(CanastaError, match="unknown bot 'nobody': the bots are .*random"):
        get_bot("nobody")


def test_the_random_bot_picks_any_legal_action_evenly_and_says_why():
    acts = [Action("draw"), Action("end"), Action("discard", cards=())]
    bot = get_bot("random")
    rng = random.Random(5)
    picks = Counter()
    for _ in range(3000):
        action, why = bot.choose(None, acts, rng)
        assert action in acts and why.endswith(".") and "3 legal moves" in why
        picks[action] += 1
    assert all(800 < n < 1200 for n in picks.values()), picks
    again = [get_bot("random").choose(None, acts, random.Random(9))[0] for _ in range(2)]
    assert again[0] == again[1]


class Spy:
    """A bot that records what it is shown, then plays the first legal action."""

    name = "spy"
    seen = []

    def choose(self, observation, legal_actions, rng):
        Spy.seen.append((observation, list(legal_actions)))
        return legal_actions[0], "The first one."


def test_a_bot_is_given_its_own_seats_observation_and_the_legal_actions(monkeypatch):
    from canasta_tutor import bots

    bot_names()
    monkeypatch.setitem(bots._REGISTRY, "spy", Spy)
    Spy.seen.clear()
    record = next(play_hands("classic-2p", seed=2, hands=1, bots="spy"))
    assert record["hand"] == 1 and Spy.seen
    for obs, acts in Spy.seen:
        assert isinstance(obs, Observation)
        assert obs.player == obs.current_player
        assert obs.hands == ()                      # no other player's cards
        assert len(obs.hand) == obs.hand_sizes[obs.player]
        assert acts
