"""The bots by name: :func:`register` fills it, :func:`canasta_tutor.bots.get_bot` reads it.

Apart from the package so that a bot's module, which registers itself, does not import the package that
imports it (:mod:`canasta_tutor.bots` gives both names).
"""

from __future__ import annotations

_REGISTRY: dict[str, object] = {}


def register(name: str, factory) -> None:
    """Make ``get_bot(name)`` return ``factory()`` (a class or a function making a bot)."""
    _REGISTRY[name] = factory
