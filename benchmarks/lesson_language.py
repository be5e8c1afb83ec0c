"""How long a standalone lesson page takes in English (the preheated kernel's page) and in another language
(rendered for its visitor, with a kernel started for it: Voilà's preheated page was rendered in English before the
visitor came), on one `canasta-tutor serve` over the landing page and lesson 4:

    .venv/bin/python benchmarks/lesson_language.py [--repeat N] [--port P]

Each page is fetched N times (default 5), whole (server-rendered markdown and every cell's output); between two
English visits the script waits until the server says the pool is full again. Prints the median per language.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests"))

from test_browser import serve  # noqa: E402
from test_lesson_text import small_lessons  # noqa: E402

PAGE = "/voila/render/04-taking-the-pile.ipynb"


def fetch(url: str) -> float:
    start = time.perf_counter()
    with urllib.request.urlopen(url, timeout=180) as answer:
        answer.read()
    return time.perf_counter() - start


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--port", type=int, default=9277)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp_name:
        tmp = Path(tmp_name)
        log = tmp / "serve.log"
        with serve(tmp, ["--lessons", str(small_lessons(tmp))], host="127.0.0.1", port=args.port,
                   ready_path="/voila/tree", notebooks=["04-taking-the-pile.ipynb"]) as (base, _proc):
            times: dict[str, list[float]] = {"en": [], "nl": []}
            for _ in range(args.repeat):
                filled = log.read_text(errors="replace").count("Kernel pool of 04-taking-the-pile.ipynb is filled")
                times["en"].append(fetch(base + PAGE))
                times["nl"].append(fetch(base + PAGE + "?lang=nl"))
                deadline = time.monotonic() + 60
                while time.monotonic() < deadline and log.read_text(errors="replace").count(
                        "Kernel pool of 04-taking-the-pile.ipynb is filled") <= filled:
                    time.sleep(0.2)
    for lang, values in times.items():
        print(f"lesson 4, {lang}: median {statistics.median(values):.2f} s over {len(values)} "
              f"({', '.join(f'{v:.2f}' for v in values)})")


if __name__ == "__main__":
    main()
