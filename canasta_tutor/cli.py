"""The ``canasta-tutor`` command.

``solve FILE...`` prints one JSON object per puzzle, one per line;
``check FILE...`` reports every puzzle whose ``expect:`` disagrees with the engine;
``play`` plays bot-only hands (``--json``: one JSON line per hand).
Exit status: 0 all well; 1 a puzzle could not be solved (or, for ``check``,
disagrees); 2 a file is not valid YAML or not a puzzle set, or an argument is
wrong. A folder stands for every ``*.yaml``/``*.yml`` file in it. Bad input
never shows a traceback, and every message quotes at most a clipped piece of it.

``solve``, ``check`` and ``worksheet`` take ``--lang en|nl|da|af`` (default: ``$CANASTA_TUTOR_LANG``, else
English): the JSON keys stay English, the explanations are in that language. An unknown language exits 2.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import sys

from .engine.errors import MESSAGE_LIMIT, CanastaError, PuzzleError, clip
from .engine.i18n import NP_, NPN_, grouped, ngettext, npgettext, pgettext
from .engine.i18n import gettext as _

# --- a progress bar for long runs (``generate``, ``play``): shown on a terminal, never in a pipe ---

class _Silent:
    """Counts like a bar, shows nothing (output that is not a terminal, or a run too short to bother)."""

    def __init__(self, total: int | None):
        self.total = total
        self.n = 0

    def update(self, n: int = 1) -> None:
        self.n += n

    def set_postfix_str(self, _text: str) -> None:
        pass

    def close(self) -> None:
        pass

    def __enter__(self):
        return self

    def __exit__(self, *_exc) -> None:
        self.close()


def progress(total: int | None, unit: str, *, stream=None, desc: str = "", minimum: int = 1):
    """A bar counting ``total`` ``unit``\\ s on ``stream`` (default standard error) when it is a terminal and
    ``total`` is at least ``minimum``; else an object with the same ``update``/``close`` that shows nothing.
    The bar is tqdm's.

    >>> import io
    >>> with progress(3, "puzzles", stream=io.StringIO()) as bar:   # not a terminal: nothing is written
    ...     for _ in range(3):
    ...         bar.update(1)
    >>> bar.n
    3
    """
    stream = sys.stderr if stream is None else stream
    try:
        tty = stream.isatty()
    except (AttributeError, ValueError):
        tty = False
    if not tty or (total is not None and total < minimum):
        return _Silent(total)
    from tqdm import tqdm

    return tqdm(total=total, unit=f" {unit}", desc=desc or None, file=stream, leave=False, dynamic_ncols=True)


#: The most puzzles ``generate`` writes in one go (see ``generator.MAX_COUNT``).
MAX_COUNT = 10_000


def _whole_number(low: int, high: int | None, what: str):
    """An argparse type: a whole number from ``low`` to ``high``, with a short message otherwise."""

    def convert(text: str) -> int:
        digits = text.strip().lstrip("+-")
        if not digits.isdigit() or not digits.isascii():
            raise argparse.ArgumentTypeError(_("{option} must be a whole number, not {text}").format(
                option=what, text=repr(clip(text, 40))))
        if len(digits) > 12:
            said = (_("{option} {text} is out of range ({low} to {high})") if high else
                    _("{option} {text} is too large"))
            raise argparse.ArgumentTypeError(said.format(option=what, text=clip(text, 20), low=low, high=high))
        value = int(text)
        if value < low or (high is not None and value > high):
            said = (_("{option} must be from {low} to {high}, not {value}") if high is not None else
                    _("{option} must be at least {low}, not {value}"))
            raise argparse.ArgumentTypeError(said.format(option=what, low=low, high=high, value=value))
        return value

    convert.__name__ = what  # argparse names the type in some messages
    return convert


def _emit(obj: dict) -> None:
    sys.stdout.write(json.dumps(obj, ensure_ascii=False) + "\n")


def _error_line(file, pid, message) -> dict:
    return {"file": file, "id": pid, "error": message}


def _iterate(paths):
    """Yield (file, puzzle_set | None, file_error | None) for each file."""
    from .puzzles.format import load_puzzle_set, puzzle_files

    files = puzzle_files(paths)
    for path in files:
        try:
            yield str(path), load_puzzle_set(path), None
        except PuzzleError as e:
            yield str(path), None, e


def _solve_all(paths, *, check: bool) -> int:
    from .puzzles.solver import disagreements, solve

    status = 0
    counts = {"puzzles": 0, "disagree": 0, "errors": 0, "files": 0}
    found = False
    for file, pset, file_error in _iterate(paths):
        found = True
        counts["files"] += 1
        if file_error is not None:
            _emit(_error_line(file, None, _where(file_error)))
            status = 2
            counts["errors"] += 1
            continue
        for err in pset.errors:
            _emit(_error_line(file, err.puzzle_id, _where(err)))
            status = max(status, 1)
            counts["errors"] += 1
        for puzzle in pset.puzzles:
            counts["puzzles"] += 1
            try:
                solution = solve(puzzle)
            except CanastaError as e:
                _emit(_error_line(file, puzzle.id, clip(str(e), MESSAGE_LIMIT)))
                status = max(status, 1)
                counts["errors"] += 1
                continue
            except Exception as e:  # an engine bug must not hide the other puzzles
                if os.environ.get("CANASTA_TUTOR_DEBUG"):
                    raise
                from .engine.i18n import gettext

                text = gettext("internal error ({error}); please report it").format(
                    error=f"{type(e).__name__}: {clip(str(e))}")
                _emit(_error_line(file, puzzle.id, text))
                status = max(status, 1)
                counts["errors"] += 1
                continue
            record = {"file": file, "id": puzzle.id, "kind": puzzle.kind, "answer": solution.answer,
                      "explanation": solution.explanation}
            if not check:
                _emit(record)
                continue
            if puzzle.expect is None:
                continue
            diff = disagreements(puzzle, solution)
            if diff:
                counts["disagree"] += 1
                status = max(status, 1)
                record["expected"] = puzzle.expect
                record["disagree"] = sorted(diff)
                _emit(record)
    if not found:
        from .engine.i18n import gettext

        text = gettext("no puzzle files found in {paths}").format(paths=", ".join(map(str, paths)))
        _emit(_error_line(None, None, clip(text, MESSAGE_LIMIT)))
        return 2
    if check:
        from .engine.i18n import gettext

        sys.stderr.write(gettext("checked {puzzles} puzzles in {files} files: {disagree} disagree, {errors} "
                                 "errors").format(**counts) + "\n")
    return status


#: The environment variable that chooses the language when ``--lang`` is not given.
LANG_VARIABLE = "CANASTA_TUTOR_LANG"


def _add_lang(parser, help_text: str | None = None, dest: str = "lang") -> None:
    """``--lang`` on ``parser``; ``help_text``: its help, a whole translated sentence with ``{codes}`` and
    ``{variable}`` (default: the one of the explanations)."""
    from .engine.i18n import LANGUAGES

    codes = ", ".join(f"{c} ({n})" for c, n in LANGUAGES.items())
    if help_text is None:
        help_text = _("the language of the explanations: {codes}; default ${variable}, else en")
    parser.add_argument("--lang", metavar="LANG", dest=dest,
                        help=help_text.format(codes=codes, variable=LANG_VARIABLE))


#: argparse's own words (its usage line, headings, -h's help and its error lines), marked for our catalog
#: (context "argparse"): argparse looks each up through its module's ``_``/``ngettext`` when it writes it, so
#: :func:`_argparse_words` points those two at the catalog for the length of a parse. Its other messages are a
#: programmer's (a parser built wrong) and stay as argparse writes them.
ARGPARSE_WORDS = (
    NP_("argparse", "usage: "), NP_("argparse", "positional arguments"), NP_("argparse", "options"),
    NP_("argparse", "show this help message and exit"), NP_("argparse", "%(prog)s: error: %(message)s\n"),
    NP_("argparse", "argument %(argument_name)s: %(message)s"),
    NP_("argparse", "the following arguments are required: %s"), NP_("argparse", "unrecognized arguments: %s"),
    NP_("argparse", "invalid choice: %(value)r (choose from %(choices)s)"),
    NP_("argparse", "invalid %(type)s value: %(value)r"), NP_("argparse", "expected one argument"),
    NP_("argparse", "expected at most one argument"), NP_("argparse", "expected at least one argument"),
    NP_("argparse", "ambiguous option: %(option)s could match %(matches)s"),
    NP_("argparse", "not allowed with argument %s"), NP_("argparse", "ignored explicit argument %r"),
    NP_("argparse", "one of the arguments %s is required"), NP_("argparse", "unexpected option string: %s"),
    NP_("argparse", "unknown parser %(parser_name)r (choices: %(choices)s)"),
    NP_("argparse", "can't open '%(filename)s': %(error)s"),
)
#: argparse's one counted message, as a plural entry.
ARGPARSE_COUNTED = NPN_("argparse", "expected %s argument", "expected %s arguments")


def _argparse_gettext(message):
    return pgettext("argparse", message) if message else message


def _argparse_ngettext(singular, plural, n):
    return npgettext("argparse", singular, plural, n)


@contextlib.contextmanager
def _argparse_words():
    """argparse's own words in the current language for the block: its module's ``_`` and ``ngettext`` (bound from
    :mod:`gettext` when it was imported, read at each call) answer from our catalog, then are put back."""
    saved = argparse._, argparse.ngettext
    argparse._, argparse.ngettext = _argparse_gettext, _argparse_ngettext
    try:
        yield
    finally:
        argparse._, argparse.ngettext = saved


def _language_asked(argv) -> str:
    """The language the arguments ask for (the last ``--lang X`` or ``--lang=X`` before a ``--``), else
    ``$CANASTA_TUTOR_LANG``, else English, read before the parser is built so that its help and its errors are in
    that language. A code canasta-tutor does not speak is passed over here (the command then refuses it, in the
    language asked for before it)."""
    from .engine.i18n import SOURCE_LANGUAGE, LanguageError, normalise_language

    asked = [os.environ.get(LANG_VARIABLE, "")]
    words = list(argv)
    for i, word in enumerate(words):
        if word == "--":
            break
        if word == "--lang" and i + 1 < len(words):
            asked.append(words[i + 1])
        elif word.startswith("--lang="):
            asked.append(word.partition("=")[2])
    chosen = SOURCE_LANGUAGE
    for code in asked:
        try:
            chosen = normalise_language(code) if str(code).strip() else chosen
        except LanguageError:
            pass
    return chosen


def _chosen_language(args) -> str:
    """``--lang``, else ``$CANASTA_TUTOR_LANG``, else English; a :class:`LanguageError` for any other code."""
    from .engine.i18n import SOURCE_LANGUAGE, normalise_language

    code = next((c for c in (getattr(args, "lang", None), getattr(args, "top_lang", None)) if c is not None),
                os.environ.get(LANG_VARIABLE, "").strip())
    return normalise_language(code) if code else SOURCE_LANGUAGE


def _generate(args) -> int:
    from .puzzles.format import parse_rules
    from .puzzles.generator import generate, to_yaml

    if args.output is not None and not args.output.strip():
        sys.stderr.write("canasta-tutor generate: {message}\n".format(
            message=_("-o/--output needs a file name (leave it out to write to standard output)")))
        return 2
    try:
        rules = parse_rules(args.rules)
        with progress(args.count, "puzzles", desc=f"generate {args.kind}", minimum=200) as bar:
            text = to_yaml(generate(args.kind, count=args.count, seed=args.seed, difficulty=args.difficulty,
                                    rules=rules, from_play=args.from_play, progress=bar.update))
    except CanastaError as e:
        sys.stderr.write(f"canasta-tutor generate: {clip(str(e), MESSAGE_LIMIT)}\n")
        return 2
    if args.output:
        try:
            with open(args.output, "w", encoding="utf-8") as f:
                f.write(text)
        except OSError as e:
            sys.stderr.write("canasta-tutor generate: {message}\n".format(
                message=_("cannot write {path}: {problem}").format(path=clip(args.output), problem=e.strerror)))
            return 2
    else:
        sys.stdout.write(text)
    return 0


def _progress(args) -> int:
    from .classroom.progress import ProgressStore, default_path, printable

    path = args.db if args.db is not None else default_path()
    if not str(path).strip():
        sys.stderr.write("canasta-tutor progress: {message}\n".format(
            message=_("--db needs a file name or a database URL")))
        return 2
    try:
        store = ProgressStore(path, create=False)  # reading progress never creates a file or a folder
        frame = store.summary(args.learner)
    except CanastaError as e:
        sys.stderr.write(f"canasta-tutor progress: {printable_message(e)}\n")
        return 2
    if frame.empty:
        said = (_("No attempts recorded for {learner} yet (database: {database}).") if args.learner else
                _("No attempts recorded yet (database: {database}).")).format(
            learner=printable(args.learner or ""), database=store.where.shown)
        sys.stdout.write(said + "\n")
        return 0
    frame = frame.copy()
    frame["learner"] = frame["learner"].map(printable)
    frame["topic"] = frame["topic"].map(printable)
    frame["accuracy"] = (frame["accuracy"] * 100).round().astype(int).astype(str) + " %"
    frame["median_seconds"] = frame["median_seconds"].round(1)
    # the headings in the teacher's language (the columns' own names stay English in the data)
    frame = frame.rename(columns={c: pgettext("progress column", c) for c in PROGRESS_COLUMNS if c in frame})
    sys.stdout.write(frame.to_string(index=False) + "\n")
    pending = store.pending()
    if pending:
        sys.stdout.write(ngettext("({count} more attempt waits in {journal} to be saved by the next answer.)",
                                  "({count} more attempts wait in {journal} to be saved by the next answer.)",
                                  pending).format(count=pending, journal=store.journal) + "\n")
    return 0


#: The columns of ``progress``'s table, marked for the catalog (context "progress column").
PROGRESS_COLUMNS = tuple(c for _ctx, c in (NP_("progress column", "learner"), NP_("progress column", "topic"),
                                           NP_("progress column", "attempts"), NP_("progress column", "correct"),
                                           NP_("progress column", "accuracy"),
                                           NP_("progress column", "median_seconds"),
                                           NP_("progress column", "last_attempt")))


def _worksheet(args) -> int:
    from .puzzles.worksheet import write_worksheet

    try:
        path = write_worksheet(args.files, args.output, key=args.key, title=args.title)
    except CanastaError as e:
        sys.stderr.write(f"canasta-tutor worksheet: {e}\n")
        return 2
    from .engine.i18n import gettext

    sys.stdout.write(gettext("wrote {path}").format(path=path) + "\n")
    return 0


def _assign(args) -> int:
    from .classroom.assignments import AssignmentBook

    if bool(args.files) == bool(args.generate):
        sys.stderr.write("canasta-tutor assign: {message}\n".format(
            message=_("name puzzle files or --generate KIND (one of the two)")))
        return 2
    spec = None
    if args.generate:
        spec = {"kind": args.generate, "count": args.count, "seed": args.seed, "difficulty": args.difficulty,
                "rules": args.rules}
    try:
        book = AssignmentBook(args.db)
        made = book.create(args.title, sources=args.files, generate=spec, class_code=args.class_code, due=args.due)
        if args.output:
            try:
                with open(args.output, "w", encoding="utf-8") as f:
                    f.write(made.path.read_text("utf-8"))
            except OSError as e:
                raise CanastaError(_("cannot write {path}: {problem}").format(path=args.output,
                                                                               problem=e.strerror)) from None
    except CanastaError as e:
        sys.stderr.write(f"canasta-tutor assign: {e}\n")
        return 2
    who = _("class {code}").format(code=made.class_code) if made.class_code else _("everyone")
    if made.due:
        said = ngettext("assignment {number}: {title} for {who}, due {due}, {count} puzzle, in {path}",
                        "assignment {number}: {title} for {who}, due {due}, {count} puzzles, in {path}", made.count)
    else:
        said = ngettext("assignment {number}: {title} for {who}, {count} puzzle, in {path}",
                        "assignment {number}: {title} for {who}, {count} puzzles, in {path}", made.count)
    sys.stdout.write(said.format(number=made.id, title=repr(made.title), who=who, due=made.due, count=made.count,
                                 path=made.path) + "\n")
    return 0


def _play(args) -> int:
    from .bots.play import make_bots, play_hands, summary_line
    from .engine.rules import get_rules

    try:
        rules = get_rules(args.rules)
        make_bots(args.bots, rules.players)   # a bad bot list is refused before anything is printed
    except CanastaError as e:
        sys.stderr.write(f"canasta-tutor play: {printable_message(e)}\n")
        return 2
    totals: dict[int, int] = {}
    with progress(args.hands, "hand", desc="play", minimum=2) as bar:   # a bar on a terminal, none in pipes
        for record in play_hands(rules, args.seed, args.hands, args.bots, progress=bar.update):
            if args.json:
                _emit(record)
            else:
                sys.stdout.write(summary_line(record) + "\n")
                for i, team in enumerate(record["teams"]):
                    if "player_scores" in team:   # sides change from hand to hand (classic-3p): per player
                        for p, v in zip(team["players"], team["player_scores"]):
                            totals[p] = totals.get(p, 0) + v
                    else:
                        totals[i] = totals.get(i, 0) + team["score"]
    if not args.json:
        each = _("player {number} {score}") if rules.lone_hand else _("team {number} {score}")
        shown = ", ".join(each.format(number=i + (0 if rules.lone_hand else 1), score=f"{v:+d}")
                          for i, v in sorted(totals.items()))
        sys.stdout.write(ngettext("{count} hand of {rules}; all hands together: {totals}",
                                  "{count} hands of {rules}; all hands together: {totals}", args.hands).format(
            count=args.hands, rules=rules.name, totals=shown) + "\n")
    return 0


def printable_message(error: Exception) -> str:
    """An error message safe for a terminal: no control characters, bounded length."""
    from .classroom.progress import _CONTROL

    text = _CONTROL.sub(lambda m: m.group().encode("unicode_escape").decode("ascii"), str(error))
    return clip(text, MESSAGE_LIMIT + 200)


def _where(err: PuzzleError) -> str:
    parts = []
    if err.field:
        from .engine.i18n import gettext

        parts.append(gettext("field '{field}'").format(field=err.field))
    parts.append(err.detail)
    return ": ".join(parts)


def _kinds_help() -> str:
    from .puzzles.kinds import KINDS

    names = [name for name, kind in KINDS.items() if kind.generate]
    return _("the kind of puzzle, one of: {kinds}").format(kinds=", ".join(names))


def _parser() -> argparse.ArgumentParser:
    """The command's parser, its every help text in the current language (built inside ``use_language``)."""
    db_help = _("the progress database: a file, or a postgresql:// URL (default: $CANASTA_TUTOR_DB or the user "
                "data folder)")
    parser = argparse.ArgumentParser(prog="canasta-tutor",
                                     description=_("Learn Canasta: solve and check puzzle files, and more."))
    _add_lang(parser, _("the language of the help, the messages and the explanations: {codes}; default "
                        "${variable}, else en"), dest="top_lang")   # a subcommand's own --lang sets "lang"
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND",
                                title=_("commands"))
    p_solve = sub.add_parser("solve", help=_("print the engine's answer to every puzzle, one JSON line each"),
                             description=_("Print the engine's answer to every puzzle, one JSON line each."))
    p_solve.add_argument("files", nargs="+", metavar="FILE", help=_("a puzzle file, or a folder of them"))
    _add_lang(p_solve)
    p_check = sub.add_parser("check", help=_("report puzzles whose expect: disagrees with the engine"),
                             description=_("Report every puzzle whose expect: disagrees with the engine."))
    p_check.add_argument("files", nargs="+", metavar="FILE", help=_("a puzzle file, or a folder of them"))
    _add_lang(p_check)
    p_gen = sub.add_parser("generate", help=_("write a set of random, legal puzzles (YAML)"),
                           description=_("Write a set of random, legal puzzles (YAML)."))
    p_gen.add_argument("kind", metavar="KIND", help=_kinds_help())
    p_gen.add_argument("--count", type=_whole_number(1, MAX_COUNT, "--count"), default=20,
                       help=_("how many puzzles, 1 to {most} (default 20)").format(most=grouped(MAX_COUNT)))
    p_gen.add_argument("--seed", default="0", help=_("any text (up to 200 characters); the same seed gives the same "
                                                     "puzzles (default 0)"))
    p_gen.add_argument("--difficulty", type=_whole_number(1, 5, "--difficulty"), default=1, metavar="1..5",
                       help=_("how hard the puzzles are, 1 to 5 (default 1)"))
    p_gen.add_argument("--rules", default="classic",
                       help=_("a preset name (classic, classic-2p, classic-3p, classic-6p, danish, hoyle, samba; "
                              "default classic) or a house rule as in a puzzle file, e.g. "
                              "--rules '{preset: classic, pile_always_frozen: true}'"))
    p_gen.add_argument("-o", "--output", metavar="FILE", help=_("write here instead of standard output"))
    p_gen.add_argument("--from-play", action=argparse.BooleanOptionalAction, default=None,
                       help=_("cut the positions from seeded bot games (the default for {kinds}, where the game model "
                              "serves the rules); {option}: deal them with the kind's own generator").format(
                           kinds="take-pile, go-out, freeze, opening, score-hand", option="--no-from-play"))
    p_prog = sub.add_parser("progress", help=_("print each learner's results per topic"),
                            description=_("Print each learner's results per topic."))
    p_prog.add_argument("--learner", help=_("only this learner"))
    p_prog.add_argument("--db", help=db_help)
    _add_lang(p_prog, _("the language of the table's headings and the messages: {codes}; default ${variable}, "
                        "else en"))
    p_sheet = sub.add_parser("worksheet", help=_("print puzzles on paper: a PDF worksheet (and answer key)"),
                             description=_("Print puzzles on paper: a PDF worksheet (and answer key)."))
    p_sheet.add_argument("files", nargs="+", metavar="FILE", help=_("a puzzle file, or a folder of them"))
    p_sheet.add_argument("-o", "--output", metavar="FILE", required=True, help=_("the PDF to write"))
    p_sheet.add_argument("--key", action="store_true", help=_("add the answer key, with explanations, on new pages"))
    p_sheet.add_argument("--title", help=_("the worksheet's title (default: the puzzle set's)"))
    _add_lang(p_sheet)
    p_assign = sub.add_parser("assign", help=_("make homework: an assignment from puzzle files or the generator"),
                              description=_("Make homework: an assignment from puzzle files or the generator."))
    p_assign.add_argument("files", nargs="*", metavar="FILE", help=_("a puzzle file, or a folder of them"))
    p_assign.add_argument("--title", required=True, help=_("the assignment's title"))
    p_assign.add_argument("--due", metavar="YYYY-MM-DD", help=_("the due date (optional)"))
    p_assign.add_argument("--generate", metavar="KIND",
                          help=_("make the puzzles with the generator instead of files"))
    p_assign.add_argument("--count", type=int, default=10, help=_("how many puzzles the generator makes (default 10)"))
    p_assign.add_argument("--seed", default="0", help=_("the generator's seed (default 0)"))
    p_assign.add_argument("--difficulty", type=int, default=1, choices=range(1, 6), metavar="1..5",
                          help=_("how hard the puzzles are, 1 to 5 (default 1)"))
    p_assign.add_argument("--rules", default="classic", help=_("a preset name (default classic)"))
    p_assign.add_argument("--class", dest="class_code", default="", metavar="CODE", help=_("only for this class"))
    p_assign.add_argument("-o", "--output", metavar="FILE", help=_("also write the assignment's YAML here"))
    p_assign.add_argument("--db", help=db_help)
    _add_lang(p_assign, _("the language of the messages: {codes}; default ${variable}, else en"))
    p_play = sub.add_parser("play", help=_("play bot-only hands and print each hand (JSON lines with --json)"),
                            description=_("Play bot-only hands and print each hand (JSON lines with --json)."))
    p_play.add_argument("--rules", default="classic", help=_("a preset name (default classic)"))
    p_play.add_argument("--seed", type=_whole_number(0, None, "--seed"), default=0,
                        help=_("the same seed gives the same hands (default 0)"))
    p_play.add_argument("--hands", type=_whole_number(1, 100_000, "--hands"), default=1,
                        help=_("how many hands, 1 to {most}").format(most=grouped(100_000)))
    p_play.add_argument("--bots", default="random", help=_("one bot for every seat, or one per seat, "
                                                           "comma-separated (default random)"))
    # the JSON keys stay English: placeholders, so that no translation (and no glossary check) takes them for words
    p_play.add_argument("--json", action="store_true", help=_(
        "one JSON line per hand: {keys}; where the first to take the pile plays alone (classic-3p) {teams} are the "
        "sides at the end of the hand, {score} is the side's before red threes and {player_scores} each player's "
        "with his own").format(keys="rules, seed, hand, went_out, teams (players, melds, red_threes, hands_left, "
                                    "score), stock_left, pile", teams='"teams"', score='"score"',
                               player_scores='"player_scores"'))
    _add_lang(p_play, _("the language of the lines printed (the JSON keys and values stay English): {codes}; "
                        "default ${variable}, else en"))
    p_serve = sub.add_parser("serve", help=_("start the lessons as a web app (Voilà), landing page first"),
                             description=_("Start the lessons as a web app (Voilà), landing page first."))
    p_serve.add_argument("--port", type=_whole_number(1, 65535, "--port"), default=8866,
                         help=_("the TCP port, 1 to 65535 (default 8866)"))
    p_serve.add_argument("--no-browser", action="store_true", help=_("do not open a web browser"))
    p_serve.add_argument("--lessons", help=_("the folder of lesson notebooks (default: the project's lessons/)"))
    p_serve.add_argument("--no-preheat", action="store_true", help=_("start kernels on demand only"))
    p_serve.add_argument("--cull-idle", type=_whole_number(0, 10**7, "--cull-idle"), default=1800, metavar="SECONDS",
                         help=_("shut down kernels idle this long, open tabs included (default 1800)"))
    p_serve.add_argument("--classroom", action="store_true",
                         help=_("teach a class: listen on every network address, learners sign in once"))
    p_serve.add_argument("--ip", help=_("listen on this address only (default 127.0.0.1; --classroom: all)"))
    p_serve.add_argument("--teacher-key", help=_("the key that opens the teacher's dashboard (default: a new one)"))
    p_serve.add_argument("--class-code", help=_("learners type this code to join the class"))
    p_serve.add_argument("--new-class", action="store_true", help=_("archive the open class and start a new one"))
    p_serve.add_argument("--class-size", type=int, default=0, metavar="N",
                         help=_("keep N kernels ready for the landing page (and --class-lesson): a class arriving "
                                "at once; the server then holds at most N learners' pages and a fifth more"))
    p_serve.add_argument("--max-kernels", type=int, default=0, metavar="N",
                         help=_("at most N learners' pages at once (default: from --class-size, else what this "
                                "machine's free memory holds); a page more says the class is full"))
    p_serve.add_argument("--lang", metavar="LANG",
                         help=_("the pages' language for a browser that asks for none of en, nl, da, af (a "
                                "learner's choice, the class's language and the browser's own come first)"))
    p_serve.add_argument("--class-lesson", metavar="NOTEBOOK",
                         help=_("with --class-size: the lesson the class will open together, e.g. "
                                "04-taking-the-pile.ipynb"))
    return parser


def main(argv=None) -> int:
    for stream in (sys.stdout, sys.stderr):
        try:
            # a file name that is not UTF-8 is shown with \x escapes, never a UnicodeEncodeError
            stream.reconfigure(encoding="utf-8", errors="backslashreplace")
        except (AttributeError, ValueError):
            pass
    from .engine.i18n import LanguageError, use_language

    argv = sys.argv[1:] if argv is None else list(argv)
    # the help, the usage line and argparse's error lines in the language asked for (--lang, else the variable)
    asked = _language_asked(argv)
    with use_language(asked), _argparse_words():
        parser = _parser()
        args = parser.parse_args(argv)
        try:
            lang = _chosen_language(args)
        except LanguageError as e:
            sys.stderr.write(f"canasta-tutor {args.command}: {clip(str(e), MESSAGE_LIMIT)}\n")
            return 2
    if args.command == "serve":   # the terminal's messages only: the pages choose their own language
        return _run(parser, args, lang)
    with use_language(lang), _argparse_words():
        return _run(parser, args)


def _run(parser, args, lang: str | None = None) -> int:
    try:
        if args.command == "solve":
            return _solve_all(args.files, check=False)
        if args.command == "check":
            return _solve_all(args.files, check=True)
        if args.command == "generate":
            return _generate(args)
        if args.command == "progress":
            return _progress(args)
        if args.command == "worksheet":
            return _worksheet(args)
        if args.command == "assign":
            return _assign(args)
        if args.command == "play":
            return _play(args)
        if args.command == "serve":
            from .engine.i18n import use_language
            from .web.app import check_lessons, serve, serve_options

            try:
                # what serve prints and refuses before it starts, in the terminal's language (--lang, else
                # $CANASTA_TUTOR_LANG); the server itself runs outside it, each page in its visitor's language
                with use_language(lang or "en"):
                    options = serve_options(args)
                    check_lessons(args.lessons, [*options["pools"], options["class_lesson"]])
                serve(args.lessons, port=args.port, open_browser=not args.no_browser, preheat=not args.no_preheat,
                      cull_idle=args.cull_idle, **options)
            except (FileNotFoundError, CanastaError) as e:
                sys.stderr.write(f"canasta-tutor serve: {e}\n")
                return 2
            return 0
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:
        return 0
    parser.error(_("unknown command {command}").format(command=args.command))
    return 2


if __name__ == "__main__":
    sys.exit(main())
