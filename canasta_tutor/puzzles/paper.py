"""What a worksheet prints for a situation: rows of ``(label, cards or text, drawing options)``.

:mod:`canasta_tutor.puzzles.worksheet` draws the rows; a kind's record says which rows its puzzles print
(:meth:`PuzzleKind.worksheet_rows <canasta_tutor.puzzles.kinds.PuzzleKind.worksheet_rows>`). By default those are
the fields of its ``layout``, each printed as :data:`ROWS` says, under the kind's ``labels``; a kind that prints
otherwise composes its rows from the helpers here. A text row has the text where the cards would be; the options
are ``small`` (smaller cards) and ``top_highlight`` (shade the last card, the top of the pile). The labels and
texts are English msgids (a kind's ``labels`` too), translated here, when the rows are made for a sheet.

>>> from canasta_tutor.engine.situation import Situation
>>> score_rows(Situation(score=1500), minimum=True)
[('', "Your team's score: 1500    opening minimum: 90", {})]
"""

from __future__ import annotations

from ..engine.i18n import N_
from ..engine.i18n import gettext as _
from ..engine.scoring import parse_went_out
from ..engine.situation import Situation

#: One printed row: a label ("" for none), the cards to draw (or a line of text), and how to draw them.
Row = tuple[str, object, dict]
#: What the melds row says when the team has not melded.
NO_MELDS = N_("none yet: your team has not melded")
_CARD_TITLES = {"cards": N_("Cards"), "hand": N_("Your hand"), "red_threes": N_("Red threes")}
DEFAULT_SCORE_LABEL = N_("Your team's score")


def _t(text: str) -> str:
    """``text`` (a msgid) in the current language; "" stays "" (gettext would give the catalog's header)."""
    return _(text) if text else ""


def cards_rows(s: Situation, field: str = "cards", label: str = "", *, small: bool = False) -> list[Row]:
    """One group of cards under its heading."""
    return [(_t(label or _CARD_TITLES.get(field, field)), s.get(field, ()), {"small": True} if small else {})]


def melds_rows(s: Situation, label: str = N_("Your team's melds"), *, field: str = "melds",
               empty: str = NO_MELDS) -> list[Row]:
    """The melds, small, one row each (the label on the first), or ``empty`` when there are none."""
    melds = s.get(field, [])
    label, empty = _t(label), _t(empty)
    if not melds:
        return [(label, empty, {})]
    return [(label if i == 0 else "", meld, {"small": True}) for i, meld in enumerate(melds)]


def pile_rows(s: Situation) -> list[Row]:
    """The discard pile, bottom to top, its top card shaded."""
    return [(_("Discard pile (bottom to top; the top card is shaded)"), s.get("pile", ()),
             {"small": True, "top_highlight": True})]


def flag_rows(s: Situation, field: str, text: str) -> list[Row]:
    """A line of text when the field is set (``going_out``, ``stock_empty``), else nothing."""
    return [("", _t(text), {})] if s.get(field) else []


def hands_rows(s: Situation) -> list[Row]:
    """The cards left in each hand of the side, the learner's first."""
    return [(_("Cards left in your hand") if i == 1 else _("Cards left in your partner's hand"), hand,
             {"small": True})
            for i, hand in enumerate(s.get("hands", []), 1)]


def went_out_rows(s: Situation) -> list[Row]:
    went = parse_went_out(s.get("went_out", False))
    return [("", _("Your team went out concealed.") if went == "concealed" else
             _("Your team went out.") if went else _("Your team did not go out."), {})]


def score_rows(s: Situation, label: str = "", *, minimum: bool) -> list[Row]:
    """The team's score, and (``minimum``) the opening minimum at that score."""
    score = s.get("score", 0)
    line = _("{label}: {value}").format(label=_t(label or DEFAULT_SCORE_LABEL), value=score)
    if minimum:
        line += "    " + _("opening minimum: {minimum}").format(minimum=s.rules.opening_minimum(score))
    return [("", line, {})]


def _count_rows(text: str):
    def rows(s, field, label, hidden):
        value = s.get(field)
        return [] if value is None else [("", _("{label}: {value}").format(label=_t(label or text), value=value),
                                          {})]
    return rows


#: How each situation field prints: ``rows(situation, field, label, hidden) -> [Row, ...]``, where ``hidden`` is
#: what the kind hides while a learner answers (of :data:`~canasta_tutor.puzzles.kinds.HIDEABLE`).
ROWS = {
    "cards": lambda s, field, label, hidden: cards_rows(s, field, label),
    "hand": lambda s, field, label, hidden: cards_rows(s, field, label),
    "red_threes": lambda s, field, label, hidden: cards_rows(s, field, label, small=True),
    "pile": lambda s, field, label, hidden: pile_rows(s),
    "melds": lambda s, field, label, hidden: melds_rows(s, label or N_("Your team's melds")),
    "opponents_melds": lambda s, field, label, hidden: melds_rows(s, label or N_("The other team's melds"),
                                                                 field=field, empty=N_("none")),
    "hands": lambda s, field, label, hidden: hands_rows(s),
    "went_out": lambda s, field, label, hidden: went_out_rows(s),
    "score": lambda s, field, label, hidden: score_rows(s, label, minimum="minimum" not in hidden),
    "going_out": lambda s, field, label, hidden: flag_rows(s, field, label or N_("You are going out this turn.")),
    "stock_empty": lambda s, field, label, hidden: flag_rows(s, field, label or N_("The stock is empty.")),
    "concealed_canastas": _count_rows(N_("Canastas melded concealed")),
}


def layout_rows(kind, s: Situation) -> list[Row]:
    """The rows of a situation as ``kind`` lays it out: each field of its ``layout`` in order, under its
    ``labels``, leaving out what the kind ``hides`` while a learner answers (a worksheet is answered)."""
    hidden = set(kind.hides)
    return [row for field in kind.layout for row in ROWS[field](s, field, kind.labels.get(field, ""), hidden)]


__all__ = ["NO_MELDS", "ROWS", "Row", "cards_rows", "flag_rows", "hands_rows", "layout_rows", "melds_rows",
           "pile_rows", "score_rows", "went_out_rows"]
