"""Lesson 10: play a hand with a coach (``PlayAHand()``), at a card table (:class:`~.table.CardTable`) over
:mod:`canasta_tutor.bots.coach`.

The table shows the hand as the learner sees it (partner across, opponents left and right, the melds, the stock and
the pile, the learner's cards at the bottom); the learner selects cards by click, tap or keyboard and plays the
moves legal now from buttons (or Enter); the engine refuses an illegal choice with its reason, in a sentence; the
bots' moves are shown where they happened, announced in the table's live region and kept in its log; after each of
the learner's turns the coach says what it would have done differently.
Nothing here knows a rule: the game model decides, the coach compares.
"""

from __future__ import annotations

import html
import re

import ipywidgets as widgets

from ..bots.coach import (
    MAX_HAND_NUMBER,
    RULES_CHOICES,
    CoachedHand,
    _sentence,
    available_levels,
    bot_words,
    default_level,
    kind_label,
)
from ..classroom.mistakes import MistakeStore
from ..engine.cards import Card, format_cards
from ..engine.errors import CanastaError
from ..engine.i18n import NP_, ngettext, pgettext
from ..engine.i18n import gettext as _
from ..engine.rules import PRESETS
from ..game import DISCARD, DRAW, END, GO_OUT, LAY_OFF, MELD, SWAP, TAKE_PILE, IllegalMove
from ..puzzles.decisions import puzzle_from_decision
from .identity import signed_in, signed_in_id
from .table import CardTable
from .table_model import announce, move_view, replay_views, table_view
from .variants import short_title

_BAD = "#b71c1c"
_COACH = "#0d47a1"
#: How many lines of the hand's story the table's log keeps.
_LOG_LINES = 60
#: The move Enter plays, by how many cards are selected (none, one, two or more): the first of each list that is
#: legal now.
_DEFAULT_ORDER = ((DRAW, END, GO_OUT, DISCARD, TAKE_PILE, MELD),
                  (TAKE_PILE, DISCARD, LAY_OFF, SWAP, MELD, DRAW),
                  (TAKE_PILE, MELD, LAY_OFF, GO_OUT, DISCARD, DRAW))


def _box(children=(), **layout) -> widgets.HBox:
    return widgets.HBox(list(children), layout=widgets.Layout(flex_flow="row wrap", max_width="100%", **layout))


def default_moves(kinds) -> list[str]:
    """The move Enter plays with none, one, and two or more cards selected, of the legal ``kinds``.

    >>> default_moves(["draw", "take_pile"]), default_moves(["meld", "lay_off", "discard"])
    (['draw', 'take_pile', 'take_pile'], ['discard', 'discard', 'meld'])
    """
    kinds = list(kinds)
    out = []
    for order in _DEFAULT_ORDER:
        out.append(next((k for k in order if k in kinds), kinds[0] if kinds else ""))
    return out


#: The bots' levels as the menu names them (context "bot level"); a level registered later reads "{level} bots".
_LEVEL_MARKS = dict((NP_("bot level", "random bots"), NP_("bot level", "beginner bots"),
                     NP_("bot level", "club bots"), NP_("bot level", "expert bots")))


def level_label(level: str) -> str:
    """``'beginner bots'`` in the current language."""
    english = f"{level} bots"
    if ("bot level", english) in {("bot level", m) for m in _LEVEL_MARKS.values()}:
        return pgettext("bot level", english)
    return _("{level} bots").format(level=level)


class PlayAHand(widgets.VBox):
    """Play one hand against bots, with a coach. ``rules``: ``classic``, ``classic-2p`` or ``samba``;
    ``level``: the bots' level; ``seed``: the hand number (the same number deals the same cards)."""

    def __init__(self, rules: str = "classic", level: str | None = None, seed: int = 1, *, learner: str | None = None,
                 store=None, **kwargs):
        super().__init__(**kwargs)
        if learner is None:  # the signed-in learner: their costly decisions are kept as their puzzles
            learner, _ask = signed_in(learner="learner", ask_name=False)
        self.learner, self.learner_id = learner, signed_in_id(learner)
        self.store = store          # where the costly decisions go after the hand (default: the progress database)
        self._kept_hand = None      # the hand whose decisions were kept
        self.rules_choice = widgets.Dropdown(options=[(short_title(PRESETS[n]), n) for n in RULES_CHOICES],
                                             value=rules, description=_("Rules:"),
                                             style={"description_width": "initial"},
                                             layout=widgets.Layout(width="auto", max_width="100%"))
        levels = available_levels()
        self.level_choice = widgets.Dropdown(options=[(level_label(n), n) for n in levels],
                                             value=level if level in levels else default_level(),
                                             description=_("Other players:"), style={"description_width": "initial"},
                                             layout=widgets.Layout(width="auto", max_width="100%"))
        self.number = widgets.BoundedIntText(value=seed, min=1, max=MAX_HAND_NUMBER, description=_("Hand number:"),
                                             style={"description_width": "initial"},
                                             layout=widgets.Layout(width="14em", max_width="100%"))
        self.deal_button = widgets.Button(description=_("Deal this hand"), tooltip=_(
            "deal the hand with this number (the same number always deals the same cards)"),
                                          layout=widgets.Layout(width="auto"))
        self.deal_button.on_click(lambda _b: self.deal())
        self.next_button = widgets.Button(description=_("Next hand"), tooltip=_("deal the hand with the next number"),
                                          layout=widgets.Layout(width="auto"))
        self.next_button.on_click(lambda _b: self.deal(self.number.value % MAX_HAND_NUMBER + 1))
        self.table = CardTable(layout=widgets.Layout(max_width="100%"))
        self.table.on_press(self.press)
        self.table.on_why(self.why)
        self.coach_box = widgets.HTML(layout=widgets.Layout(max_width="100%"))
        self.show_button = widgets.Button(description=_("Show me"), layout=widgets.Layout(width="auto"),
                                          tooltip=_("the table replays your turn with the coach's better move"))
        self.show_button.on_click(lambda _b: self.show_me())
        self.why_box = widgets.HTML(layout=widgets.Layout(max_width="100%"))
        self.replaying = False
        self.feedback = widgets.HTML(layout=widgets.Layout(max_width="100%"))
        self.undo_button = widgets.Button(description=_("Undo my last turn"), tooltip=_("take back your last turn"),
                                          layout=widgets.Layout(width="auto"))
        self.undo_button.on_click(lambda _b: self.undo())
        self.hint_button = widgets.Button(description=_("What would the coach do?"),
                                          tooltip=_("the coach's move in this position, and why"),
                                          layout=widgets.Layout(width="auto"))
        self.hint_button.on_click(lambda _b: self.hint())
        self.sheet = widgets.HTML(layout=widgets.Layout(max_width="100%"))
        self.children = [
            _box([self.rules_choice, self.level_choice]),
            # the buttons sit beside the number box, not beside its label (which goes above the box on a phone)
            _box([self.number, self.deal_button, self.next_button], align_items="flex-end"),
            self.feedback, self.table, self.why_box, self.coach_box,
            _box([self.show_button, self.hint_button, self.undo_button]), self.sheet]
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
        self._shown_from = 0
        self.update()

    def select(self, *codes: str) -> None:
        """Select exactly these cards of the hand (one card per code, as clicking them would)."""
        wanted = [Card(c) for c in codes]
        chosen = []
        for i, card in enumerate(self._hand_cards()):
            if card in wanted:
                wanted.remove(card)
                chosen.append(i)
        if wanted:
            raise CanastaError(f"select: {' '.join(c.code for c in wanted)} not in your hand")
        self.table.selected = chosen

    @property
    def selected(self) -> list[Card]:
        cards = self._hand_cards()
        return [cards[i] for i in self.table.selected if 0 <= i < len(cards)]

    @property
    def shown_moves(self) -> list[str]:
        """The kinds of the moves whose buttons the table shows now."""
        return [m["kind"] for m in self.table.moves]

    def press(self, kind: str) -> None:
        """Press the button for ``kind`` (``draw``, ``take_pile``, ``meld``, ``lay_off``, ``discard``...)."""
        hand = self.hand
        if hand is None:
            return
        start = len(hand.log)
        try:
            hand.play(hand.move(kind, self.selected, self.table.target))
        except IllegalMove as e:
            self._say(_refusal(e.verdict), error=True)
            return
        except CanastaError as e:
            self._say(str(e), error=True)
            return
        self._say("")
        self._shown_from = start
        self.update()
        if hand.over:
            self.keep_mistakes()

    def keep_mistakes(self) -> int:
        """After the hand: the learner's costly decisions become their puzzles ("Learn from your mistakes"),
        kept in the progress store; how many were new (said under the table)."""
        hand = self.hand
        if hand is None or not hand.over or self._kept_hand is hand or not hand.mistakes:
            return 0
        self._kept_hand = hand
        name = f"{hand.seed} ({short_title(hand.rules)})"   # "11 (Classic Canasta)": the number deals it again
        try:
            if not isinstance(self.store, MistakeStore):
                self.store = MistakeStore(self.store)
            count = self.store.save(self.learner, [puzzle_from_decision(d, hand=name) for d in hand.mistakes],
                                    learner_id=self.learner_id)
        except CanastaError as e:
            self._say(_("Your costly decisions could not be kept as puzzles: {problem}").format(problem=e),
                      error=True)
            return 0
        if count:
            self._say(ngettext("Your costly decision of this hand is now a puzzle: practise it in the practice "
                               "room, under Learn from your mistakes.",
                               "Your {count} costly decisions of this hand are now puzzles: practise them in the "
                               "practice room, under Learn from your mistakes.", count).format(count=count))
        return count

    def hint(self) -> None:
        """Say what the coach would do now, and why."""
        if self.hand is None or not self.hand.your_turn:
            self._say(_("It is not your turn."), error=True)
            return
        action, why = self.hand.advice()
        move = action.describe(self.hand.observation().melds)
        # Translators: the coach's move, its sentence's first letter made small ("The coach would discard 4♣.")
        text = _("The coach would {move}").format(move=f"{move[:1].lower()}{move[1:]}")
        self._say(_sentence(text) + (f" {bot_words(move, why)}" if why else ""))

    def show_me(self) -> None:
        """*Show me*: the table replays the learner's last turn from its costliest decision with the coach's better
        move (the cards drawn in it are a guess, not the stock's); pressed again, back to the game."""
        hand = self.hand
        if self.replaying:
            self._say("")
            self.update()
            return
        if hand is None or hand.show_me is None:
            self._say(_("The coach has no better move to show for your last turn."), error=True)
            return
        state, actions = hand.better_turn()
        self.table.replay(replay_views(state, actions, hand.seat))
        self.replaying = True
        self.show_button.description = _("Back to the game")
        self._say(_("The coach's better turn, step by step (the cards it draws are a guess, not the real "
                    "stock's)."))

    def why(self, index: int) -> None:
        """*Why did my partner do that?*: the bot's words for the log's move at ``index`` and the expert's
        estimate of it."""
        try:
            lines = self.hand.why(index)
        except CanastaError as e:
            self._say(str(e), error=True)
            return
        items = "".join(f"<li>{html.escape(t)}</li>" for t in lines[1:])
        self.why_box.value = (f"<div class='ct-why' role='status' style='border-left:4px solid {_COACH};"
                              f"padding:4px 10px'><b>{html.escape(lines[0])}</b>"
                              f"{f'<ul style=margin:2px 0>{items}</ul>' if items else ''}</div>")

    def undo(self) -> None:
        if self.hand is not None and self.hand.undo():
            self._say("")
            self._shown_from = len(self.hand.log) - 1
            self.update()
        else:
            self._say(_("There is no turn of yours to take back yet."), error=True)

    # --- drawing --------------------------------------------------------------------------------------------------
    def _say(self, text: str, *, error: bool = False) -> None:
        if not text:
            self.feedback.value = ""
            return
        # a refusal is an alert and leaves the focus at the table (the page moves it to a .ct-feedback): the learner
        # plays on by keyboard; the coach's hint, asked for by its button, takes the focus
        colour, cls, role = (_BAD, "ct-refusal", "alert") if error else (_COACH, "ct-hint ct-feedback", "status")
        self.feedback.value = (f"<div class='{cls}' role='{role}' tabindex='-1' style='color:{colour}'>"
                               f"{html.escape(text)}</div>")

    def _hand_cards(self) -> list[Card]:
        return [Card(c) for c in self.table.hand]

    def _new_events(self):
        return self.hand.log[min(self._shown_from, len(self.hand.log)):]

    def update(self) -> None:
        """Draw the hand as it is now: the table, its moves and log in one update; the coach's words; the moves
        since the learner's last one shown where they happened and announced."""
        hand = self.hand
        obs = hand.observation()
        events = self._new_events()
        recent = [move_view(e.player, e.action, hand.seat, hand.players, e.melds) for e in events
                  if e.action is not None]
        moves = len(hand.state.history)
        turn = (_("Your turn.") if hand.your_turn else
                _("The hand is over.") if hand.over else
                _("{player} plays.").format(player=hand.name(hand.state.current_player)))
        status = _("Hand {number} · {rules} · move {move} · {turn}").format(
            number=hand.seed, rules=short_title(hand.rules), move=moves + 1, turn=turn)
        view = table_view(obs, recent=recent, moves=moves, status=status)
        kinds = hand.legal_kinds()
        targets = [(i, f"{i + 1}: {format_cards(meld)}") for i, meld in hand.lay_off_targets()] \
            if LAY_OFF in kinds or SWAP in kinds else []
        log = [(e.kind, e.text, *self._why_button(i, e)) for i, e in enumerate(hand.log)
               if e.kind != "coach"][-_LOG_LINES:]
        self.replaying = False
        self.why_box.value = ""
        self.table.show(view, moves=[(k, kind_label(k)) for k in kinds], defaults=default_moves(kinds),
                        targets=targets, log=log)
        self.undo_button.disabled = not hand.can_undo
        self.show_button.description = _("Show me")
        self.show_button.layout.display = None if hand.show_me is not None else "none"
        self.hint_button.disabled = not hand.your_turn
        if hand.coach:
            head, *rest = hand.coach
            more = "".join(f"<li>{html.escape(t)}</li>" for t in rest)
            # not a .ct-feedback (the page would move the focus out of the hand): the live region says it
            coach = html.escape(_("Coach:"))
            self.coach_box.value = (f"<div class='ct-coach' "
                                    f"style='border-left:4px solid {_COACH};padding:4px 10px;color:{_COACH}'>"
                                    f"<b>{coach}</b> {html.escape(head)}"
                                    f"{f'<ul style=margin:2px 0>{more}</ul>' if more else ''}</div>")
        else:
            self.coach_box.value = ""
        self.sheet.value = self._sheet_html(hand) if hand.over else ""
        spoken = self._spoken(events, obs)
        if hand.your_turn and (self._shown_from == 0 or any(e.kind == "bot" for e in events)):
            spoken.append(_("Your turn."))
        if spoken:
            self.table.announce(" ".join(spoken))

    def _why_button(self, index: int, event) -> tuple:
        """A bot's move has a *Why?* button: ``({"index", "label", "text"},)``; other lines none."""
        if event.saw is None:
            return ()
        who = self.hand.name(event.player)
        return ({"index": index, "text": _("Why?"),
                 "label": _("Why did {who} do that?").format(who=who[:1].lower() + who[1:])},)

    def _spoken(self, events, obs) -> list[str]:
        """What the live region says for ``events``: each move as a sentence ("Left opponent takes the pile with
        9♣ 9♦."), the coach's words, the end of the hand."""
        out = []
        coached = False  # a coach's line follows another: no second "Coach:"
        for e in events:
            if e.action is not None:
                text = announce(self.hand.name(e.player), e.action, e.melds, you=e.player == self.hand.seat)
                if e.action.kind == DRAW and e.player == self.hand.seat:
                    # the cards it brought, as the log line ends ("New in your hand: 7♥ K♠."), in its language
                    prefix = _("New in your hand: {cards}.").split("{cards}")[0]
                    new = re.search(re.escape(prefix) + ".*$", e.text)
                    text += f" {new.group(0)}" if new else ""
                out.append(text)
            elif e.kind == "coach":
                out.append(e.text if coached else _("Coach: {text}").format(text=e.text))
                coached = True
                continue
            elif e.kind in ("end", "undo"):
                out.append(e.text)
            coached = False
        return out

    def _sheet_html(self, hand: CoachedHand) -> str:
        heading = html.escape(_("Score sheet"))
        parts = ["<style>.ct-score-sheet th, .ct-score-sheet td:last-child { white-space: nowrap; }</style>"
                 f"<div class='ct-score-sheet' role='status'><h4 style='margin:6px 0'>{heading}</h4>"]
        for team, sheet in hand.score_sheets():
            names = [hand.name(p) for p in team]
            who = names[0]
            for n in names[1:]:
                who = pgettext("seat", "{first} and {second}").format(first=who, second=n[:1].lower() + n[1:])
            # Translators: a team's score for the hand, after its name in bold ("<b>You and your partner</b>: ...")
            total = ngettext(": {points} point", ": {points} points", abs(sheet.total)).format(points=sheet.total)
            parts.append(f"<div><b>{html.escape(who)}</b>{html.escape(total)}</div>"
                         f"<div class='ct-scroll'>{sheet.to_html()}</div>")
        # Translators: {next} and {deal} are the buttons' labels ("Next hand", "Deal this hand"), shown in italics
        next_hand, deal = html.escape(_("Next hand")), html.escape(_("Deal this hand"))
        press = html.escape(_("Press {next} to play another, or type a hand number and {deal}.")).format(
            next=f"<i>{next_hand}</i>", deal=f"<i>{deal}</i>")
        parts.append(f"<div>{press}</div></div>")
        return "".join(parts)


def _refusal(verdict) -> str:
    """The engine's reasons for refusing a move, as the learner reads them."""
    return _("Not allowed: {reasons}").format(reasons=" ".join(r.text for r in verdict.reasons))


__all__ = ["PlayAHand"]
