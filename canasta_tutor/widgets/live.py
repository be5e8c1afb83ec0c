"""The live class puzzle on screen: the teacher's panel and each learner's view.

Both poll the shared database (:class:`canasta_tutor.classroom.live.LiveClass`) from a
background thread in their own kernel, every ``poll`` seconds (``auto=False``
leaves polling to whoever calls :meth:`refresh`, as the tests do). The
learner's view reuses the trainer for one puzzle: the same cards, controls
and explanation, with the explanation held back until the teacher reveals it.

    LiveTeacherPanel(class_code="7B")
    LiveLearnerView(learner="ana", class_code="7B")
"""

from __future__ import annotations

import html
import itertools
import threading
import time

import ipywidgets as widgets

from ..classroom.live import LiveClass, answer_label, bar_chart_html
from ..classroom.progress import ProgressStore
from ..classroom.words import kind_name
from ..engine.errors import CanastaError
from ..engine.i18n import gettext as _
from ..engine.rules import PRESETS
from ..puzzles.format import Puzzle
from ..puzzles.kinds import get_kind
from ..puzzles.practice import set_of
from ..puzzles.solver import solve
from .homework import kind_options
from .render import situation_html
from .trainer import Trainer, load_puzzles

_BAD = "#c62828"


class _Poller:
    """Calls ``refresh`` every ``poll`` seconds in a daemon thread until stopped. ``_problem_area``: the HTML
    widget where a problem is shown."""

    def _connect(self, connect, poll: float, auto: bool) -> None:
        """Open the live class with ``connect()``; when it cannot be, say why; else show it and keep it fresh."""
        try:
            connect()
        except CanastaError as e:
            self._show_problem(str(e))
            return
        self.refresh()
        if auto:
            self._start_polling(poll)

    def _show_problem(self, text: str) -> None:
        self._problem_area.value = f"<div style='color:{_BAD}'>{html.escape(text)}</div>"

    def _start_polling(self, poll: float) -> None:
        self._stop_event = threading.Event()
        self._thread = threading.Thread(target=self._poll_loop, args=(poll,), daemon=True, name="canasta-live-poll")
        self._thread.start()

    def _poll_loop(self, poll: float) -> None:
        while not self._stop_event.wait(poll):
            try:
                self.refresh()
            except Exception as e:  # keep polling: the database may be busy for a moment
                self._show_problem(_("Could not read the live puzzle: {problem}").format(problem=e))

    def stop(self) -> None:
        """Stop polling (the widget keeps what it shows)."""
        event = getattr(self, "_stop_event", None)
        if event is not None:
            event.set()

    def close(self):
        self.stop()
        super().close()


class _LiveTrainer(Trainer):
    """The trainer on one live puzzle: answers go to the live class too; the explanation waits for Reveal."""

    def __init__(self, puzzle: Puzzle, *, live: LiveClass, live_id: int, learner: str, store,
                 learner_id: int | None = None):
        self._live = live
        self._live_id = live_id
        self._learner_id = learner_id
        self._pending: tuple[bool, dict, dict] | None = None
        self._revealed = False
        super().__init__([puzzle], learner=learner, store=store, endless=False, ask_name=False, resume=False,
                         title=_("Live puzzle"))
        self.next_button.layout.display = "none"

    def _update_header(self) -> None:  # no running score: it would tell right from wrong before the reveal
        self.header.value = f"<h3 style='margin:4px 0'>{html.escape(self.title)}</h3>"

    def answer(self, value):
        if self.puzzle is not None and not self.answered and not self._revealed:
            given, _problem = self._parse(value)
            if given is not None:
                try:
                    self._live.answer(self.learner, given, live_id=self._live_id, learner_id=self._learner_id)
                except CanastaError as e:
                    self._say(str(e), error=True)
                    return None
        elif self._revealed and not self.answered:
            self._say(_("The answer has been revealed: wait for the next puzzle."))
            return None
        return super().answer(value)

    def _show_feedback(self, correct: bool, given: dict, expected: dict) -> None:
        self._pending = (correct, given, expected)
        if self._revealed:
            super()._show_feedback(correct, given, expected)
        else:
            self.feedback.value = ("<div class='ct-live-wait' style='color:#1565c0'><b>"
                                   + html.escape(_("Your answer is in.")) + "</b> "
                                   + html.escape(_("Wait for your teacher to reveal the answer.")) + "</div>")

    def mark_answered(self, given: dict, correct: bool) -> None:
        """This learner answered before (another tab or a reloaded page): show that, take no new answer."""
        self.answered = True
        self.solution = solve(self.puzzle)
        for child in self.controls.children:
            child.disabled = True
        self._pending = (correct, given, {k: self.solution.answer[k] for k in given})
        mine = answer_label(self.puzzle.kind, {**self.solution.answer, **given}, self.puzzle.rules)
        self.feedback.value = ("<div class='ct-live-wait' style='color:#1565c0'><b>"
                               + html.escape(_("You answered: {answer}.").format(answer=mine)) + "</b> "
                               + html.escape(_("Wait for your teacher to reveal the answer.")) + "</div>")

    def reveal(self) -> None:
        """Show the engine's answer and explanation."""
        if self._revealed:
            return
        self._revealed = True
        self.hint_button.disabled = True
        for child in self.controls.children:
            child.disabled = True
        if self._pending is not None:
            Trainer._show_feedback(self, *self._pending)
            return
        self.solution = solve(self.puzzle)
        label = answer_label(self.puzzle.kind, self.solution.answer, self.puzzle.rules)
        reasons = "".join(f"<li>{html.escape(line)}</li>" for line in self.solution.explanation)
        answer = _("The answer is {answer}.").format(answer=f"<b>{html.escape(label)}</b>")
        why = html.escape(_("Why"))
        self.feedback.value = (f"<div class='ct-feedback'><div style='font-size:1.2em'>{answer}</div>"
                               f"<div class='ct-why'><b>{why}</b><ul>{reasons}</ul></div></div>")


class LiveLearnerView(_Poller, widgets.VBox):
    """A learner's screen for the class's live puzzle: it appears, the learner answers once, the teacher reveals.
    ``learner_id``: the signed-in learner of the class, whose answer it is (by their id, not their name)."""

    def __init__(self, learner: str, class_code: str = "", *, path=None, poll: float = 1.5, auto: bool = True,
                 learner_id: int | None = None, **kwargs):
        super().__init__(**kwargs)
        self.learner = (learner or "").strip() or "learner"
        self.learner_id = learner_id
        self.class_code = class_code or ""
        self._lock = threading.RLock()
        self.status = widgets.HTML()
        self.area = widgets.VBox()
        self.children = [self.status, self.area]
        self.add_class("ct-live-learner")
        self.trainer: _LiveTrainer | None = None
        self.live_id: int | None = None
        self.live: LiveClass | None = None
        self._store = None
        self._problem_area = self.status

        def connect():
            self.live = LiveClass(self.class_code, path)
            self._store = ProgressStore(self.live.path)
        self._connect(connect, poll, auto)

    def refresh(self) -> None:
        """Read the live puzzle: show a new one, or the explanation once it is revealed."""
        if self.live is None:
            return
        with self._lock:
            current = self.live.current()
            if current is None:
                self.status.value = ("<div class='ct-live-status'><i>"
                                     + html.escape(_("Waiting for your teacher's puzzle… it will appear here."),
                                                   quote=False) + "</i></div>")
                return
            if current.id != self.live_id:
                self.live_id = current.id
                self.trainer = _LiveTrainer(current.puzzle, live=self.live, live_id=current.id, learner=self.learner,
                                            store=self._store, learner_id=self.learner_id)
                earlier = self.live.answer_of(self.learner, current.id, learner_id=self.learner_id)
                if earlier is not None:
                    self.trainer.mark_answered(earlier.answer, earlier.correct)
                self.area.children = [self.trainer]
            if current.revealed:
                self.trainer.reveal()
                self.status.value = ("<div class='ct-live-status'><b>"
                                     + html.escape(_("Your teacher has revealed the answer.")) + "</b></div>")
            else:
                self.status.value = ("<div class='ct-live-status'><b>"
                                     + html.escape(_("Live puzzle from your teacher")) + "</b></div>")

    def answer(self, value):
        """Answer the live puzzle (as the buttons do); returns whether it was right, None if not taken."""
        with self._lock:
            if self.trainer is None:
                self._show_problem(_("There is no live puzzle yet."))
                return None
            return self.trainer.answer(value)

    @property
    def puzzle(self) -> Puzzle | None:
        return self.trainer.puzzle if self.trainer is not None else None

    @property
    def feedback(self) -> str:
        return self.trainer.feedback.value if self.trainer is not None else ""


class LiveTeacherPanel(_Poller, widgets.VBox):
    """Send one puzzle to the class, watch the answers arrive as bars, reveal the explanation everywhere."""

    def __init__(self, class_code: str = "", *, source=None, path=None, poll: float = 1.5, auto: bool = True,
                 **kwargs):
        super().__init__(**kwargs)
        self.class_code = class_code or ""
        self._lock = threading.RLock()
        self._seeds = itertools.count(1)
        self.puzzles, problems = load_puzzles(source)
        self.chosen: Puzzle | None = None
        self.live: LiveClass | None = None
        self.message = widgets.HTML()
        self.picker = widgets.Dropdown(
            options=[(_("— choose a puzzle —"), None)] + [(f"{set_of(p)} · {p.id} · {kind_name(p.kind)}", i)
                                                        for i, p in enumerate(self.puzzles)],
            description=_("Puzzle:"), layout=widgets.Layout(width="40em", max_width="100%"))
        self.picker.observe(lambda change: self.choose(change["new"]) if change["new"] is not None else None, "value")
        self.kind = widgets.Dropdown(options=kind_options(), value="take-pile", description=_("Or make:"))
        self.difficulty = widgets.IntSlider(value=2, min=1, max=5, description=_("Difficulty:"))
        self.rules = widgets.Dropdown(options=list(PRESETS), value="classic", description=_("Rules:"))
        self.generate_button = widgets.Button(description=_("Make a puzzle"), layout=widgets.Layout(width="auto"))
        self.generate_button.on_click(lambda _b: self.generate())
        self.preview = widgets.HTML()
        self.send_button = widgets.Button(description=_("Send to the class"), button_style="primary", disabled=True,
                                          layout=widgets.Layout(width="auto"))
        self.send_button.on_click(lambda _b: self.send())
        self.reveal_button = widgets.Button(description=_("Reveal the answer"), button_style="warning", disabled=True,
                                            layout=widgets.Layout(width="auto"))
        self.reveal_button.on_click(lambda _b: self.reveal())
        self.chart = widgets.HTML()
        self.who = widgets.HTML()
        self.sent = widgets.HTML()   # the sent puzzle's cards, as the class sees them (read back after a reload)
        self._sent_id: int | None = None
        heading = (_("Live puzzle for class {code}").format(code=self.class_code) if self.class_code
                   else _("Live puzzle for class (no class)"))
        self.children = [widgets.HTML(f"<h3 style='margin:4px 0'>{html.escape(heading)}</h3>"),
                         self.picker, widgets.HBox([self.kind, self.difficulty, self.rules, self.generate_button]),
                         self.preview, widgets.HBox([self.send_button, self.reveal_button]), self.message,
                         self.chart, self.sent, self.who]
        self.add_class("ct-live-teacher")
        self._problem_area = self.message
        if problems:
            self._show_problem(_("Some puzzles could not be loaded: {problems}").format(
                problems="; ".join(problems[:3])))

        def connect():
            self.live = LiveClass(self.class_code, path)
        self._connect(connect, poll, auto)

    def _say(self, text: str) -> None:
        self.message.value = f"<div style='color:#444'>{html.escape(text)}</div>"

    def _show_chosen(self) -> None:
        p = self.chosen
        # what the class will see while it answers (the kind's record says what that hides)
        self.preview.value = (situation_html(p, answering=True)
                              + f"<p><b>{html.escape(_(get_kind(p.kind).question))}</b></p>")
        self.send_button.disabled = self.live is None

    def choose(self, index: int) -> Puzzle:
        """Pick puzzle number ``index`` of the loaded sets (not sent yet)."""
        self.chosen = self.puzzles[index]
        self._show_chosen()
        return self.chosen

    def generate(self, kind: str | None = None, *, difficulty: int | None = None, rules: str | None = None,
                 seed=None) -> Puzzle | None:
        """Make a fresh puzzle with the generator (not sent yet)."""
        from ..puzzles.format import puzzle_from_mapping
        from ..puzzles.generator import generate_puzzles

        kind = kind or self.kind.value
        difficulty = difficulty or self.difficulty.value
        rules = rules or self.rules.value
        number = next(self._seeds)
        seed = seed if seed is not None else f"live-{self.class_code}-{number}-{id(self)}"
        try:
            raw = next(generate_puzzles(kind, count=1, seed=seed, difficulty=difficulty, rules=rules))
            # a fresh id each time, so that learners' attempts on different generated puzzles stay apart
            raw["id"] = f"live-{kind}-{time.strftime('%Y%m%d%H%M%S')}-{number}"
            self.chosen = puzzle_from_mapping(raw, rules=rules, set_title=_("Live puzzles"))
        except CanastaError as e:
            self._show_problem(_("No puzzle could be made: {problem}").format(problem=e))
            return None
        self._show_chosen()
        return self.chosen

    def send(self, puzzle: Puzzle | None = None):
        """Send the chosen (or given) puzzle to every learner of the class."""
        puzzle = puzzle or self.chosen
        if puzzle is None or self.live is None:
            self._show_problem(_("Choose or make a puzzle first."))
            return None
        with self._lock:
            try:
                live = self.live.send(puzzle)
            except CanastaError as e:
                self._show_problem(_("Not sent: {problem}").format(problem=e))
                return None
            self._say(_("Sent {puzzle} to the class. Answers appear below as they arrive.").format(puzzle=puzzle.id))
            self.refresh()
            return live

    def reveal(self):
        """Reveal the engine's explanation on every learner's screen."""
        if self.live is None:
            return None
        with self._lock:
            try:
                live = self.live.reveal()
            except CanastaError as e:
                self._show_problem(str(e))
                return None
            self._say(_("Revealed on every screen."))
            self.refresh()
            return live

    @property
    def counts(self) -> dict[str, int]:
        return self.live.counts() if self.live is not None else {}

    def refresh(self) -> None:
        """Redraw the bar chart of the current live puzzle's answers."""
        if self.live is None:
            return
        with self._lock:
            current = self.live.current()
            if current is None:
                self.chart.value = ("<div style='color:#595959;font-style:italic'>"
                                    + html.escape(_("No puzzle sent yet.")) + "</div>")
                self.who.value = self.sent.value = ""
                self._sent_id = None
                self.reveal_button.disabled = True
                return
            if current.id != self._sent_id:   # a new puzzle, or this panel was just opened (the page reloaded)
                self._sent_id = current.id
                self.sent.value = (f"<div class='ct-live-sent' data-live-id='{current.id}'><b>"
                                   + html.escape(_("Sent to the class")) + "</b>"
                                   f" ({html.escape(set_of(current.puzzle))} · {html.escape(current.puzzle.id)})"
                                   f"{situation_html(current.puzzle, answering=True)}</div>")
            answers = self.live.answers(current.id)
            counts = self.live.counts(current.id)
            right = (answer_label(current.puzzle.kind, solve(current.puzzle).answer, current.puzzle.rules)
                     if current.revealed else None)
            self.chart.value = (f"<div class='ct-live-question' style='font-size:30px;line-height:1.25;margin:8px 0'>"
                                f"<b>{html.escape(_(get_kind(current.puzzle.kind).question))}</b></div>"
                                + bar_chart_html(counts, right=right))
            names = ", ".join(html.escape(a.learner) for a in answers)
            said = (html.escape(_("Answered: {names}")).format(names=names) if names
                    else html.escape(_("Answered: nobody yet")))
            self.who.value = f"<div style='color:#333;font-size:20px'>{said}</div>"
            self.reveal_button.disabled = current.revealed
