"""A card as a clickable button (or toggle), coloured like the card."""

from __future__ import annotations

import ipywidgets as widgets

from ..cards import Card


def card_button(card: Card, *, toggle: bool = False, width: str = "60px", height: str = "40px",
                tooltip: str = "") -> widgets.Button | widgets.ToggleButton:
    cls = widgets.ToggleButton if toggle else widgets.Button
    b = cls(description="Joker" if card.rank == "JK" else card.text, tooltip=tooltip or card.text,
            layout=widgets.Layout(width=width, height=height))
    b.style.text_color = "#c62828" if card.is_red else ("#6a1b9a" if card.rank == "JK" else "#1b1b1b")
    b.style.font_weight = "bold"
    b.add_class("ct-card-toggle" if toggle else "ct-card-button")
    return b
