"""The registry of puzzle kinds: one :class:`PuzzleKind` record per kind, one module per kind.

A record holds everything the loader, solver, generator, trainer, worksheets, lessons, variants table and CLI
need to know about a kind: its situation fields (required and optional), its answer keys and their types, how
the engine solves it, its hints, the trainer's question, the answer control, how an answer reads, its
generator, what makes its positions hard, when a bot game gives one, and how a worksheet and a worked example
show it. Adding a kind is one module here that calls :func:`register` (or a call to :func:`register` anywhere,
e.g. in a test); the record and the registry are in :mod:`._record`.

>>> list(KINDS)
['card-points', 'meld', 'opening', 'freeze', 'take-pile', 'go-out', 'score-hand']
>>> dict(KINDS["take-pile"].answers), KINDS["take-pile"].answer_control
({'take': <class 'bool'>}, 'yes-no')
"""

from __future__ import annotations

from ._record import (
    ANSWER_CONTROLS,
    CUT_MOMENTS,
    FOLLOWUPS,
    HIDEABLE,
    KINDS,
    TONES,
    Choice,
    PuzzleKind,
    Solution,
    get_kind,
    register,
    registry_version,
    unregister,
)

# isort: off
# the kinds register in this order, the order lessons, menus and the schema list them
from . import card_points, meld, opening, freeze, take_pile, go_out, score_hand  # noqa: E402,F401  (registers)
# isort: on

__all__ = ["ANSWER_CONTROLS", "CUT_MOMENTS", "Choice", "FOLLOWUPS", "HIDEABLE", "KINDS", "PuzzleKind", "Solution",
           "TONES", "get_kind", "register", "registry_version", "unregister"]
