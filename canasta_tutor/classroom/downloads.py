"""The teacher's downloads, made once for both servers: the class's results for a gradebook and worksheet PDFs.

``canasta-tutor serve --classroom`` (:mod:`canasta_tutor.web.app`) and a teacher's JupyterHub server
(:mod:`canasta_tutor.web.hub`) serve the same files: each handler checks who asks, then calls
:func:`class_export` or :func:`worksheet_download` and hands the :class:`Download` to :func:`send`.
No Jupyter import here (the servers import this module, never the reverse).

>>> sorted(EXPORTS)
['gradebook.xlsx', 'learners.csv', 'puzzles.csv']
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import NamedTuple

from ..engine.errors import clip_repr
from ..engine.i18n import gettext as _

#: The class's exports by file name, and their content types.
EXPORTS = {"learners.csv": "text/csv; charset=utf-8", "puzzles.csv": "text/csv; charset=utf-8",
           "gradebook.xlsx": "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"}
PDF = "application/pdf"


class Download(NamedTuple):
    """A file to send: its name (for ``Content-Disposition``), its content type and its bytes."""

    filename: str
    content_type: str
    body: bytes


def class_export(room, name: str, *, live: bool = False, tz: str | None = None) -> Download:
    """``learners.csv``, ``puzzles.csv`` (UTF-8 with a byte-order mark, so that Excel reads the names right) or
    ``gradebook.xlsx`` of ``room``'s open class (a :class:`~canasta_tutor.classroom.roster.Classroom`), named
    ``canasta-DATE-NAME`` after the day the class was made; made by :class:`~.gradebook.Gradebook` (no cell a
    spreadsheet would run, homework and topics, live answers apart: counted in accuracy only with ``live``, times
    in the teacher's time zone ``tz``). LookupError for another name or an unknown time zone; the store's
    :class:`~canasta_tutor.engine.errors.CanastaError` when the results cannot be read."""
    from .gradebook import Gradebook

    if name not in EXPORTS:
        raise LookupError(_("there is no export {name}: the exports are {exports}").format(
            name=clip_repr(name), exports=", ".join(EXPORTS)))
    book = Gradebook(room, live=live, tz=tz)
    stamp = room.current().created[:10]
    body = book.to_excel() if name.endswith(".xlsx") else book.to_csv(name.split(".")[0]).encode("utf-8-sig")
    return Download(f"canasta-{stamp}-{name}", EXPORTS[name], body)


def worksheet_for(kind: str, name: str, *, answers: bool = False, path=None, puzzle_dir=None) -> tuple[str, bytes]:
    """(file name, PDF) of the worksheet of a project puzzle set (``kind="set"``, ``name``: its file's stem) or an
    assignment (``kind="assignment"``, ``name``: its number). LookupError when there is none such; CanastaError
    when its puzzles cannot be printed."""
    from ..engine.errors import CanastaError
    from ..puzzles.format import load_puzzle_set
    from ..puzzles.worksheet import worksheet_pdf
    from .assignments import AssignmentBook

    if kind == "set":
        # the project's puzzles/ folder, as widgets.trainer.default_puzzle_dir finds it (not imported: no Jupyter)
        here = Path(__file__).resolve().parents[2] / "puzzles"
        folder = Path(puzzle_dir) if puzzle_dir else here if here.is_dir() else Path.cwd() / "puzzles"
        files = {p.stem: p for p in folder.glob("*.y*ml")} if folder.is_dir() else {}
        if name not in files:  # only the project's own sets: a name is looked up, never used as a path
            raise LookupError(_("there is no puzzle set {name}").format(name=clip_repr(name)))
        pset = load_puzzle_set(files[name])
        if pset.errors:
            raise pset.errors[0]
        puzzles, title, stem_from = pset.puzzles, pset.title_text() or name, pset.title or name
    elif kind == "assignment":
        try:
            assignment = AssignmentBook(path).get(int(name))
        except (ValueError, CanastaError):
            raise LookupError(_("there is no assignment {name}").format(name=clip_repr(name))) from None
        puzzles, title = assignment.puzzles(), assignment.title
        stem_from = title
    else:
        raise LookupError(_("there are no worksheets of {kind}: only of a puzzle set or an assignment").format(
            kind=clip_repr(kind)))
    data = worksheet_pdf(puzzles, key=answers, title=title)
    # the file's name from the English title (the same name in every language; the sheet itself is translated)
    stem = re.sub(r"[^A-Za-z0-9]+", "-", stem_from).strip("-")[:50] or "worksheet"
    return stem + ("-answers" if answers else ""), data


def worksheet_download(kind: str, name: str, *, answers: bool = False, path=None) -> Download:
    """:func:`worksheet_for` as a :class:`Download` (``TITLE.pdf``)."""
    title, body = worksheet_for(kind, name, answers=answers, path=path)
    return Download(f"{title}.pdf", PDF, body)


def send(handler, download: Download) -> None:
    """Finish a tornado request handler's answer with ``download`` as an attachment that is never cached."""
    handler.set_header("Content-Type", download.content_type)
    handler.set_header("Content-Disposition", f"attachment; filename={download.filename}")
    handler.set_header("Cache-Control", "no-store")
    handler.finish(download.body)


__all__ = ["EXPORTS", "Download", "class_export", "send", "worksheet_download", "worksheet_for"]
