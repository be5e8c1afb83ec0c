"""The lessons' prose in each language: one notebook per lesson, one file of translations per lesson and language.

The English prose is the notebook's own markdown. A translation is ``lessons/i18n/<lang>/<notebook-stem>.yaml``::

    cells:                 # a markdown cell's id (nbformat 4.5 cell ids) -> that cell in the language
      7b3a6f76: |
        # 4. De stapel pakken
        ...
    strings:               # a string a code cell passes to a one-line call (question=, title=) -> translation
      "One nine and a two in your hand. May you take the pile?": "..."
    quotes:                # the rule sources' own words the cells quote (docs/sources/<number>_*.txt): a test
      - {source: "001", text: "Har I det, må I lukke"}   # finds each in its source and in a cell

Both the server (the standalone Voilà pages, whose markdown the server renders: :func:`translated_notebook`) and
the page's kernel (the landing page's in-page lesson view, and the questions of worked examples:
:func:`translated_string`) read these files, so this module sits below both ``web/`` and ``widgets/`` and imports
neither Jupyter nor a server. A cell or string with no entry stays English (the tests say which lessons are not
translated yet); a damaged file is a clear :class:`LessonTextError`, never a traceback on a learner's page.

A quote of a rule source stays in the source's language in every file; a translation follows it only where the
reader's language is another one.
"""

from __future__ import annotations

import ast
import copy
import re
from dataclasses import dataclass, field
from pathlib import Path

from ..engine.errors import CanastaError
from ..engine.i18n import SOURCE_LANGUAGE, normalise_language

#: The folder, inside the lessons folder, that holds the translations.
FOLDER = "i18n"
#: The keyword arguments of a lesson's one-line calls whose strings a reader reads.
TRANSLATED_KEYWORDS = ("question", "title")
#: A file larger than this is not a lesson's prose.
MAX_BYTES = 256 * 1024

_LINK = re.compile(r"\[[^\]]*\]\(([^)\s]+)\)")
_PLACEHOLDER = re.compile(r"\{[A-Za-z_][A-Za-z0-9_]*\}")


class LessonTextError(CanastaError):
    """A lesson's translation file that cannot be read."""


@dataclass(frozen=True)
class LessonText:
    """One lesson's prose in one language: markdown by cell id, strings by their English."""

    cells: dict = field(default_factory=dict)
    strings: dict = field(default_factory=dict)
    quotes: tuple = ()  # (source number, its words) pairs


def translation_path(lessons_dir: Path, lang: str, stem: str) -> Path:
    return Path(lessons_dir) / FOLDER / normalise_language(lang) / f"{stem}.yaml"


_CACHE: dict[Path, tuple[float, LessonText]] = {}


def _parse(path: Path) -> LessonText:
    import yaml

    try:
        raw = path.read_bytes()
    except OSError as e:
        raise LessonTextError(f"{path.name}: cannot be read ({e.strerror or e})") from None
    if len(raw) > MAX_BYTES:
        raise LessonTextError(f"{path.name}: larger than {MAX_BYTES // 1024} KB")
    try:
        data = yaml.safe_load(raw.decode("utf-8")) or {}
    except (UnicodeDecodeError, yaml.YAMLError) as e:
        raise LessonTextError(f"{path.name}: not readable YAML ({str(e).splitlines()[0]})") from None
    if not isinstance(data, dict) or set(data) - {"cells", "strings", "quotes"}:
        raise LessonTextError(f"{path.name}: a lesson's translation holds 'cells', 'strings' and 'quotes' only")
    parts = {}
    for key in ("cells", "strings"):
        part = data.get(key) or {}
        if not isinstance(part, dict) or not all(isinstance(k, str) and isinstance(v, str) for k, v in part.items()):
            raise LessonTextError(f"{path.name}: '{key}' maps texts to texts")
        parts[key] = dict(part)
    quotes = data.get("quotes") or []
    if not isinstance(quotes, list) or not all(isinstance(q, dict) and set(q) == {"source", "text"} and
                                               all(isinstance(v, str) for v in q.values()) for q in quotes):
        raise LessonTextError(f"{path.name}: 'quotes' is a list of {{source, text}}")
    return LessonText(parts["cells"], parts["strings"], tuple((q["source"], q["text"]) for q in quotes))


def lesson_text(lessons_dir: Path, lang: str, stem: str) -> LessonText:
    """The lesson's prose in ``lang`` (empty for English, or when there is no file yet); read again when the file
    changes."""
    lang = normalise_language(lang)
    if lang == SOURCE_LANGUAGE:
        return LessonText()
    path = translation_path(lessons_dir, lang, stem)
    try:
        mtime = path.stat().st_mtime
    except OSError:
        return LessonText()
    cached = _CACHE.get(path)
    if cached and cached[0] == mtime:
        return cached[1]
    text = _parse(path)
    _CACHE[path] = (mtime, text)
    return text


def translated_notebook(notebook, lessons_dir: Path, lang: str, stem: str):
    """A copy of ``notebook`` (an nbformat node) with each markdown cell that has a translation in ``lang``
    swapped for it; the notebook itself is left as it was."""
    text = lesson_text(lessons_dir, lang, stem)
    if not text.cells:
        return notebook
    out = copy.deepcopy(notebook)
    for cell in out.cells:
        if cell.get("cell_type") == "markdown" and cell.get("id") in text.cells:
            cell["source"] = text.cells[cell["id"]]
    return out


def translated_string(english: str, lessons_dir: Path, lang: str) -> str:
    """``english`` (a question or title a lesson passes to a call) in ``lang``: looked up in every lesson's file of
    that language (the same English gets the same translation); itself where none has it."""
    lang = normalise_language(lang)
    if lang == SOURCE_LANGUAGE:
        return english
    folder = Path(lessons_dir) / FOLDER / lang
    for path in sorted(folder.glob("*.yaml")) if folder.is_dir() else []:
        found = lesson_text(lessons_dir, lang, path.stem).strings.get(english)
        if found:
            return found
    return english


# ---- what a translation must match (the tests read these) ---------------------------------------------------

def markdown_cells(notebook) -> dict[str, str]:
    """The notebook's markdown cells by id (a plain JSON notebook or an nbformat node)."""
    out = {}
    for cell in notebook["cells"]:
        if cell.get("cell_type") == "markdown":
            source = cell.get("source", "")
            out[cell.get("id", "")] = "".join(source) if isinstance(source, list) else source
    return out


def call_strings(notebook) -> list[str]:
    """The literal strings the notebook's code cells pass as ``question=`` or ``title=`` to a call."""
    out = []
    for cell in notebook["cells"]:
        if cell.get("cell_type") != "code":
            continue
        source = cell.get("source", "")
        try:
            tree = ast.parse("".join(source) if isinstance(source, list) else source)
        except SyntaxError:
            continue
        for node in ast.walk(tree):
            if isinstance(node, ast.Call):
                out += [k.value.value for k in node.keywords if k.arg in TRANSLATED_KEYWORDS
                        and isinstance(k.value, ast.Constant) and isinstance(k.value.value, str)]
    return out


def link_targets(markdown: str) -> list[str]:
    """The targets of the markdown links, in order (a translation keeps them: links to lessons go where they went)."""
    return _LINK.findall(markdown)


def placeholders(text: str) -> list[str]:
    return sorted(_PLACEHOLDER.findall(text))


def problems(notebook, text: LessonText, name: str) -> list[str]:
    """What a translation lacks or changes against the English notebook: a markdown cell or a string with no entry,
    an entry for no cell or string, links or placeholders that differ, a cell whose headings differ in number."""
    out = []
    english = markdown_cells(notebook)
    strings = call_strings(notebook)
    for cell_id in english:
        if not text.cells.get(cell_id, "").strip():
            out.append(f"{name}: markdown cell {cell_id} has no translation")
    for cell_id in set(text.cells) - set(english):
        out.append(f"{name}: a translation for cell {cell_id}, which the notebook has no markdown cell of")
    for s in strings:
        if not text.strings.get(s, "").strip():
            out.append(f"{name}: the string {s[:50]!r} has no translation")
    for s in set(text.strings) - set(strings):
        out.append(f"{name}: a translation of {s[:50]!r}, which no call of the notebook passes")
    pairs = [(f"cell {i}", english[i], text.cells[i]) for i in english if i in text.cells] + \
            [(f"string {s[:40]!r}", s, text.strings[s]) for s in strings if s in text.strings]
    for where, source, translation in pairs:
        if link_targets(source) != link_targets(translation):
            out.append(f"{name}: {where}: links {link_targets(translation)} differ from the English "
                       f"{link_targets(source)}")
        if placeholders(source) != placeholders(translation):
            out.append(f"{name}: {where}: placeholders {placeholders(translation)} differ from the English "
                       f"{placeholders(source)}")
        heads = [re.findall(r"^(#+)\s", t, re.M) for t in (source, translation)]
        if heads[0] != heads[1]:
            out.append(f"{name}: {where}: headings {heads[1]} differ from the English {heads[0]}")
    return out
