"""Time from request to the first interactive widget, per lesson and for a one-slider notebook,
on one `canasta-tutor serve` (kernels preheated), measured in headless Chromium:

    .venv/bin/python benchmarks/browser.py [--repeat N]

Each page is visited N times (default 5); between visits the script waits until the server
says that notebook's kernel pool is full again, so every visit is a fair one. Prints the
median per page and its ratio to the one-slider notebook's median.
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests"))

from test_browser import CHROMIUM, CHROMIUM_ARGS, free_port, wait_for  # noqa: E402

WIDGET = ".widget-button, .widget-slider, .widget-dropdown, .widget-text, .widget-checkbox"
SLIDER = {
    "cells": [{"cell_type": "code", "execution_count": None, "id": "slider", "metadata": {}, "outputs": [],
               "source": ["import ipywidgets\n", "ipywidgets.IntSlider(description='x')"]}],
    "metadata": {"kernelspec": {"name": "python3", "display_name": "Python 3", "language": "python"}},
    "nbformat": 4, "nbformat_minor": 5,
}


def pool_filled(log: Path, name: str) -> int:
    text = log.read_text(errors="replace") if log.exists() else ""
    return text.count(f"Kernel pool of {name} is filled")


def wait_pool(log: Path, name: str, at_least: int, timeout: float = 120) -> None:
    deadline = time.monotonic() + timeout
    while pool_filled(log, name) < at_least and time.monotonic() < deadline:
        time.sleep(0.2)


def main() -> None:
    import json

    parser = argparse.ArgumentParser()
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--cold", action="store_true", help="a fresh browser cache for every visit")
    args = parser.parse_args()
    tmp = Path(tempfile.mkdtemp(prefix="canasta-bench-"))
    lessons = tmp / "lessons"
    shutil.copytree(ROOT / "lessons", lessons)
    (lessons / "one-slider.ipynb").write_text(json.dumps(SLIDER))
    names = ["one-slider.ipynb"] + sorted(p.name for p in (ROOT / "lessons").glob("*.ipynb") if p.name != "index.ipynb")
    port = free_port()
    log = tmp / "serve.log"
    env = dict(os.environ, CANASTA_TUTOR_DB=str(tmp / "progress.sqlite3"))
    with open(log, "w") as out:
        proc = subprocess.Popen([sys.executable, "-m", "canasta_tutor.cli", "serve", "--port", str(port),
                                 "--no-browser", "--lessons", str(lessons)], env=env, stdout=out,
                                stderr=subprocess.STDOUT)
    base = f"http://127.0.0.1:{port}"
    times: dict[str, list[float]] = {n: [] for n in names}
    try:
        wait_for(base + "/voila/tree", 90)
        for name in names:
            wait_pool(log, name, 1)
        from playwright.sync_api import sync_playwright

        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS, headless=True)
            warm_context = browser.new_context()
            for _round in range(args.repeat):
                for name in names:
                    filled = pool_filled(log, name)
                    # cold: a fresh browser context, nothing cached; warm: one context for every visit,
                    # as a learner going from lesson to lesson
                    context = browser.new_context() if args.cold else warm_context
                    page = context.new_page()
                    start = time.perf_counter()
                    page.goto(f"{base}/voila/render/{name}", wait_until="commit")
                    try:
                        page.locator(WIDGET).locator("visible=true").first.wait_for(state="visible", timeout=120_000)
                    except Exception:
                        page.screenshot(path=str(tmp / "failed.png"))
                        print(f"no widget appeared on {name}; see {tmp / 'failed.png'} and {log}", file=sys.stderr)
                        raise
                    times[name].append(time.perf_counter() - start)
                    page.close()
                    if context is not warm_context:
                        context.close()
                    wait_pool(log, name, filled + 1)
            browser.close()
    finally:
        proc.terminate()
        proc.wait(30)
    slider = statistics.median(times["one-slider.ipynb"])
    cache = "cold cache" if args.cold else "warm cache"
    print(f"{'page':<40} {'median':>8} {'ratio':>6}   (goal: < 3 s, ratio < 1.5; {args.repeat} visits each, {cache})")
    for name in names:
        m = statistics.median(times[name])
        print(f"{name:<40} {m:7.2f}s {m / slider:6.2f}")
    shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    main()
