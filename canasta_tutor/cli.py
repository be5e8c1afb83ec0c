"""The ``canasta-tutor`` command.

``solve FILE...`` prints one JSON object per puzzle, one per line;
``check FILE...`` reports every puzzle whose ``expect:`` disagrees with the engine.
Exit status: 0 all well; 1 a puzzle could not be solved (or, for ``check``,
disagrees); 2 a file is not valid YAML or not a puzzle set. A folder stands
for every ``*.yaml``/``*.yml`` file in it. Bad input never shows a traceback.
"""

from __future__ import annotations

import argparse
import json
import os
import sys

from .errors import CanastaError, PuzzleError


def _emit(obj: dict) -> None:
    sys.stdout.write(json.dumps(obj, ensure_ascii=False) + "\n")


def _error_line(file, pid, message) -> dict:
    return {"file": file, "id": pid, "error": message}


def _iterate(paths):
    """Yield (file, puzzle_set | None, file_error | None) for each file."""
    from .puzzle import load_puzzle_set, puzzle_files

    files = puzzle_files(paths)
    for path in files:
        try:
            yield str(path), load_puzzle_set(path), None
        except PuzzleError as e:
            yield str(path), None, e


def _solve_all(paths, *, check: bool) -> int:
    from .solver import disagreements, solve

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
                _emit(_error_line(file, puzzle.id, str(e)))
                status = max(status, 1)
                counts["errors"] += 1
                continue
            except Exception as e:  # an engine bug must not hide the other puzzles
                if os.environ.get("CANASTA_TUTOR_DEBUG"):
                    raise
                _emit(_error_line(file, puzzle.id, f"internal error ({type(e).__name__}: {e}); please report it"))
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
        _emit(_error_line(None, None, "no puzzle files found in " + ", ".join(map(str, paths))))
        return 2
    if check:
        sys.stderr.write(f"checked {counts['puzzles']} puzzles in {counts['files']} files: "
                         f"{counts['disagree']} disagree, {counts['errors']} errors\n")
    return status


def _generate(args) -> int:
    from .generator import generate, to_yaml

    if args.count < 1:
        sys.stderr.write("canasta-tutor generate: --count must be at least 1\n")
        return 2
    try:
        text = to_yaml(generate(args.kind, count=args.count, seed=args.seed, difficulty=args.difficulty,
                                rules=args.rules))
    except CanastaError as e:
        sys.stderr.write(f"canasta-tutor generate: {e}\n")
        return 2
    if args.output:
        try:
            with open(args.output, "w", encoding="utf-8") as f:
                f.write(text)
        except OSError as e:
            sys.stderr.write(f"canasta-tutor generate: cannot write {args.output}: {e.strerror}\n")
            return 2
    else:
        sys.stdout.write(text)
    return 0


def _progress(args) -> int:
    from .progress import ProgressStore

    try:
        store = ProgressStore(args.db)
        frame = store.summary(args.learner)
    except CanastaError as e:
        sys.stderr.write(f"canasta-tutor progress: {e}\n")
        return 2
    if frame.empty:
        who = f" for {args.learner}" if args.learner else ""
        sys.stdout.write(f"No attempts recorded{who} yet (database: {store.path}).\n")
        return 0
    frame = frame.copy()
    frame["accuracy"] = (frame["accuracy"] * 100).round().astype(int).astype(str) + " %"
    frame["median_seconds"] = frame["median_seconds"].round(1)
    sys.stdout.write(frame.to_string(index=False) + "\n")
    return 0


def _where(err: PuzzleError) -> str:
    parts = []
    if err.field:
        parts.append(f"field '{err.field}'")
    parts.append(err.detail)
    return ": ".join(parts)


def main(argv=None) -> int:
    for stream in (sys.stdout, sys.stderr):
        try:
            stream.reconfigure(encoding="utf-8")
        except (AttributeError, ValueError):
            pass
    parser = argparse.ArgumentParser(prog="canasta-tutor",
                                     description="Learn Canasta: solve and check puzzle files, and more.")
    sub = parser.add_subparsers(dest="command", required=True)
    p_solve = sub.add_parser("solve", help="print the engine's answer to every puzzle, one JSON line each")
    p_solve.add_argument("files", nargs="+", metavar="FILE")
    p_check = sub.add_parser("check", help="report puzzles whose expect: disagrees with the engine")
    p_check.add_argument("files", nargs="+", metavar="FILE")
    p_gen = sub.add_parser("generate", help="write a set of random, legal puzzles (YAML)")
    p_gen.add_argument("kind", help="card-points, meld, opening, freeze, take-pile, go-out or score-hand")
    p_gen.add_argument("--count", type=int, default=20)
    p_gen.add_argument("--seed", default="0")
    p_gen.add_argument("--difficulty", type=int, default=1, choices=range(1, 6), metavar="1..5")
    p_gen.add_argument("--rules", default="classic", help="a preset name (default classic)")
    p_gen.add_argument("-o", "--output", metavar="FILE", help="write here instead of standard output")
    p_prog = sub.add_parser("progress", help="print each learner's results per topic")
    p_prog.add_argument("--learner", help="only this learner")
    p_prog.add_argument("--db", help="the progress database (default: $CANASTA_TUTOR_DB or the user data folder)")
    p_serve = sub.add_parser("serve", help="start the lessons as a web app (Voilà), landing page first")
    p_serve.add_argument("--port", type=int, default=8866)
    p_serve.add_argument("--no-browser", action="store_true", help="do not open a web browser")
    p_serve.add_argument("--lessons", help="the folder of lesson notebooks (default: the project's lessons/)")
    p_serve.add_argument("--no-preheat", action="store_true", help="start kernels on demand only")
    p_serve.add_argument("--cull-idle", type=int, default=1800, metavar="SECONDS",
                         help="shut down kernels idle this long, open tabs included (default 1800)")
    p_serve.add_argument("--classroom", action="store_true",
                         help="teach a class: listen on every network address, learners sign in once")
    p_serve.add_argument("--ip", help="listen on this address only (default 127.0.0.1; --classroom: all)")
    p_serve.add_argument("--teacher-key", help="the key that opens the teacher's dashboard (default: a new one)")
    p_serve.add_argument("--class-code", help="learners type this code to join the class")
    p_serve.add_argument("--new-class", action="store_true", help="archive the open class and start a new one")
    p_serve.add_argument("--class-size", type=int, default=0, metavar="N",
                         help="keep N kernels ready for the landing page (and --class-lesson): a class arriving at once")
    p_serve.add_argument("--class-lesson", metavar="NOTEBOOK",
                         help="with --class-size: the lesson the class will open together, e.g. 04-taking-the-pile.ipynb")
    args = parser.parse_args(argv)
    try:
        if args.command == "solve":
            return _solve_all(args.files, check=False)
        if args.command == "check":
            return _solve_all(args.files, check=True)
        if args.command == "generate":
            return _generate(args)
        if args.command == "progress":
            return _progress(args)
        if args.command == "serve":
            from .app import serve, serve_options

            try:
                options = serve_options(args)
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
    parser.error(f"unknown command {args.command}")
    return 2


if __name__ == "__main__":
    sys.exit(main())
