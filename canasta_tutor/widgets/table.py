"""The card table, drawn in the page: :class:`CardTable`, an anywidget whose script and styles ship in the package
(``static/table.js``, ``static/table.css``: nothing is fetched from another host). It shows a
:class:`~canasta_tutor.widgets.table_model.TableView` (see there what it holds): partner across, opponents left
and right as card backs with counts, each side's melds in front of it, the stock and the pile in the middle, the
player's hand at the bottom as cards (:func:`~canasta_tutor.widgets.render.card_html`, the lessons' drawing).

* Cards are selected by click or tap, or by keyboard: the hand is a listbox (arrow keys move along it, Space
  selects, Enter plays the highlighted move, Up and Down choose another move).
* The moves legal now are buttons (:meth:`CardTable.show`'s ``moves``); pressing one (or Enter) sends a
  ``press`` message, handled by the callbacks given to :meth:`CardTable.on_press`.
* Every move is announced in a live region (:meth:`CardTable.announce`), and stays in the log beside the table.
* :meth:`CardTable.replay` shows a sequence of views with Previous and Next (the coach's replays).

The page and the kernel speak only through the widget's comm (state updates and ``press`` messages: comm_msg),
which the kernel gate of ``canasta-tutor serve`` and the hub lets through.
"""

from __future__ import annotations

from pathlib import Path

import anywidget
import traitlets

from ..engine.cards import ALL_CARDS
from .render import card_html
from .table_model import TableView, table_words

STATIC = Path(__file__).resolve().parent / "static"


def card_faces() -> dict[str, dict[str, str]]:
    """Every card's face as the lessons draw it (:func:`card_html`), small and normal, by code; sent once."""
    return {size: {c.code: card_html(c, size=size, title="") for c in ALL_CARDS} for size in ("small", "normal")}


class CardTable(anywidget.AnyWidget):
    """The card table (see the module's description). Python sets :attr:`view` and the moves through
    :meth:`show`; the page sets :attr:`selected` (indices into the view's ``hand``) and :attr:`target`."""

    _esm = STATIC / "table.js"
    _css = STATIC / "table.css"

    view = traitlets.Dict().tag(sync=True)
    frames = traitlets.List(traitlets.Dict()).tag(sync=True)
    frame = traitlets.Int(0).tag(sync=True)
    faces = traitlets.Dict().tag(sync=True)
    selected = traitlets.List(traitlets.Int()).tag(sync=True)
    moves = traitlets.List(traitlets.Dict()).tag(sync=True)
    defaults = traitlets.List(traitlets.Unicode()).tag(sync=True)
    targets = traitlets.List(traitlets.Dict()).tag(sync=True)
    target = traitlets.Int(None, allow_none=True).tag(sync=True)
    log = traitlets.List(traitlets.Dict()).tag(sync=True)
    announcement = traitlets.Dict().tag(sync=True)
    #: the words the script writes itself, in the language of the page (:func:`~.table_model.table_words`)
    words = traitlets.Dict().tag(sync=True)

    def __init__(self, **kwargs):
        super().__init__(faces=card_faces(), words=table_words(), **kwargs)
        self._press_callbacks = []
        self._why_callbacks = []
        self.on_msg(self._message)

    # --- Python's side ---------------------------------------------------------------------------------------
    def show(self, view: TableView, *, moves=(), defaults=(), targets=(), log=(), selected=()) -> None:
        """Show ``view``; ``moves``: ``(kind, label)`` for each move legal now; ``defaults``: the move Enter plays
        for each number of selected cards (0, 1, 2...; the last for more); ``targets``: ``(index, label)`` of the
        melds a card may go onto; ``log``: ``(kind, text)`` lines, or ``(kind, text, why)`` for a move with a *Why?*
        button (``why``: ``{"index": ..., "label": ...}``, sent back in a ``why`` message). One update reaches the
        page."""
        with self.hold_sync():
            self.words = table_words()   # the language now (a page may have changed it since the last view)
            self.frames = []
            self.frame = 0
            self.moves = [{"kind": k, "label": label} for k, label in moves]
            self.defaults = list(defaults)
            self.targets = [{"index": i, "label": label} for i, label in targets]
            if self.target not in {i for i, _label in targets}:
                self.target = targets[0][0] if targets else None
            self.log = [{"kind": line[0], "text": line[1], **({"why": line[2]} if len(line) > 2 else {})}
                        for line in log]
            self.selected = [i for i in selected if 0 <= i < len(view.hand)]
            self.view = view.to_json()

    def replay(self, views) -> None:
        """Show ``views`` (a list of :class:`TableView`, e.g. from :func:`~.table_model.replay_views`) one at a
        time, with Previous and Next; no move can be played meanwhile. :meth:`show` ends it."""
        views = list(views)
        if not views:
            raise ValueError("replay: no view to show")
        with self.hold_sync():
            self.words = table_words()
            self.frames = [v.to_json() for v in views]
            self.frame = 0

    def announce(self, text: str) -> None:
        """Say ``text`` in the table's live region (a screen reader reads it out), even if it is said again."""
        n = int(self.announcement.get("n", 0)) + 1
        self.announcement = {"n": n, "text": str(text)}

    def on_press(self, callback) -> None:
        """Call ``callback(kind)`` when a move's button (or Enter) is pressed in the page (the selected cards and the
        target meld are set first)."""
        self._press_callbacks.append(callback)

    def on_why(self, callback) -> None:
        """Call ``callback(index)`` when a log line's *Why?* button is pressed (``index``: its ``why`` index)."""
        self._why_callbacks.append(callback)

    def ask_why(self, index: int) -> None:
        """What pressing the *Why?* button of the log line with ``index`` does (a test's click)."""
        for callback in self._why_callbacks:
            callback(index)

    def press(self, kind: str) -> None:
        """What pressing the button of ``kind`` does (a test's click)."""
        for callback in self._press_callbacks:
            callback(kind)

    @property
    def hand(self) -> list[str]:
        return list(self.view.get("hand", []))

    # --- the page's messages -------------------------------------------------------------------------------------
    def _message(self, _widget, content, _buffers) -> None:
        if isinstance(content, dict) and content.get("event") == "why":
            index = content.get("index")
            if isinstance(index, int) and index in {e["why"]["index"] for e in self.log if "why" in e}:
                self.ask_why(index)
            return
        if not isinstance(content, dict) or content.get("event") != "press":
            return
        kind = content.get("kind")
        if not isinstance(kind, str) or kind not in {m["kind"] for m in self.moves}:
            return  # a press of a move not offered (an old page's): nothing happens
        chosen = content.get("selected")
        if isinstance(chosen, list) and all(isinstance(i, int) for i in chosen):
            self.selected = [i for i in chosen if 0 <= i < len(self.hand)]
        target = content.get("target")
        if isinstance(target, int) and target in {t["index"] for t in self.targets}:
            self.target = target
        self.press(kind)


__all__ = ["CardTable", "card_faces"]
