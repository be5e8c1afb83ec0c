"""The one family of errors the engine raises.

Every error is a :class:`ValueError` so that callers that only know Python's
built-ins still catch it; each message says *what* is wrong and *where*.
"""

from __future__ import annotations

#: The longest piece of the user's input an error message quotes, and the longest message as a whole.
QUOTE_LIMIT = 80
MESSAGE_LIMIT = 300


#: The current language's ``gettext`` and number grouping, which :mod:`canasta_tutor.engine.i18n` installs when it is
#: loaded (:func:`install_language`): this module is below it (i18n's LanguageError is a CanastaError), so it never
#: imports it; until then, English.
_LANGUAGE = [lambda message: message, lambda n: f"{n:,}"]


def install_language(gettext, grouped) -> None:
    _LANGUAGE[:] = [gettext, grouped]


def clip(text, limit: int = QUOTE_LIMIT) -> str:
    """``text`` (anything: ``str()`` is taken) cut to ``limit`` characters, marking the cut.

    Error messages quote the input they complain about; a quote is clipped so that a 40 MB value
    gives a one-line message.

    >>> clip("x" * 100, 10)
    'xxxxxxxxx…'
    >>> clip("short")
    'short'
    """
    text = text if isinstance(text, str) else str(text)
    return text if len(text) <= limit else text[: limit - 1] + "…"


def clip_repr(value, limit: int = QUOTE_LIMIT) -> str:
    """``repr(value)`` clipped to ``limit`` characters without building a huge repr first."""
    if isinstance(value, (str, bytes)) and len(value) > limit:
        value = value[:limit]
        return repr(value)[: limit - 1] + "…"
    gettext, grouped = _LANGUAGE

    if isinstance(value, (list, tuple, dict, set)) and len(value) > limit:
        return gettext("a {type} of {count} items").format(type=type(value).__name__, count=grouped(len(value)))
    if isinstance(value, int) and not isinstance(value, bool) and value.bit_length() > 64:  # a whole number
        digits = int(value.bit_length() * 0.30103) + 1
        return gettext("a number of about {digits} digits").format(digits=grouped(digits))
    try:
        text = repr(value)
    except (ValueError, RecursionError):
        return gettext("a {type}").format(type=type(value).__name__)
    return clip(text, limit)


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
        self.puzzle_id = None if puzzle_id is None else clip(puzzle_id, 60)
        self.field = None if field is None else clip(field, 60)
        puzzle_id, field = self.puzzle_id, self.field
        self.detail = message = clip(message, MESSAGE_LIMIT)
        gettext = _LANGUAGE[0]

        where = []
        if file:
            where.append(str(file))
        if puzzle_id:
            where.append(gettext("puzzle '{id}'").format(id=puzzle_id))
        if field:
            where.append(gettext("field '{field}'").format(field=field))
        super().__init__(": ".join(where + [message]) if where else message)


class ProgressError(CanastaError):
    """The progress database cannot be read or written; the message names the file and what failed."""

    def __init__(self, message: str, *, path=None):
        self.path = path
        super().__init__(clip(message, MESSAGE_LIMIT + 200))

