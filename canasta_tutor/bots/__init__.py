"""Bots: policies over what a player sees, never over hidden cards.

A bot is any object with ``choose(observation, legal_actions, rng) -> (action, reason)``: it gets the
:class:`~canasta_tutor.game.Observation` of its seat, the list of legal actions and a ``random.Random``, and
returns one of those actions with a sentence saying why (the coach shows it). Bots are found by name:

>>> from canasta_tutor.bots import get_bot, bot_names
>>> "random" in bot_names()
True
>>> get_bot("random").name
'random'

To add one, write a module here that defines the bot and calls :func:`register` (see ``random_bot.py``),
and add its module name to :data:`BOT_MODULES`.
"""

from __future__ import annotations

import importlib
from typing import Protocol, runtime_checkable

from ..engine.errors import CanastaError, clip
from ._registry import _REGISTRY, register

#: The modules that register bots when first looked up (one file per bot).
BOT_MODULES = ["random_bot", "beginner", "club", "expert"]

_loaded = False


@runtime_checkable
class Bot(Protocol):
    """The bot interface: ``name`` and ``choose(observation, legal_actions, rng) -> (action, reason)``."""

    name: str

    def choose(self, observation, legal_actions, rng):
        ...


def _load() -> None:
    global _loaded
    if _loaded:
        return
    _loaded = True
    for module in BOT_MODULES:
        try:
            importlib.import_module(f"{__name__}.{module}")
        except ModuleNotFoundError as e:   # a bot another engineer has not written yet
            if e.name != f"{__name__}.{module}":
                raise


def bot_names() -> list[str]:
    """The names ``get_bot`` knows."""
    _load()
    return sorted(_REGISTRY)


def get_bot(name: str) -> Bot:
    """A new bot called ``name``; an unknown name raises :class:`CanastaError` listing the known ones."""
    _load()
    try:
        factory = _REGISTRY[name]
    except (KeyError, TypeError):
        raise CanastaError(f"unknown bot {clip(repr(name), 40)}: the bots are {', '.join(sorted(_REGISTRY))}") \
            from None
    return factory()


def explain_difference(observation, learner_action, bot_action) -> str:
    """One sentence on what ``bot_action`` would have done better than ``learner_action`` (see
    :mod:`canasta_tutor.bots.coaching`); ``""`` when they agree."""
    from .coaching import explain_difference as explain

    return explain(observation, learner_action, bot_action)


__all__ = ["Bot", "BOT_MODULES", "bot_names", "explain_difference", "get_bot", "register"]
