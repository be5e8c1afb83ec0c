"""The class's results as a gradebook takes them: the tables behind ``learners.csv``, ``puzzles.csv`` and
``gradebook.xlsx`` (pandas and openpyxl; no Jupyter import).

* **Safe cells.** A text cell that starts with ``=``, ``+``, ``-``, ``@``, a tab or a carriage return (OWASP's
  list for CSV injection) would be read as a formula by a spreadsheet: in a CSV it gets a leading ``'``
  (shown by no spreadsheet, it keeps the text as text), in the workbook it is written as text (never a formula)
  and marked "quote prefix", so that editing it keeps it text. A learner called ``=HYPERLINK(...)`` stays a name.
* **What a gradebook wants.** One row per learner: answers, right, accuracy, the last answer, who is stuck; each
  assignment's puzzles done and right; the accuracy in each topic. The workbook adds the homework and topics as
  long tables, the puzzles, and every answer.
* **Live answers.** Answers to the teacher's live puzzle (found in ``live_answers``: the same learner, the same
  puzzle, within :data:`LIVE_MATCH_SECONDS`) are marked ``live`` and counted apart; accuracy leaves them out
  unless ``live=True`` (the dashboard's second set of links).
* **Readable.** Answers in the words of the buttons (``Yes``, ``Natural canasta``, ``60``) beside the question;
  times in the teacher's time zone (``tz``, else ``$CANASTA_TUTOR_TIMEZONE``, else this machine's), each with
  the ISO time in UTC in a machine column; the workbook has its header row frozen, its columns sized and its
  accuracies formatted as percentages.
* **In the teacher's language.** The column headings, the sheets' names and the words in the cells (``yes``, the
  questions, the answers) are in the current language (:mod:`canasta_tutor.engine.i18n`: the request's, for the
  server's downloads); the tables are built with the English names (:data:`HEADINGS`), translated as they are
  written, so that English files stay as they were.
"""

from __future__ import annotations

import io
import json
import os
from datetime import datetime, timedelta
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from ..engine.errors import clip_repr
from ..engine.i18n import NP_, pgettext
from ..engine.i18n import gettext as _
from .cells import FORMULA_START, is_formula_like, neutral, neutral_frame  # noqa: F401 (the exports' names)
from .words import kind_name, topic_name

TZ_ENV = "CANASTA_TUTOR_TIMEZONE"
#: A live answer and the attempt the trainer saved for it are this close in time (seconds).
LIVE_MATCH_SECONDS = 300
PERCENT = "0%"
#: Every fixed column heading of the exports (context "export"), translated when a file is written.
HEADINGS = {pair[1]: pair for pair in (
    NP_("export", "learner"), NP_("export", "answers"), NP_("export", "right"), NP_("export", "accuracy"),
    NP_("export", "topics"), NP_("export", "last answer (UTC, ISO 8601)"), NP_("export", "misses in a row"),
    NP_("export", "stuck"), NP_("export", "live answers"), NP_("export", "live right"), NP_("export", "assignment"),
    NP_("export", "due"), NP_("export", "puzzles"), NP_("export", "done"), NP_("export", "complete"),
    NP_("export", "topic"), NP_("export", "set"), NP_("export", "puzzle"), NP_("export", "question"),
    NP_("export", "attempts"), NP_("export", "misses"), NP_("export", "most common wrong answer"),
    NP_("export", "given"), NP_("export", "time (UTC, ISO 8601)"), NP_("export", "kind"),
    NP_("export", "difficulty"), NP_("export", "answer"), NP_("export", "seconds"), NP_("export", "live puzzle"),)}
#: The workbook's sheets (context "export sheet"); a sheet's name has at most 31 characters.
SHEETS = {pair[1]: pair for pair in (NP_("export sheet", "Learners"), NP_("export sheet", "Homework"),
                                     NP_("export sheet", "Topics"), NP_("export sheet", "Puzzles"),
                                     NP_("export sheet", "Attempts"))}


# --- the teacher's clock -----------------------------------------------------------------------------------------
def teacher_zone(tz: str | None = None):
    """(tzinfo, its name) of ``tz`` (an IANA name such as ``Europe/Amsterdam``), else ``$CANASTA_TUTOR_TIMEZONE``,
    else this machine's zone. LookupError for a name that is no time zone."""
    name = (tz or os.environ.get(TZ_ENV, "")).strip()
    if name:
        try:
            return ZoneInfo(name), name
        except (ZoneInfoNotFoundError, ValueError):
            raise LookupError(_("there is no time zone {name}: use a name like Europe/Amsterdam").format(
                name=clip_repr(name))) from None
    local = datetime.now().astimezone().tzinfo
    return local, datetime.now(local).tzname() or "local time"


def _local_times(stamps, zone):
    """ISO times as 'YYYY-MM-DD HH:MM' in ``zone`` (pandas Series in, Series out; blank stays blank)."""
    import pandas as pd

    parsed = pd.to_datetime(stamps, utc=True, errors="coerce", format="ISO8601")
    return parsed.dt.tz_convert(zone).dt.strftime("%Y-%m-%d %H:%M").fillna("")


def _utc_iso(stamps):
    import pandas as pd

    parsed = pd.to_datetime(stamps, utc=True, errors="coerce", format="ISO8601")
    return parsed.dt.strftime("%Y-%m-%dT%H:%M:%SZ").fillna("")


# --- answers in words --------------------------------------------------------------------------------------------
def answer_words(kind: str, answer_json: str) -> str:
    """A stored answer (JSON) in the words of the kind's buttons: ``Yes``, ``Natural canasta``, ``60``; the keys
    and values (``take: Yes``) when the kind does not say it.

    >>> answer_words("take-pile", '{"take": false}'), answer_words("card-points", '{"points": 60}')
    ('No', '60')
    """
    from ..puzzles.kinds import get_kind

    try:
        value = json.loads(answer_json)
    except (TypeError, ValueError):
        return str(answer_json)
    try:
        words = get_kind(kind).words(value)
        return _(words) if words else words  # a button's words (marked in the kind's record), translated
    except (LookupError, TypeError, AttributeError, ValueError):
        if isinstance(value, dict):
            from .roster import answer_keys_text

            return answer_keys_text(value)
        return str(value)


def _question(kind: str) -> str:
    from ..puzzles.kinds import get_kind

    try:
        return _(get_kind(kind).question)
    except LookupError:
        return ""


def _yes(flag: bool) -> str:
    return pgettext("export", "yes") if flag else ""


# --- the gradebook -----------------------------------------------------------------------------------------------
class Gradebook:
    """The open class of ``room`` (a :class:`~canasta_tutor.classroom.roster.Classroom`) for a gradebook.
    ``live``: count live-puzzle answers in accuracy; ``tz``: the teacher's time zone (see :func:`teacher_zone`).
    The store's :class:`~canasta_tutor.engine.errors.CanastaError` when the results cannot be read."""

    def __init__(self, room, *, live: bool = False, tz: str | None = None):
        import pandas as pd

        from .roster import ClassReport

        self.zone, self.zone_name = teacher_zone(tz)
        self.live = live
        info = room.current()
        frame = room.attempts(info.id)
        frame["live"] = pd.Series(_live_flags(frame, _live_answers(room, info.code)), index=frame.index, dtype=bool)
        self.frame = frame
        self.names = [row["name"] for row in room.learners(info.id)]
        counted = frame if live else frame.loc[~frame["live"]]
        self.report = ClassReport(counted, self.names)
        self.everything = ClassReport(frame, self.names)
        self._homework = _homework(room, info.code, info.id)
        #: the headings made from a name (an assignment, a topic, the time zone), in the current language
        self._made: dict[str, str] = {}

    def _heading(self, english: str, translated: str) -> str:
        """A column named from values: ``english`` in the tables, ``translated`` in the files."""
        self._made[english] = translated
        return english

    def heading(self, name) -> str:
        """A column's heading in the current language (a fixed one from :data:`HEADINGS`, or a made one)."""
        if name in self._made:
            return self._made[name]
        return pgettext(*HEADINGS[name]) if name in HEADINGS else str(name)

    def translated(self, frame):
        """``frame`` with its headings in the current language."""
        return frame.rename(columns=self.heading)

    @property
    def time_column(self) -> str:
        return self._heading(f"time ({self.zone_name})", _("time ({zone})").format(zone=self.zone_name))

    # --- the tables ------------------------------------------------------------------------------------------
    def learners(self):
        """One row per learner: the counted answers, live answers apart, each assignment, each topic's accuracy."""
        per = self.report.per_learner().set_index("learner")
        everything = self.frame.groupby("learner")
        live = self.frame[self.frame["live"]].groupby("learner")["correct"].agg(["size", "sum"])
        out = per[["attempts", "correct", "accuracy", "topics"]].rename(columns={"attempts": "answers",
                                                                                 "correct": "right"})
        last = everything["timestamp"].max().reindex(out.index)
        last_column = self._heading(f"last answer ({self.zone_name})",
                                    _("last answer ({zone})").format(zone=self.zone_name))
        out[last_column] = _local_times(last, self.zone).to_numpy()
        out["last answer (UTC, ISO 8601)"] = _utc_iso(last).to_numpy()
        out["misses in a row"] = per["misses_in_a_row"]
        out["stuck"] = per["stuck"].map({True: _yes(True), False: ""})
        out["live answers"] = live["size"].reindex(out.index).fillna(0).astype(int)
        out["live right"] = live["sum"].reindex(out.index).fillna(0).astype(int)
        homework = self.homework()
        for title, group in homework.groupby("assignment", sort=False):
            total = int(group["puzzles"].iloc[0])
            rows = group.set_index("learner")
            done = self._heading(f"{title}: done (of {total})",
                                 _("{title}: done (of {total})").format(title=title, total=total))
            right = self._heading(f"{title}: right (of {total})",
                                  _("{title}: right (of {total})").format(title=title, total=total))
            out[done] = rows["done"].reindex(out.index).fillna(0).astype(int)
            out[right] = rows["right"].reindex(out.index).fillna(0).astype(int)
        topics = self.topics()
        for topic, group in topics.groupby("topic"):
            column = self._heading(f"accuracy: {topic}", _("accuracy: {topic}").format(topic=topic_name(topic)))
            out[column] = group.set_index("learner")["accuracy"].reindex(out.index)
        return out.reset_index()

    def homework(self):
        """Learners x assignments as a long table: assignment, due, puzzles, done, right, complete."""
        return self._homework

    def topics(self):
        """One row per learner and topic they answered: answers, right, accuracy (live answers as for accuracy)."""
        import pandas as pd

        frame = self.report.frame
        if not len(frame):
            return pd.DataFrame(columns=["learner", "topic", "answers", "right", "accuracy"])
        grouped = frame.groupby(["learner", "topic"])["correct"].agg(answers="size", right="sum").reset_index()
        grouped["accuracy"] = (grouped["right"] / grouped["answers"]).round(2)
        return grouped

    def puzzles(self):
        """One row per puzzle: its set, the answers, misses, accuracy and the most common wrong answer in words."""
        per = self.report.per_puzzle()
        if not len(per):
            return per
        kinds = self.frame.drop_duplicates(["puzzle_set", "puzzle_id"]).set_index(["puzzle_set", "puzzle_id"])["kind"]
        wrong = []
        for row in per.itertuples():
            misses = self.report.frame[(self.report.frame["puzzle_set"] == row.puzzle_set)
                                       & (self.report.frame["puzzle_id"] == row.puzzle_id)
                                       & ~self.report.frame["correct"]]
            wrong.append(answer_words(kinds.get((row.puzzle_set, row.puzzle_id), ""),
                                      misses["answer"].value_counts().index[0]) if len(misses) else "")
        per["common_wrong_answer"] = wrong
        per.insert(2, "question", [_question(kinds.get((s, p), "")) for s, p in zip(per["puzzle_set"],
                                                                                    per["puzzle_id"])])
        return per.rename(columns={"puzzle_set": "set", "puzzle_id": "puzzle", "common_wrong_answer":
                                   "most common wrong answer", "times_given": "given"})

    def answers(self):
        """Every answer, oldest first: when (the teacher's time and ISO), who, which puzzle, the answer in words,
        right or not, live or practice."""
        import pandas as pd

        f = self.frame
        return pd.DataFrame({
            self.time_column: _local_times(f["timestamp"], self.zone),
            "time (UTC, ISO 8601)": _utc_iso(f["timestamp"]),
            "learner": f["learner"], "set": f["puzzle_set"], "puzzle": f["puzzle_id"], "kind": f["kind"].map(kind_name),
            "topic": f["topic"].map(topic_name), "difficulty": f["difficulty"],
            "question": [_question(k) for k in f["kind"]],
            "answer": [answer_words(k, a) for k, a in zip(f["kind"], f["answer"])],
            "right": f["correct"].map({True: _yes(True), False: pgettext("export", "no")}),
            "seconds": f["seconds"],
            "live puzzle": f["live"].map({True: pgettext("export", "live"), False: ""}),
        })

    # --- files -----------------------------------------------------------------------------------------------
    def to_csv(self, which: str = "learners") -> str:
        frame = self.learners() if which == "learners" else self.puzzles()
        if "topic" in frame:
            frame["topic"] = frame["topic"].map(topic_name)
        return neutral_frame(self.translated(frame)).to_csv(index=False)

    def sheets(self) -> dict:
        """The workbook's tables by sheet (English names and headings: :meth:`to_excel` translates them)."""
        topics, puzzles = self.topics(), self.puzzles()
        for frame in (topics, puzzles):  # the topics in the teacher's language
            if "topic" in frame:
                frame["topic"] = frame["topic"].map(topic_name)
        return {"Learners": self.learners(), "Homework": self.homework(), "Topics": topics,
                "Puzzles": puzzles, "Attempts": self.answers()}

    def to_excel(self) -> bytes:
        """The workbook: Learners, Homework, Topics, Puzzles, Attempts (every answer)."""
        import pandas as pd

        buffer = io.BytesIO()
        with pd.ExcelWriter(buffer, engine="openpyxl") as writer:
            for name, frame in self.sheets().items():
                sheet = pgettext(*SHEETS[name])[:31]
                percent = [str(c).startswith("accuracy") for c in frame.columns]
                frame = self.translated(frame)
                frame.to_excel(writer, sheet_name=sheet, index=False)
                _format_sheet(writer.sheets[sheet], frame, freeze="B2" if name == "Learners" else "A2",
                              percent=percent)
        return buffer.getvalue()


def _format_sheet(sheet, frame, *, freeze: str, percent) -> None:
    """Header row frozen, columns as wide as their text (up to 50), accuracies as percentages, and every text
    cell that a spreadsheet would read as a formula written as text. ``percent``: for each column, whether it holds
    accuracies."""
    from openpyxl.utils import get_column_letter

    sheet.freeze_panes = freeze
    for index, column in enumerate(frame.columns, start=1):
        letter = get_column_letter(index)
        values = [str(column)] + [str(v) for v in frame[column].head(500).tolist()]
        sheet.column_dimensions[letter].width = min(50, max(8, max(len(v) for v in values) + 2))
        if percent[index - 1]:
            for (cell,) in sheet.iter_rows(min_row=2, min_col=index, max_col=index):
                cell.number_format = PERCENT
    for row in sheet.iter_rows():
        for cell in row:
            if is_formula_like(cell.value):
                cell.data_type = "s"      # openpyxl took a leading "=" for a formula
                cell.quotePrefix = True


# --- what the class did ------------------------------------------------------------------------------------------
def _live_answers(room, class_code: str) -> list[tuple]:
    from .live import LiveClass

    return LiveClass(class_code, room.path).all_answers()


def _live_flags(frame, live_answers) -> list[bool]:
    """For each attempt of ``frame``: whether it is the trainer's copy of a live answer (same learner, by their id
    when both have one, else by name; same puzzle; the nearest in time within LIVE_MATCH_SECONDS, each live answer
    matched once)."""
    import pandas as pd

    flags = [False] * len(frame)
    if not len(frame) or not live_answers:
        return flags
    stamps = pd.to_datetime(frame["timestamp"], utc=True, errors="coerce", format="ISO8601")
    ids = frame["learner_id"] if "learner_id" in frame else pd.Series([None] * len(frame))
    rows: dict[tuple, list[int]] = {}
    for i, (learner, learner_id, pid) in enumerate(zip(frame["learner"], ids, frame["puzzle_id"])):
        rows.setdefault((_whose(learner, learner_id), pid), []).append(i)
        rows.setdefault((("name", learner), pid), []).append(i)
    window = timedelta(seconds=LIVE_MATCH_SECONDS)
    for learner, puzzle_id, answered_at, *learner_id in live_answers:
        when = pd.to_datetime(answered_at, utc=True, errors="coerce", format="ISO8601")
        whose = _whose(learner, learner_id[0] if learner_id else None)  # an answer without an id: by its name
        near = [(abs(stamps.iloc[i] - when), i) for i in rows.get((whose, puzzle_id), ())
                if not flags[i] and pd.notna(stamps.iloc[i]) and abs(stamps.iloc[i] - when) <= window]
        if near:
            flags[min(near)[1]] = True
    return flags


def _whose(name, learner_id):
    """Who gave an answer: the learner's id when there is one (a learner of the class), else the name."""
    try:
        if learner_id is not None and learner_id == learner_id:  # (NaN: no id)
            return ("id", int(learner_id))
    except (TypeError, ValueError):
        pass
    return ("name", name)


def _homework(room, class_code: str, class_id: int):
    """Every learner of the class x the class's assignments, each learner's answers by their id."""
    from .assignments import AssignmentBook

    return AssignmentBook(room.path).results(class_code, class_id=class_id)


__all__ = ["FORMULA_START", "Gradebook", "answer_words", "is_formula_like", "neutral", "neutral_frame",
           "teacher_zone"]
