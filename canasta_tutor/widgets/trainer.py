"""The puzzle trainer: one widget that shows a puzzle, takes the answer, explains it.

The answer never leaves the kernel before the learner has answered: the
widget keeps the puzzle in plain Python attributes (never in a synced trait)
and asks the engine only when an answer comes in. Every attempt is saved at
once in the progress store; an attempt the store cannot take is kept and
tried again with the next one, and the learner is told.

The time a puzzle took is counted from when a browser shows it: a preheated
kernel shows the first puzzle long before a learner opens the page, so that
puzzle's clock starts again when the browser first asks for the widgets
(see :mod:`.kernel_guard`).
"""

from __future__ import annotations

import asyncio
import html
import time
import uuid
from datetime import UTC, datetime
from functools import lru_cache
from pathlib import Path

import ipywidgets as widgets

from ..classroom.progress import Attempt, ProgressStore
from ..engine.errors import CanastaError
from ..engine.i18n import N_, ngettext
from ..engine.i18n import gettext as _
from ..puzzles.format import Puzzle, PuzzleSet, load_puzzle_set, puzzle_files
from ..puzzles.kinds import get_kind
from ..puzzles.practice import Practice, set_of, topic_name, topic_of
from ..puzzles.solver import hints, solve
from . import kernel_guard
from .cardbuttons import card_button
from .identity import signed_in, signed_in_id
from .keep import keeper
from .render import BAD, GOOD, NEUTRAL, situation_html, tone_colour

SUBMIT_WAIT = 0.4  # seconds Enter waits for the box's last keystrokes (see Trainer._number_message)
_OK = tone_colour(GOOD)
_BAD = tone_colour(BAD)
_NEUTRAL = tone_colour(NEUTRAL)


#: where an answer that could not be saved waits, in the learner's words (see Trainer.save_pending)
KEPT = {"disk": N_("It is kept on the server and will be saved as soon as the database is back."),
        "page": N_("It is kept in this page and in this browser (which sends it again when the page reconnects), and "
                "will be saved with your next answer."),
        "memory": N_("The server could not keep it on its disk either (is the disk full?): it is kept only in this "
                  "page and in this browser, which sends it again when the page reconnects. Keep using this browser "
                  "until your teacher says the database is back.")}


def default_puzzle_dir() -> Path:
    """The project's ``puzzles/`` folder (beside the package in a checkout), else ./puzzles."""
    here = Path(__file__).resolve().parent.parent.parent / "puzzles"
    return here if here.is_dir() else Path.cwd() / "puzzles"


def _load_set(path) -> PuzzleSet:
    """A puzzle file, read once per kernel while it stays the same (a lesson page asks for the project's sets
    again for every lesson it shows: about 0.3 s of validation each time)."""
    path = Path(path)
    try:
        stat = path.stat()
    except OSError:
        return load_puzzle_set(path)  # says what is wrong with it
    return _load_set_cached(str(path), stat.st_mtime_ns, stat.st_size)


@lru_cache(maxsize=256)
def _load_set_cached(path: str, _mtime_ns: int, _size: int) -> PuzzleSet:
    return load_puzzle_set(path)


def load_puzzles(source=None, *, kind: str | None = None, ids=None) -> tuple[list[Puzzle], list[str]]:
    """Puzzles from a file, a folder, a PuzzleSet, a list of puzzles or paths; problems as messages."""
    problems: list[str] = []
    puzzles: list[Puzzle] = []
    if source is None:
        source = default_puzzle_dir()
    items = source if isinstance(source, (list, tuple)) else [source]
    for item in items:
        if isinstance(item, Puzzle):
            puzzles.append(item)
        elif isinstance(item, PuzzleSet):
            puzzles.extend(item.puzzles)
            problems.extend(str(e) for e in item.errors)
        else:
            files = puzzle_files([item])
            if not files:
                problems.append(f"no puzzle files in {item}")
            for path in files:
                try:
                    pset = _load_set(path)
                except CanastaError as e:
                    problems.append(str(e))
                    continue
                puzzles.extend(pset.puzzles)
                problems.extend(str(e) for e in pset.errors)
    if kind is not None:
        kinds = {kind} if isinstance(kind, str) else set(kind)
        puzzles = [p for p in puzzles if p.kind in kinds]
    if ids is not None:
        wanted = list(ids)
        by_id = {p.id: p for p in puzzles}
        puzzles = [by_id[i] for i in wanted if i in by_id]
    return puzzles, problems


class Trainer(widgets.VBox):
    """Solve Canasta puzzles one by one; the engine checks and explains every answer.

    ``source``: a puzzle file or folder (default: the project's puzzles), a
    ``PuzzleSet`` or a list of puzzles; ``kind``: keep only puzzles of that kind
    (or kinds); ``ids``: keep these puzzles, in this order; ``topics``,
    ``difficulties``, ``missed_only``: narrow the practice (see
    :mod:`canasta_tutor.puzzles.practice`); ``endless``: generate new puzzles when the
    chosen ones are done; ``store``: where attempts are saved (default: the
    progress database); ``learner``: whose attempts they are.
    """

    def __init__(self, source=None, *, kind=None, ids=None, learner: str | None = None, store=None,
                 topics=None, difficulties=None, missed_only: bool = False, endless: bool = True,
                 title: str | None = None, seed: int | str = 0, resume: bool = True,
                 ask_name: bool = True, **kwargs):
        super().__init__(**kwargs)
        if learner is None:  # the signed-in learner, when the web app signed one in: no name to type
            learner, ask_name = signed_in(learner="learner", ask_name=ask_name)
        self.learner = (learner or "learner").strip() or "learner"
        self.learner_id = signed_in_id(self.learner)  # progress is the signed-in learner's, not their name's
        self.title = title if title is not None else _("Canasta puzzles")
        self.puzzles, problems = load_puzzles(source, kind=kind, ids=ids)
        self.store = None
        self._store_problem = ""
        try:
            self.store = store if store is not None else ProgressStore()
        except CanastaError as e:
            self._store_problem = str(e)
        history = []
        if self.store is not None and resume:
            try:
                history = (self.store.history(self.learner, learner_id=self.learner_id)
                           if self.learner_id is not None else self.store.history(self.learner))
            except CanastaError as e:
                self._store_problem = str(e)
        self.practice = Practice(self.puzzles, history=history, topics=topics, difficulties=difficulties,
                                 missed_only=missed_only, endless=endless and ids is None, seed=seed,
                                 ordered=ids is not None)
        self.right = 0
        self.answered_count = 0
        self.streak = 0
        self.best_streak = 0
        self.puzzle: Puzzle | None = None
        self.solution = None        # filled in only after the learner answers
        self.answered = False
        self._hints: list[str] = []
        self._hints_shown = 0
        self._shown_at = 0.0
        self._skip_warned = False
        self._unsaved: list[dict] = []   # attempts the store could not take yet; tried again with the next one
        self._in_store_memory: list[str] = []  # uids of attempts the store keeps in memory only (not on disk)
        self.keep = keeper()  # every attempt not saved yet is kept in the browser too
        if self.store is not None:
            self.keep.store = self.store
        self.keep.learner = None if ask_name else self.learner
        kernel_guard.on_browser(self)

        self.header = widgets.HTML()
        self.name_box = widgets.Text(value=self.learner, description=_("Your name:"), continuous_update=False,
                                     layout=widgets.Layout(width="100%", max_width="20em",
                                                           display="" if ask_name else "none"))
        if ask_name:  # a signed-in learner's name never comes from the browser
            self.name_box.observe(self._rename, "value")
        self.prompt = widgets.HTML()
        self.situation = widgets.HTML()
        self.question = widgets.HTML()
        self.controls = widgets.HBox(layout=widgets.Layout(flex_flow="row wrap"))
        self.controls.add_class("ct-answer-controls")  # after Next, the template moves keyboard focus here
        self._shown_count = 0  # puzzles shown so far: the question carries it, so the page sees a new puzzle come
        self.number = widgets.Text(placeholder=_("points"), layout=widgets.Layout(width="12em", max_width="100%"),
                                   description=_("Your answer:"), style={"description_width": "initial"})
        self.number.on_msg(self._number_message)  # Enter in the box answers, as the Check button does
        self._submit_pending = False
        self.number.observe(self._number_changed, "value")
        self.check_button = widgets.Button(description=_("Check"), button_style="primary")
        self.check_button.on_click(lambda _b: self.answer(self.number.value))
        self.hint_button = widgets.Button(description=_("Hint"))
        self.hint_button.on_click(lambda _b: self.hint())
        self.next_button = widgets.Button(description=_("Next puzzle →"))
        self.next_button.add_class("ct-next")
        self.next_button.on_click(lambda _b: self.next())
        self.hint_box = widgets.HTML()
        self.notice = widgets.HTML()
        self.message = widgets.HTML()
        self.feedback = widgets.HTML()
        self.followup = widgets.VBox()
        self.card_toggles: list[widgets.ToggleButton] = []
        self.followup_feedback = widgets.HTML()
        # feedback and follow-up come before the Next button, so that keyboard focus goes from the answer to the
        # feedback (the template moves it there) and then, with Tab, to Next
        self.children = [self.header, self.name_box, self.notice, self.prompt, self.situation, self.question,
                         self.controls, self.message, self.feedback, self.followup,
                         widgets.HBox([self.hint_button, self.next_button],
                                      layout=widgets.Layout(flex_flow="row wrap")), self.hint_box, self.keep.box]
        self.add_class("ct-trainer")
        if problems:
            listed = "; ".join(problems[:3])
            if len(problems) > 3:
                text = ngettext("Some puzzles could not be loaded: {problems} (and {count} more)",
                                "Some puzzles could not be loaded: {problems} (and {count} more)",
                                len(problems) - 3).format(problems=listed, count=len(problems) - 3)
            else:
                text = _("Some puzzles could not be loaded: {problems}").format(problems=listed)
            self.notice.value = f"<div style='color:{_BAD}'>{html.escape(text)}</div>"
        self.next()

    def _number_message(self, _widget, content, _buffers) -> None:
        """Enter in the number box. The browser may still hold the last keystrokes back (ipywidgets sends a
        model's changes one message at a time, while Enter overtakes them), so in a running kernel the answer
        is taken when the box's value next changes, or after SUBMIT_WAIT seconds if it does not."""
        if not (isinstance(content, dict) and content.get("event") == "submit" and self.puzzle is not None
                and get_kind(self.puzzle.kind).number_key and not self.answered):
            return
        self._submit_pending = True
        try:
            loop = asyncio.get_running_loop()
        except RuntimeError:  # no event loop (a script, a test): the box holds what was typed
            self._submit_now()
            return
        loop.call_later(SUBMIT_WAIT, self._submit_now)

    def _number_changed(self, _change) -> None:
        if self._submit_pending:
            self._submit_now()

    def _submit_now(self) -> None:
        if self._submit_pending:
            self._submit_pending = False
            self.answer(self.number.value)

    def _browser_connected(self, when: float) -> None:
        """A browser has opened the page: a puzzle shown before then starts its clock now."""
        # a puzzle shown with no browser there has an infinite start time (see next())
        if self.puzzle is not None and not self.answered and (self._shown_at == float("inf") or self._shown_at < when):
            self._shown_at = when

    def _rename(self, change) -> None:
        name = str(change["new"]).strip()
        if not name:
            self._say(_("Type your name, so that your progress is kept under it."), error=True)
            return
        self.learner = name[:60]
        self._say(_("Your answers are now saved for {name}.").format(name=self.learner))

    # --- showing a puzzle ------------------------------------------------------------
    def _say(self, text: str, *, error: bool = False) -> None:
        colour = _BAD if error else _NEUTRAL
        self.message.value = f"<div style='color:{colour}'>{html.escape(text)}</div>" if text else ""

    def _update_header(self) -> None:
        p = self.puzzle
        where = ""
        if p is not None:
            where = _(" · {topic} · difficulty {difficulty}").format(topic=html.escape(topic_name(topic_of(p))),
                                                                   difficulty=p.difficulty)
        score = _("Score <b>{right}</b> of {answered} · streak <b>{streak}</b> (best {best})").format(
            right=self.right, answered=self.answered_count, streak=self.streak, best=self.best_streak)
        self.header.value = (f"<h3 style='margin:4px 0'>{html.escape(self.title)}</h3>"
                             f"<div>{score}{where}</div>")

    def next(self) -> None:
        """Show the next puzzle (chosen by the practice rules)."""
        if self.puzzle is not None and not self.answered and not self._skip_warned:
            self._say(_("Answer this puzzle first, or press Next again to skip it."))
            self._skip_warned = True  # a second press skips
            return
        if self.puzzle is not None and not self.answered:
            self.practice.skip(self.puzzle)
        self._skip_warned = False
        try:
            puzzle = self.practice.next()
        except CanastaError as e:
            puzzle = None
            self._say(_("No more puzzles could be made: {problem}").format(problem=e), error=True)
        self.puzzle = puzzle
        self.solution = None
        self.answered = False
        self._hints = []
        self._hints_shown = 0
        self.feedback.value = ""
        self.hint_box.value = ""
        self.followup.children = []
        self.card_toggles = []
        if puzzle is None:
            if not self.puzzles:
                self._say(_("There are no puzzles here yet. Choose another puzzle set, kind or topic."))
            else:
                self._say(_("Well done: you have answered every puzzle here."))
            self.prompt.value = self.situation.value = self.question.value = ""
            self.controls.children = []
            self.hint_button.disabled = True
            self.next_button.disabled = True
            self._update_header()
            return
        self._say("")
        self._submit_pending = False
        prompt = puzzle.prompt_text()   # in the reader's language where the puzzle's i18n: map has it
        self.prompt.value = f"<p><i>{html.escape(prompt)}</i></p>" if prompt else ""
        self.situation.value = situation_html(puzzle, answering=True)
        self._shown_count += 1
        self.question.value = (f"<p class='ct-puzzle-question' data-puzzle='{self._shown_count}'>"
                               f"<b>{html.escape(_(get_kind(puzzle.kind).question))}</b></p>")
        self.controls.children = self._make_controls(puzzle)
        self.hint_button.disabled = False
        self.next_button.disabled = False
        self._shown_at = time.perf_counter()
        if kernel_guard.browser_seen_at is None:  # no browser yet (a preheated kernel): counted from its visit
            self._shown_at = float("inf")
        self._update_header()

    def _make_controls(self, puzzle: Puzzle) -> list:
        """The kind's answer control: a number box, or one button per choice (Yes and No for a yes-no kind)."""
        record = get_kind(puzzle.kind)
        if record.number_key:
            self.number.value = ""
            self.number.disabled = False
            self.check_button.disabled = False
            return [self.number, self.check_button]
        buttons = []
        # neutral buttons: a green Yes and a red No would look like a hint
        for choice in record.options(puzzle.rules):
            wide = {} if record.answer_control == "yes-no" else {"layout": widgets.Layout(width="auto")}
            b = widgets.Button(description=choice.label, **wide)
            b.on_click(lambda _b, v=choice.answer: self.answer(v))
            buttons.append(b)
        return buttons

    # --- answering -------------------------------------------------------------------
    def hint(self) -> None:
        """Reveal one more hint (never the answer)."""
        if self.puzzle is None:
            return
        if not self._hints:
            self._hints = hints(self.puzzle)
        if self._hints_shown >= len(self._hints):
            self._say(_("No more hints for this puzzle."))
            return
        self._hints_shown += 1
        items = "".join(f"<li>{html.escape(h)}</li>" for h in self._hints[:self._hints_shown])
        heading = html.escape(_("Hint"))
        self.hint_box.value = f"<div style='color:#5d4037'><b>{heading}</b><ul>{items}</ul></div>"

    def _parse(self, value):
        """The learner's answer in the engine's terms, or a message saying what is wrong."""
        record = get_kind(self.puzzle.kind)
        if record.answer_control == "meld-choice" and isinstance(value, tuple) and len(value) == len(record.answers):
            value = dict(zip(record.answers, value))  # the older call form: answer((True, "natural"))
        return record.read(value, self.puzzle.rules)

    def answer(self, value) -> bool | None:
        """Take the learner's answer; returns whether it was right (None if it was not taken)."""
        if self.puzzle is None:
            self._say(_("There is no puzzle to answer."))
            return None
        if self.answered:
            self._say(_("You have answered this one already: press Next puzzle."))
            return None
        given, problem = self._parse(value)
        if given is None:
            self._say(problem, error=True)
            return None
        now = time.perf_counter()
        if self._shown_at > now:  # answered without a browser (a script, a test): no time to count from
            self._shown_at = now
        seconds = now - self._shown_at
        try:
            self.solution = solve(self.puzzle)
        except CanastaError as e:
            self.answered = True
            self._say(_("This puzzle cannot be solved: {problem}. Press Next puzzle.").format(problem=e), error=True)
            return None
        self.answered = True
        expected = {k: self.solution.answer[k] for k in given}
        correct = given == expected
        self.answered_count += 1
        if correct:
            self.right += 1
            self.streak += 1
            self.best_streak = max(self.best_streak, self.streak)
        else:
            self.streak = 0
        for child in self.controls.children:
            child.disabled = True
        self.hint_button.disabled = True
        self._say("")
        self._update_header()  # before the feedback: whoever sees the feedback sees the new score
        # Saved before the feedback is shown: a learner who sees the feedback and leaves at once loses nothing.
        self._save(given, correct, seconds)
        self._show_feedback(correct, given, expected)
        return correct

    def _save(self, given, correct: bool, seconds: float) -> None:
        p = self.puzzle
        attempt = Attempt(self.learner, set_of(p), p.id, p.kind, topic_of(p), p.difficulty, correct, seconds, given)
        self.practice.note(attempt)
        if self.store is None:
            if self._store_problem:
                said = _("Your progress is not being saved: {problem}").format(problem=self._store_problem)
                self._say(said, error=True)
            return
        whose = {} if self.learner_id is None else {"learner_id": self.learner_id}
        row = dict(learner=self.learner, puzzle_set=attempt.puzzle_set, puzzle_id=p.id, kind=p.kind,
                   topic=attempt.topic, difficulty=p.difficulty, answer=given, correct=correct, seconds=seconds,
                   timestamp=datetime.now(UTC).isoformat(timespec="seconds"), uid=uuid.uuid4().hex, **whose)
        self.keep.hold(row["uid"], row)  # in the browser before anything can fail here
        self._unsaved.append(row)
        self.save_pending()

    def save_pending(self) -> bool:
        """Save every attempt not saved yet (oldest first); says so when some must wait, and where they wait.
        True if none waits."""
        problem, where = "", "disk"
        while self._unsaved:
            row = self._unsaved[0]
            try:
                saved = self.store.record(**{k: v for k, v in row.items() if k != "uid"})
            except Exception as e:  # noqa: BLE001 - whatever the store's trouble, the answer is kept, never lost
                problem = str(e) if isinstance(e, CanastaError) else f"{type(e).__name__}: {e}"
                where = "page"
                break
            self._unsaved.pop(0)
            if saved:  # saved, and with it whatever the store kept in memory before
                for uid in [*self._in_store_memory, row["uid"]]:
                    self.keep.release(uid)
                self._in_store_memory = []
                continue
            problem = getattr(saved, "problem", "") or _("the progress store will save it later")
            if getattr(saved, "journal", False):  # on the server's disk: saved from there when the database is back
                self.keep.release(row["uid"])
            else:  # in the store's memory only: its journal file could not be written (or a store of its own)
                self._in_store_memory.append(row["uid"])
                where = "memory" if where == "disk" else where
        if not problem:
            return True
        said = _("Your answer counts here but could not be saved yet ({problem}).").format(problem=problem)
        self._say(f"{said} {_(KEPT[where])}", error=True)
        return False

    def _words(self, answer: dict) -> str:
        """An answer (the learner's or the engine's) in the words of the buttons."""
        return get_kind(self.puzzle.kind).words(answer, self.puzzle.rules)

    def _show_feedback(self, correct: bool, given: dict, expected: dict) -> None:
        """The answer said once (and the learner's, when it was wrong), then why: the engine's sentences, or its
        own table when the verdict has one (a score sheet: the same lines, laid out)."""
        right_answer = _capitalised(self._words(expected))
        if correct:
            said = _("<b>✔ Right!</b> {answer}.").format(answer=html.escape(right_answer))
            head = f"<div style='color:{_OK};font-size:1.2em'>{said}</div>"
        else:
            said = _("<b>✘ Not quite.</b> The answer is <b>{answer}</b>.").format(answer=html.escape(right_answer))
            chosen = _("You answered: <b>{answer}</b>.").format(answer=html.escape(_capitalised(self._words(given))))
            head = (f"<div style='color:{_BAD};font-size:1.2em'>{said}</div>"
                    f"<div class='ct-chosen-answer'>{chosen}</div>")
        why = html.escape(_("Why"))
        if hasattr(self.solution.verdict, "to_html"):  # a verdict with a table of its own (a score sheet)
            table = self.solution.verdict.to_html()
            body = f"<div class='ct-why'><b>{why}</b><div class='ct-scroll'>{table}</div></div>"
        else:
            reasons = "".join(f"<li>{html.escape(line)}</li>" for line in self.solution.explanation)
            body = f"<div class='ct-why'><b>{why}</b><ul>{reasons}</ul></div>"
        self.feedback.value = f"<div class='ct-feedback' tabindex='-1' role='status'>{head}{body}</div>"
        record = get_kind(self.puzzle.kind)
        if record.followup == "shown-cards" and correct and expected.get(record.yes_no):
            self._ask_which_cards()

    # --- "which cards?" after a right Yes on a take-the-pile puzzle -------------------
    def _ask_which_cards(self) -> None:
        hand = self.puzzle.field("hand", ())
        top = self.puzzle.field("pile", ())[-1]
        self.card_toggles = []
        for card in hand:
            self.card_toggles.append(card_button(card, toggle=True))
        check = widgets.Button(description=_("Check these cards"), button_style="primary",
                               layout=widgets.Layout(width="auto"))
        check.on_click(lambda _b: self.check_cards())
        self.followup_feedback.value = ""
        asked = _("<b>And which cards from your hand do you show with the {card}?</b> Click them (none, if it goes "
                  "on a meld), then check.").format(card=html.escape(top.text))
        question = widgets.HTML(f"<p>{asked}</p>")
        row = widgets.HBox(self.card_toggles, layout=widgets.Layout(flex_flow="row wrap"))
        self.followup.children = [question, row, check, self.followup_feedback]

    def choose_cards(self, *codes: str) -> None:
        """Select the hand cards with these codes (as clicking them would)."""
        wanted = [str(c).upper() for c in codes]
        hand = self.puzzle.field("hand", ())
        for toggle, card in zip(self.card_toggles, hand):
            toggle.value = card.code in wanted
            if toggle.value:
                wanted.remove(card.code)

    def check_cards(self) -> bool | None:
        """Ask the engine whether the selected cards are a right way to take the pile."""
        if not self.card_toggles and not self.followup.children:
            return None
        from ..engine.pile import check_shown_cards

        p = self.puzzle
        hand = p.field("hand", ())
        shown = tuple(card for toggle, card in zip(self.card_toggles, hand) if toggle.value)
        v = check_shown_cards(hand, p.field("melds", []), p.field("score", 0), p.field("pile", ()), shown, p.rules)
        colour = _OK if v.ok else _BAD
        mark = _("✔ Yes.") if v.ok else _("✘ Not those.")
        items = "".join(f"<li>{html.escape(r.text)}</li>" for r in v.reasons)
        self.followup_feedback.value = f"<div style='color:{colour}'><b>{mark}</b><ul>{items}</ul></div>"
        return v.ok


def _capitalised(text: str) -> str:
    """A sentence's first word with a capital letter ("not a meld" -> "Not a meld"); Afrikaans keeps a first
    "'n" small and writes the next word with the capital ("'n meld" -> "'n Meld")."""
    if text.startswith("'n "):
        return "'n " + _capitalised(text[3:])
    return text[:1].upper() + text[1:]


class PracticeRoom(widgets.VBox):
    """Choose topics, difficulty and whether to replay only missed puzzles; then practise."""

    def __init__(self, source=None, *, learner: str | None = None, store=None, **kwargs):
        super().__init__(**kwargs)
        ask_name = True
        if learner is None:
            learner, ask_name = signed_in(learner="learner", ask_name=True)
        self._signed_in = None if ask_name else learner
        self._source = source
        self._store = store
        puzzles, problems = load_puzzles(source)
        self._puzzles = puzzles
        topics = sorted({topic_of(p) for p in puzzles})
        self.name = widgets.Text(value=learner, description=_("Your name:"),
                                 layout=widgets.Layout(width="100%", max_width="20em",
                                                       display="" if ask_name else "none"))
        self.topics = widgets.SelectMultiple(options=[(topic_name(t), t) for t in topics], description=_("Topics:"),
                                             rows=min(8, max(3, len(topics))),
                                             layout=widgets.Layout(width="100%", max_width="30em"))
        self.difficulty = widgets.IntRangeSlider(value=(1, 5), min=1, max=5, description=_("Difficulty:"))
        self.missed = widgets.Checkbox(value=False, description=_("Only the puzzles I missed"), indent=False,
                                   layout=widgets.Layout(width="auto", max_width="100%"))
        self.start = widgets.Button(description=_("Start"), button_style="primary")
        self.start.on_click(lambda _b: self.begin())
        self.mistakes_button = widgets.Button(description=_("Learn from your mistakes"),
                                              tooltip=_("your costly decisions in hands played with the coach, as "
                                                        "puzzles on the card table"),
                                              layout=widgets.Layout(width="auto"))
        self.mistakes_button.on_click(lambda _b: self.begin_mistakes())
        self.message = widgets.HTML(
            f"<div style='color:{_BAD}'>{html.escape('; '.join(problems[:3]))}</div>" if problems else "")
        self.area = widgets.VBox()
        self.trainer: Trainer | None = None
        all_topics = html.escape(_("No topic chosen means all of them."))
        self.children = [self.name, widgets.HTML(f"<small>{all_topics}</small>"), self.topics,
                         self.difficulty, self.missed,
                         widgets.HBox([self.start, self.mistakes_button], layout=widgets.Layout(flex_flow="row wrap")),
                         self.message, self.area]

    def begin(self) -> None:
        low, high = self.difficulty.value
        self.trainer = Trainer(self._puzzles, learner=self._signed_in or self.name.value, store=self._store,
                               topics=list(self.topics.value) or None, difficulties=range(low, high + 1),
                               missed_only=self.missed.value, endless=not self.missed.value, title=_("Practice"),
                               ask_name=False)
        self.area.children = [self.trainer]

    def begin_mistakes(self) -> None:
        """Practise the learner's costly decisions of coached hands (:class:`~.mistakes.MistakesTrainer`): each
        comes back until answered right."""
        from .mistakes import MistakesTrainer

        self.trainer = MistakesTrainer(learner=self._signed_in or self.name.value, store=self._store)
        self.area.children = [self.trainer]
