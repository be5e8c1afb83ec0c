"""Cards to click: a card as a button (or toggle), and a compact deck picker that fills a card box.

The deck picker is two stock ``ToggleButtons`` widgets (the deck, 13 ranks x 4
suits + a joker, and the cards chosen so far), so a page with several of them
stays light; the template's CSS lays the deck out as a grid that fits a
360-px-wide phone. Typing in the box keeps working: the picker reads and
writes the box's text.
"""

from __future__ import annotations

import html

import ipywidgets as widgets

from ..engine.cards import Card
from ..engine.errors import CanastaError
from ..engine.i18n import card_name, get_language
from ..engine.i18n import gettext as _

RANKS = ("A", "K", "Q", "J", "10", "9", "8", "7", "6", "5", "4", "3", "2")
SUITS = "SHDC"
SEPARATOR = "|"


def card_button(card: Card, *, toggle: bool = False, width: str = "60px", height: str = "44px",
                tooltip: str = "") -> widgets.Button | widgets.ToggleButton:
    cls = widgets.ToggleButton if toggle else widgets.Button
    b = cls(description=_("Joker") if card.rank == "JK" else card.text, tooltip=tooltip or card.text,
            layout=widgets.Layout(width=width, height=height))
    b.style.text_color = "#c62828" if card.is_red else ("#6a1b9a" if card.rank == "JK" else "#1b1b1b")
    b.style.font_weight = "bold"
    b.add_class("ct-card-toggle" if toggle else "ct-card-button")
    return b


def _label(code: str) -> str:
    return "★" if code == "JK" else Card(code).text


def _name(code: str) -> str:
    """A card in words for a tooltip: the language's own (``hartenvrouw``); English keeps digits ("7 of hearts")."""
    if get_language() != "en":
        return card_name(Card(code))
    if code == "JK":
        return "joker"
    card = Card(code)
    suit = {"S": "spades", "H": "hearts", "D": "diamonds", "C": "clubs"}[code[-1]]
    rank = {"A": "ace", "K": "king", "Q": "queen", "J": "jack"}.get(card.rank, card.rank)
    return f"{rank} of {suit}"


DECK = tuple(rank + suit for suit in SUITS for rank in RANKS) + ("JK",)


class DeckPicker(widgets.VBox):
    """Tap a card of the deck to add it to a card box; tap a chosen card to take it out again.

    ``box``: the ``Text`` widget holding the cards as codes (``7H JK``); with
    ``melds=True`` a "new meld" button adds the ``|`` that separates melds.
    ``on_pick(code)`` (optional) is called instead of writing to a box: the
    lessons' card counter and meld builder keep their own list.
    """

    def __init__(self, box: widgets.Text | None = None, *, melds: bool = False, on_pick=None, on_remove=None,
                 chosen: bool = True, **kwargs):
        super().__init__(**kwargs)
        self.box = box
        self._on_pick = on_pick
        self._on_remove = on_remove
        self.deck = widgets.ToggleButtons(options=[(_label(c), c) for c in DECK], value=None,
                                          tooltips=[_("add the {card}").format(card=_name(c)) for c in DECK],
                                          layout=widgets.Layout(width="100%"))
        self.deck.add_class("ct-deck")
        self.deck.observe(self._picked, "value")
        self.chosen = widgets.ToggleButtons(options=[], value=None, layout=widgets.Layout(width="100%"))
        self.chosen.add_class("ct-chosen")
        self.chosen.observe(self._removed, "value")
        chosen_text = html.escape(_("Chosen (tap one to take it out):"))
        self.chosen_label = widgets.HTML(f"<small>{chosen_text}</small>")
        self.new_meld = widgets.Button(description=_("| new meld"), tooltip=_("start another meld"),
                                       layout=widgets.Layout(width="auto"))
        self.new_meld.on_click(lambda _b: self.add(SEPARATOR))
        self.clear_button = widgets.Button(description=_("Clear"), tooltip=_("take every card out"),
                                           layout=widgets.Layout(width="auto"))
        self.clear_button.on_click(lambda _b: self.clear())
        tools = [self.new_meld] if melds else []
        if box is not None:
            tools.append(self.clear_button)
        children = [self.deck]
        if tools:
            children.append(widgets.HBox(tools, layout=widgets.Layout(flex_flow="row wrap")))
        if chosen and box is not None:
            children += [self.chosen_label, self.chosen]
            box.observe(lambda _c: self._show_chosen(), "value")
            self._show_chosen()
        self.children = children
        self.add_class("ct-picker")

    # the box's text as tokens: card codes and separators, as typed
    def tokens(self) -> list[str]:
        if self.box is None:
            return []
        return self.box.value.replace(SEPARATOR, f" {SEPARATOR} ").split()

    def _write(self, tokens: list[str]) -> None:
        self.box.value = " ".join(tokens)

    def add(self, code: str) -> None:
        """What tapping ``code`` in the deck does (``|`` starts a new meld)."""
        if self._on_pick is not None:
            self._on_pick(Card(code))
            return
        if self.box is None:
            return
        tokens = self.tokens()
        if code == SEPARATOR and (not tokens or tokens[-1] == SEPARATOR):
            return  # no empty meld
        self._write(tokens + [code])

    def remove(self, index: int) -> None:
        """What tapping the ``index``-th chosen card does."""
        if self._on_remove is not None:
            self._on_remove(index)
            return
        tokens = self.tokens()
        if 0 <= index < len(tokens):
            tokens.pop(index)
            self._write(tokens)

    def clear(self) -> None:
        if self.box is not None:
            self.box.value = ""

    def _picked(self, change) -> None:
        code = change["new"]
        if code is None:
            return
        self.deck.value = None  # ready for the next tap, even on the same card
        self.add(code)

    def _removed(self, change) -> None:
        index = change["new"]
        if index is None:
            return
        self.chosen.value = None
        self.remove(index)

    def _show_chosen(self) -> None:
        tokens = self.tokens()
        options = []
        for i, token in enumerate(tokens):
            try:
                label = _label(Card(token).code)
            except CanastaError:  # a separator, or a mistyped code: shown as typed, so that it can be taken out too
                label = token
            options.append((label, i))
        with self.chosen.hold_trait_notifications():
            self.chosen.options = options
            self.chosen.value = None
        self.chosen.tooltips = [_("take {card} out").format(card=label) for label, _i in options]
        self.chosen_label.layout.display = "" if tokens else "none"


class CardInputs(widgets.VBox):
    """A "pick cards by tapping" switch for an explorer's card boxes: one deck picker, aimed at one box at a time.

    ``boxes``: ``(name, Text box, holds melds)`` for each box; the pickers are made when first opened, so a
    page whose learners type never pays for them.
    """

    def __init__(self, boxes, *, open_: bool = False, **kwargs):
        super().__init__(**kwargs)
        self._boxes = {name: (box, melds) for name, box, melds in boxes}
        self.pickers: dict[str, DeckPicker] = {}
        self.switch = widgets.ToggleButton(value=False, description=_("Pick cards by tapping"),
                                           tooltip=_("show a deck: tap cards to put them in a box"),
                                           layout=widgets.Layout(width="auto", align_self="flex-start"))
        self.target = widgets.ToggleButtons(options=list(self._boxes), description=_("Cards go to:"),
                                            style={"description_width": "initial"}, layout=widgets.Layout(width="100%"))
        self.target.add_class("ct-target")
        self.area = widgets.VBox()
        self.switch.observe(lambda _c: self._show(), "value")
        self.target.observe(lambda _c: self._show(), "value")
        self.children = [self.switch, self.area]
        self.add_class("ct-card-inputs")
        self.switch.value = open_

    def picker(self, name: str | None = None) -> DeckPicker:
        """The picker that fills box ``name`` (default: the chosen one)."""
        name = name or self.target.value
        if name not in self.pickers:
            box, melds = self._boxes[name]
            self.pickers[name] = DeckPicker(box, melds=melds)
        return self.pickers[name]

    def _show(self) -> None:
        self.switch.description = _("Hide the deck") if self.switch.value else _("Pick cards by tapping")
        if not self.switch.value:
            self.area.children = []
            return
        picker = self.picker()
        self.area.children = ([self.target] if len(self._boxes) > 1 else []) + [picker]
