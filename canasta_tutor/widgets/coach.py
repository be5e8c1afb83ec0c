"""Lesson 10: play a hand with a coach (``PlayAHand()``), drawn with ipywidgets over :mod:`canasta_tutor.bots.coach`.

The learner's cards are toggle buttons (click to select); a button for each kind of action legal now acts on the
selected cards; the engine refuses an illegal choice with its reason, in a sentence; the bots' turns are told in
their own sentences; after each of the learner's turns the coach says what it would have done differently.
Every button can be reached with Tab and pressed with Enter or Space; the layout wraps at 360 px.
Nothing here knows a rule: the game model decides, the coach compares.
"""

from __future__ import annotations

import html

import ipywidgets as widgets

from ..bots.coach import (
    KIND_LABELS,
    MAX_HAND_NUMBER,
    RULES_CHOICES,
    CoachedHand,
    _sentence,
    available_levels,
    bot_words,
    default_level,
)
from ..engine.cards import Card, sort_key
from ..engine.errors import CanastaError
from ..engine.rules import PRESETS
from ..game import IllegalMove
from .cardbuttons import card_button
from .render import cards_html, melds_html, pile_html
from .variants import short_title

_BAD = "#b71c1c"
_COACH = "#0d47a1"
_LOG_LINES = 14


def _box(children=(), **layout) -> widgets.HBox:
    return widgets.HBox(list(children), layout=widgets.Layout(flex_flow="row wrap", max_width="100%", **layout))


class PlayAHand(widgets.VBox):
    """Play one hand against bots, with a coach. ``rules``: ``classic``, ``classic-2p`` or ``samba``;
    ``level``: the bots' level; ``seed``: the hand number (the same number deals the same cards)."""

    def __init__(self, rules: str = "classic", level: str | None = None, seed: int = 1, **kwargs):
        super().__init__(**kwargs)
        self.rules_choice = widgets.Dropdown(options=[(short_title(PRESETS[n]), n) for n in RULES_CHOICES],
                                             value=rules, description="Rules:",
                                             style={"description_width": "initial"},
                                             layout=widgets.Layout(width="auto", max_width="100%"))
        levels = available_levels()
        self.level_choice = widgets.Dropdown(options=[(f"{n} bots", n) for n in levels],
                                             value=level if level in levels else default_level(),
                                             description="Other players:", style={"description_width": "initial"},
                                             layout=widgets.Layout(width="auto", max_width="100%"))
        self.number = widgets.BoundedIntText(value=seed, min=1, max=MAX_HAND_NUMBER, description="Hand number:",
                                             style={"description_width": "initial"},
                                             layout=widgets.Layout(width="14em", max_width="100%"))
        self.deal_button = widgets.Button(description="Deal this hand", tooltip="deal the hand with this number "
                                          "(the same number always deals the same cards)",
                                          layout=widgets.Layout(width="auto"))
        self.deal_button.on_click(lambda _b: self.deal())
        self.next_button = widgets.Button(description="Next hand", tooltip="deal the hand with the next number",
                                          layout=widgets.Layout(width="auto"))
        self.next_button.on_click(lambda _b: self.deal(self.number.value % MAX_HAND_NUMBER + 1))
        self.table = widgets.HTML(layout=widgets.Layout(max_width="100%"))
        self.log_box = widgets.HTML(layout=widgets.Layout(max_width="100%"))
        self.coach_box = widgets.HTML(layout=widgets.Layout(max_width="100%"))
        self.feedback = widgets.HTML(layout=widgets.Layout(max_width="100%"))
        self.hand_label = widgets.HTML()
        self.hand_box = _box()
        self.target = widgets.Dropdown(description="onto:", style={"description_width": "initial"},
                                       layout=widgets.Layout(width="auto", max_width="100%"))
        self.buttons: dict[str, widgets.Button] = {}
        for kind, label in KIND_LABELS.items():  # made once, shown when legal: keyboard focus stays where it was
            b = widgets.Button(description=label, button_style="primary" if kind in ("draw", "discard") else "",
                               layout=widgets.Layout(width="auto", display="none"))
            b.on_click(lambda _b, k=kind: self.press(k))
            b.add_class(f"ct-action-{kind}")
            self.buttons[kind] = b
        self.actions = _box(list(self.buttons.values()) + [self.target])
        self.undo_button = widgets.Button(description="Undo my last turn", tooltip="take back your last turn",
                                          layout=widgets.Layout(width="auto"))
        self.undo_button.on_click(lambda _b: self.undo())
        self.hint_button = widgets.Button(description="What would the coach do?",
                                          tooltip="the coach's move in this position, and why",
                                          layout=widgets.Layout(width="auto"))
        self.hint_button.on_click(lambda _b: self.hint())
        self.sheet = widgets.HTML(layout=widgets.Layout(max_width="100%"))
        self.toggles: list[widgets.ToggleButton] = []
        self.children = [
            _box([self.rules_choice, self.level_choice]),
            # the buttons sit beside the number box, not beside its label (which goes above the box on a phone)
            _box([self.number, self.deal_button, self.next_button], align_items="flex-end"),
            self.table, self.log_box, self.coach_box, self.feedback,
            self.hand_label, self.hand_box, self.actions, _box([self.hint_button, self.undo_button]), self.sheet]
        self.add_class("ct-coached-hand")
        self.hand: CoachedHand | None = None
        self.deal(seed)
        self.rules_choice.observe(lambda _c: self.deal(), "value")
        self.level_choice.observe(lambda _c: self.deal(), "value")

    # --- what a click does (tests call these as the buttons do) -----------------------------------------------
    def deal(self, seed: int | None = None) -> None:
        """Deal hand number ``seed`` (default: the number in the box) with the chosen rules and bots."""
        if seed is not None:
            self.number.value = seed
        try:
            self.hand = CoachedHand(self.rules_choice.value, int(self.number.value), level=self.level_choice.value)
        except CanastaError as e:
            self._say(str(e), error=True)
            return
        self._say("")
        self.coach_box.value = ""
        self.update()

    def select(self, *codes: str) -> None:
        """Select exactly these cards of the hand (one card per code, as clicking them would)."""
        wanted = [Card(c) for c in codes]
        for toggle, card in zip(self.toggles, self._hand_cards()):
            if card in wanted:
                wanted.remove(card)
                toggle.value = True
            else:
                toggle.value = False
        if wanted:
            raise CanastaError(f"select: {' '.join(c.code for c in wanted)} not in your hand")

    @property
    def selected(self) -> list[Card]:
        return [card for toggle, card in zip(self.toggles, self._hand_cards()) if toggle.value]

    def press(self, kind: str) -> None:
        """Press the button for ``kind`` (``draw``, ``take_pile``, ``meld``, ``lay_off``, ``discard``...)."""
        hand = self.hand
        if hand is None:
            return
        try:
            hand.play(hand.move(kind, self.selected, self.target.value))
        except IllegalMove as e:
            self._say(_refusal(e.verdict), error=True)
            return
        except CanastaError as e:
            self._say(str(e), error=True)
            return
        self._say("")
        self.update()

    def hint(self) -> None:
        """Say what the coach would do now, and why."""
        if self.hand is None or not self.hand.your_turn:
            self._say("It is not your turn.", error=True)
            return
        action, why = self.hand.advice()
        move = action.describe(self.hand.observation().melds)
        text = f"The coach would {move[:1].lower()}{move[1:]}"
        self._say(_sentence(text) + (f" {bot_words(move, why)}" if why else ""))

    def undo(self) -> None:
        if self.hand is not None and self.hand.undo():
            self._say("")
            self.update()
        else:
            self._say("There is no turn of yours to take back yet.", error=True)

    # --- drawing --------------------------------------------------------------------------------------------------
    def _say(self, text: str, *, error: bool = False) -> None:
        if not text:
            self.feedback.value = ""
            return
        colour, cls, role = (_BAD, "ct-refusal", "alert") if error else (_COACH, "ct-hint", "status")
        self.feedback.value = (f"<div class='ct-feedback {cls}' role='{role}' tabindex='-1' style='color:{colour}'>"
                               f"{html.escape(text)}</div>")

    def _hand_cards(self) -> list[Card]:
        return sorted(self.hand.observation().hand, key=sort_key) if self.hand is not None else []

    def update(self) -> None:
        """Draw the hand as it is now. The table (with the move number) is written last, so that a page showing
        the new move number shows the new cards and buttons too."""
        hand = self.hand
        obs = hand.observation()
        old = self.toggles
        self.toggles = [card_button(c, toggle=True, width="60px" if c.rank == "JK" else "46px", height="44px",
                                    tooltip=f"select {'the joker' if c.rank == 'JK' else c.text}")
                        for c in self._hand_cards()]
        for toggle in self.toggles:
            toggle.observe(lambda _c: self._show_selected(), "value")
        self.hand_box.children = self.toggles
        for toggle in old:  # the old cards' views go away with them
            toggle.close()
        self._show_selected()
        kinds = hand.legal_kinds()
        for kind, button in self.buttons.items():
            button.layout.display = "" if kind in kinds else "none"
        targets = hand.lay_off_targets()
        self.target.options = [(f"{i + 1}: {' '.join(c.text for c in meld)}", i) for i, meld in targets]
        self.target.layout.display = "" if "lay_off" in kinds or "swap" in kinds else "none"
        self.undo_button.disabled = not hand.can_undo
        self.hint_button.disabled = not hand.your_turn
        lines = hand.log[-_LOG_LINES:]
        items = "".join(f"<li class='ct-event ct-event-{e.kind}'>{html.escape(e.text)}</li>" for e in lines
                        if e.kind != "coach")
        self.log_box.value = (f"<div class='ct-log' role='log' aria-label='what happened'><b>What happened</b>"
                              f"<ul style='margin:2px 0;padding-left:1.2em'>{items}</ul></div>")
        if hand.coach:
            head, *rest = hand.coach
            more = "".join(f"<li>{html.escape(t)}</li>" for t in rest)
            self.coach_box.value = (f"<div class='ct-coach ct-feedback' role='status' tabindex='-1' "
                                    f"style='border-left:4px solid {_COACH};padding:4px 10px;color:{_COACH}'>"
                                    f"<b>Coach:</b> {html.escape(head)}"
                                    f"{f'<ul style=margin:2px 0>{more}</ul>' if more else ''}</div>")
        else:
            self.coach_box.value = ""
        self.sheet.value = self._sheet_html(hand) if hand.over else ""
        self.table.value = self._table_html(hand, obs)

    def _show_selected(self) -> None:
        chosen = self.selected
        what = (f"selected: {' '.join(c.text for c in chosen)}" if chosen else "click cards to select them")
        self.hand_label.value = (f"<b>Your hand</b> ({_cards(len(self.toggles))}; <span class='ct-selected'>"
                                 f"{html.escape(what)}</span>)")

    def _table_html(self, hand: CoachedHand, obs) -> str:
        turn = ("<b>Your turn.</b>" if hand.your_turn else
                "The hand is over." if hand.over else f"{hand.name(hand.state.current_player)} plays.")
        others = ", ".join(f"{hand.name(p)}: {_cards(n)}" for p, n in enumerate(obs.hand_sizes)
                           if p != hand.seat)
        rules = hand.rules
        moves = len(hand.state.history)
        theirs = [c for t, reds in enumerate(obs.table_red_threes) if t != obs.team for c in reds]
        parts = [f"<div class='ct-turn' data-moves='{moves}'>Hand {hand.seed} · {html.escape(short_title(rules))} · "
                 f"move {moves + 1} · {turn}</div>",
                 f"<div><small>{html.escape(others)} · stock: {_cards(obs.stock_left)}</small></div>",
                 melds_html(obs.melds, rules, title="Your team's melds"),
                 melds_html(obs.opponents_melds, rules, title="Opponents' melds").replace(
                     "your team has not melded", "they have not melded"),
                 f"<div><b>Red threes</b>: yours {cards_html(obs.red_threes, size='small', empty='none')}; "
                 f"theirs {cards_html(theirs, size='small', empty='none')}</div>",
                 pile_html(obs.pile)]
        return "<div class='ct-table' style='max-width:100%'>" + "".join(parts) + "</div>"

    def _sheet_html(self, hand: CoachedHand) -> str:
        parts = ["<style>.ct-score-sheet th, .ct-score-sheet td:last-child { white-space: nowrap; }</style>"
                 "<div class='ct-score-sheet' role='status'><h4 style='margin:6px 0'>Score sheet</h4>"]
        for team, sheet in hand.score_sheets():
            names = [hand.name(p) for p in team]
            who = " and ".join(names[:1] + [n[:1].lower() + n[1:] for n in names[1:]])
            parts.append(f"<div><b>{html.escape(who)}</b>: {sheet.total} points</div>"
                         f"<div class='ct-scroll'>{sheet.to_html()}</div>")
        parts.append("<div>Press <i>Next hand</i> to play another, or type a hand number and "
                     "<i>Deal this hand</i>.</div></div>")
        return "".join(parts)


def _cards(n: int) -> str:
    """'1 card', '11 cards': a count at the table, in figures."""
    return f"{n} card" if n == 1 else f"{n} cards"


def _refusal(verdict) -> str:
    """The engine's reasons for refusing a move, as the learner reads them."""
    return "Not allowed: " + " ".join(r.text for r in verdict.reasons)


__all__ = ["PlayAHand"]
