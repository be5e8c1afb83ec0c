"""Learn from your mistakes: the learner's costly decisions of coached hands as puzzles, answered on the card table.

"Your turn: what do you do?": the table (:class:`~.table.CardTable`) shows the position as the learner saw it
(the other hands and the stock as counts), the learner plays the move(s) with the table's own buttons, and the
expert's search judges the answer (:func:`canasta_tutor.puzzles.decisions.judge`): "Right: ..." or "The better
move: ..., about N points more", with *Show me*. A puzzle comes back until it is answered right
(:class:`~canasta_tutor.classroom.mistakes.MistakeStore`). Nothing here knows a rule.
"""

from __future__ import annotations

import html

import ipywidgets as widgets

from ..bots.coach import KIND_LABELS, move_from_buttons
from ..bots.review import Decision, better_replay
from ..classroom.mistakes import KeptPuzzle, MistakeStore
from ..engine.cards import Card, format_cards
from ..engine.errors import CanastaError
from ..engine.i18n import gettext as _
from ..game import LAY_OFF, SWAP, IllegalMove, apply, legal_actions, observation
from ..puzzles.decisions import DecisionPuzzle, is_finished, judge, say_judgement
from .coach import _refusal, default_moves
from .identity import signed_in, signed_in_id
from .table import CardTable
from .table_model import replay_views, table_view

_OK = "#1b5e20"
_BAD = "#b71c1c"
_COACH = "#0d47a1"


class MistakesTrainer(widgets.VBox):
    """The learner's decision puzzles, one at a time, on the card table. ``puzzles``: a list of
    :class:`DecisionPuzzle` (no store), else the ``learner``'s puzzles not yet answered right from ``store`` (a
    :class:`MistakeStore`, a ``ProgressStore`` or a path; default: the progress database)."""

    def __init__(self, puzzles=None, *, learner: str | None = None, store=None, **kwargs):
        super().__init__(**kwargs)
        if learner is None:
            learner, _ask = signed_in(learner="learner", ask_name=False)
        self.learner = learner
        self.learner_id = signed_in_id(learner)
        self.store = None
        self.message = widgets.HTML()
        title = _("Learn from your mistakes")
        self.title = widgets.HTML(f"<h3 style='margin:4px 0'>{html.escape(title)}</h3>")
        self.question = widgets.HTML()
        self.table = CardTable(layout=widgets.Layout(max_width="100%"))
        self.table.on_press(self.press)
        self.feedback = widgets.HTML(layout=widgets.Layout(max_width="100%"))
        self.show_button = widgets.Button(description=_("Show me"), layout=widgets.Layout(width="auto"),
                                          tooltip=_("the table replays the better move"))
        self.show_button.on_click(lambda _b: self.show_me())
        self.again_button = widgets.Button(description=_("Try again"), layout=widgets.Layout(width="auto"))
        self.again_button.on_click(lambda _b: self.restart())
        self.next_button = widgets.Button(description=_("Next puzzle →"), layout=widgets.Layout(width="auto"))
        self.next_button.on_click(lambda _b: self.next())
        self.children = [self.title, self.message, self.question, self.table, self.feedback,
                         widgets.HBox([self.show_button, self.again_button, self.next_button],
                                      layout=widgets.Layout(flex_flow="row wrap"))]
        self.add_class("ct-mistakes")
        if puzzles is not None:
            self.queue = [KeptPuzzle(0, learner, p, 0, False) for p in puzzles]
            if not all(isinstance(p, DecisionPuzzle) for p in puzzles):
                raise CanastaError("puzzles: decision puzzles only (from canasta_tutor.puzzles.decisions)")
        else:
            try:
                self.store = store if isinstance(store, MistakeStore) else MistakeStore(store)
                self.queue = self.store.due(learner, learner_id=self.learner_id)
            except CanastaError as e:
                self.queue = []
                self._say(str(e), error=True)
        self.kept: KeptPuzzle | None = None
        self.judgement = None
        self.next()

    # --- the puzzle ---------------------------------------------------------------------------------------------
    @property
    def puzzle(self) -> DecisionPuzzle | None:
        return self.kept.puzzle if self.kept is not None else None

    def next(self) -> None:
        """The next puzzle: the one tried longest ago first; a missed one goes to the back of the queue."""
        if self.kept is not None and not (self.judgement and self.judgement.right):
            self.queue.append(self.kept)
        self.kept = self.queue.pop(0) if self.queue else None
        self.restart()

    def restart(self) -> None:
        """Show the puzzle's position again (the answer so far taken back)."""
        self.judgement = None
        self.plan: list = []
        self.feedback.value = ""
        self.show_button.layout.display = "none"
        self.again_button.layout.display = "none"
        if self.kept is None:
            self.question.value = "<p>" + html.escape(_("No decisions to practise: every costly decision of your "
                                                       "hands is answered right. Play a hand with the coach.")) + "</p>"
            self.table.layout.display = "none"
            self.next_button.disabled = True
            return
        self.table.layout.display = None
        self.next_button.disabled = False
        p = self.puzzle
        self.state = p.table_state()
        self.question.value = ("<p class='ct-puzzle-question'><b>" + html.escape(_("Your turn: what do you do?"))
                               + "</b> " + html.escape(_("From hand {hand}, where your move cost about {points} "
                                                         "points.").format(hand=p.hand, points=p.points))
                               + "</p>")
        self._draw()

    def _draw(self) -> None:
        obs = observation(self.state, self.puzzle.obs.player)
        legal = [] if self.judgement is not None else legal_actions(self.state)
        kinds = [k for k in KIND_LABELS if k in {a.kind for a in legal}]
        targets = [(i, f"{i + 1}: {format_cards(m)}") for i, m in enumerate(obs.melds)] \
            if LAY_OFF in kinds or SWAP in kinds else []
        self.table.show(table_view(obs, status=_("Your turn: what do you do?")),
                        moves=[(k, KIND_LABELS[k]) for k in kinds], defaults=default_moves(kinds), targets=targets)

    # --- answering with the table's buttons ---------------------------------------------------------------------
    def select(self, *codes: str) -> None:
        """Select exactly these cards of the hand (as clicking them would)."""
        wanted = [Card(c) for c in codes]
        chosen = []
        for i, code in enumerate(self.table.hand):
            card = Card(code)
            if card in wanted:
                wanted.remove(card)
                chosen.append(i)
        if wanted:
            raise CanastaError(f"select: {' '.join(c.code for c in wanted)} not in your hand")
        self.table.selected = chosen

    def press(self, kind: str) -> None:
        """A move's button: played on the table; the answer is judged when the decision is complete."""
        if self.kept is None or self.judgement is not None:
            return
        cards = [Card(self.table.hand[i]) for i in self.table.selected if 0 <= i < len(self.table.hand)]
        try:
            action = move_from_buttons(kind, legal_actions(self.state), cards, self.table.target,
                                       self.puzzle.obs.rules)
            apply(self.state, action)
        except IllegalMove as e:
            self._say(_refusal(e.verdict), error=True)
            return
        except CanastaError as e:
            self._say(str(e), error=True)
            return
        self._say("")
        self.plan.append(action)
        if is_finished(self.puzzle, self.plan) or self.state.current_player != self.puzzle.obs.player:
            self.check()
        else:
            self._draw()

    def answer(self, plan) -> bool:
        """Answer with ``plan`` (actions) at once, as pressing its buttons would (a test's shortcut)."""
        self.restart()
        for a in plan:
            apply(self.state, a)
            self.plan.append(a)
        return self.check()

    def check(self) -> bool:
        """Judge the answer played so far with the expert's search, say so, and keep the result."""
        p = self.puzzle
        # the search takes a second or a few (samba's big hands): the page says so meanwhile
        checking = _("My search is checking your move…")
        self.feedback.value = f"<div role='status' style='color:{_COACH}'>{html.escape(checking)}</div>"
        self.judgement = j = judge(p, self.plan)
        if self.store is not None and self.kept.id:
            try:
                self.store.answered(self.kept.id, j.right)
            except CanastaError as e:
                self._say(str(e), error=True)
        colour, mark = (_OK, "✔") if j.right else (_COACH, "")
        self.feedback.value = (f"<div class='ct-feedback' role='status' tabindex='-1' style='color:{colour}'>"
                               f"{mark} {html.escape(say_judgement(p, j))}</div>")
        self.show_button.layout.display = None if not j.right else "none"
        self.again_button.layout.display = None if not j.right else "none"
        self._draw()
        return j.right

    def show_me(self) -> None:
        """The table replays the better plan from the puzzle's position (the unseen cards a guess)."""
        if self.judgement is None or self.judgement.right:
            return
        p = self.puzzle
        d = Decision(None, p.obs, tuple(self.plan), self.judgement.best, self.judgement.loss, 0.0,
                     self.judgement.deals, False)
        state, actions = better_replay(d)
        self.table.replay(replay_views(state, actions, p.obs.player))

    def _say(self, text: str, *, error: bool = False) -> None:
        colour = _BAD if error else _COACH
        role = "alert" if error else "status"
        self.message.value = (f"<div role='{role}' style='color:{colour}'>{html.escape(text)}</div>"
                              if text else "")


__all__ = ["MistakesTrainer"]
