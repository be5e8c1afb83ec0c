"""The one family of errors the engine raises.

Every error is a :class:`ValueError` so that callers that only know Python's
built-ins still catch it; each message says *what* is wrong and *where*.
"""

from __future__ import annotations


class CanastaError(ValueError):
    """Base class of every error raised by canasta-tutor."""


class NotationError(CanastaError):
    """A card or a group of cards could not be read.

    ``token`` is the offending text and ``position`` its 1-based place in the
    group (``None`` for a single card).
    """

    field: str | None = None  # set by the puzzle loader: which field of a puzzle held the card

    def __init__(self, message: str, token: str = "", position: int | None = None):
        super().__init__(message)
        self.token = token
        self.position = position


class RulesError(CanastaError):
    """An unknown preset or an invalid rule option."""


class SituationError(CanastaError):
    """A game situation that cannot occur (three K♥ from two packs, a red three in hand...)."""


class PuzzleError(CanastaError):
    """A puzzle file or one of its puzzles is invalid.

    ``file``, ``puzzle_id`` and ``field`` say where; any of them may be ``None``.
    """

    def __init__(self, message: str, *, file: str | None = None,
                 puzzle_id: str | None = None, field: str | None = None):
        self.file = file
        self.puzzle_id = puzzle_id
        self.field = field
        self.detail = message
        where = []
        if file:
            where.append(str(file))
        if puzzle_id:
            where.append(f"puzzle '{puzzle_id}'")
        if field:
            where.append(f"field '{field}'")
        super().__init__(": ".join(where + [message]) if where else message)

