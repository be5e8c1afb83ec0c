"""A class of N learners on this machine: ``canasta-tutor serve --classroom --class-size N`` on 127.0.0.2.

    .venv/bin/python benchmarks/classroom.py [--learners 30] [--spread 10] [--port 9145]

1. N learners sign in (HTTP, one cookie jar each) and open the landing page, arriving evenly within
   ``--spread`` seconds: median and worst time until the page (every widget's state in it) has arrived;
2. the teacher says "open lesson 4": all N open it at once: median and worst;
3. memory (resident, the server and every kernel) with N learners on lesson 4;
4. the learners leave (their pages' close requests): how many kernels are still held.

A page's HTML carries the widgets' state (Voilà renders it on the server), so the time to the end of the
response is the time to the first widget, less the browser's own drawing (about half a second). Goals (from the
issue): arrivals worst <= 10 s, median <= 4 s; "open lesson 4" worst <= 5 s; memory <= 3 GB.
"""

from __future__ import annotations

import argparse
import os
import re
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import urllib.error
import urllib.request
from http.cookiejar import CookieJar
from pathlib import Path
from urllib.parse import urlencode

import psutil

ROOT = Path(__file__).resolve().parent.parent
HOST = "127.0.0.2"
CODE = "bench"


class NoRedirect(urllib.request.HTTPRedirectHandler):
    def redirect_request(self, *args, **kwargs):
        return None


class Learner:
    def __init__(self, base: str, name: str):
        self.base = base
        self.name = name
        self.opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(CookieJar()), NoRedirect())
        self.kernels: list[str] = []

    def sign_in(self) -> None:
        page = self.opener.open(self.base + "/classroom/signin", timeout=60).read().decode()
        xsrf = re.search(r'name="_xsrf" value="([^"]+)"', page).group(1)
        try:  # the answer redirects to the landing page: not followed here, the arrival is measured below
            self.opener.open(self.base + "/classroom/signin",
                             urlencode({"_xsrf": xsrf, "name": self.name, "code": CODE}).encode(), timeout=60)
        except urllib.error.HTTPError as e:
            if e.code != 302:
                raise

    def open(self, notebook: str) -> float:
        start = time.perf_counter()
        body = self.opener.open(f"{self.base}/voila/render/{notebook}", timeout=300).read().decode()
        took = time.perf_counter() - start
        # the landing page's first kernel-made output is the signed-in panel; a lesson's are widgets
        marker = "Signed in as" if notebook == "index.ipynb" else "application/vnd.jupyter.widget-view+json"
        if marker not in body:
            raise RuntimeError(f"{notebook} came without its first output ({marker})")
        self.kernels.append(re.search(r'"kernelId": "([0-9a-f-]{36})"', body).group(1))
        return took

    def leave(self) -> None:
        """What the page sends as it closes (the beacon to /voila/api/shutdown/KERNEL)."""
        for kernel_id in self.kernels:
            try:
                self.opener.open(urllib.request.Request(f"{self.base}/voila/api/shutdown/{kernel_id}", data=b"",
                                                        method="POST"), timeout=60).read()
            except urllib.error.HTTPError:
                pass
        self.kernels = []


def kernels(pid: int) -> list[psutil.Process]:
    out = []
    for child in psutil.Process(pid).children(recursive=True):
        try:
            if "ipykernel" in " ".join(child.cmdline()):
                out.append(child)
        except psutil.Error:
            pass
    return out


def memory_mb(pid: int) -> float:
    total = 0
    for p in [psutil.Process(pid)] + psutil.Process(pid).children(recursive=True):
        try:
            total += p.memory_info().rss
        except psutil.Error:
            pass
    return total / 2**20


def all_at_once(learners, notebook: str, spread: float) -> list[float]:
    times: list[float] = [float("inf")] * len(learners)  # a failed arrival counts as never
    errors: list[str] = []

    def go(i, learner):
        time.sleep(spread * i / max(1, len(learners)))
        try:
            times[i] = learner.open(notebook)
        except Exception as e:  # noqa: BLE001 - a benchmark reports every failure
            errors.append(f"{learner.name}: {e}")

    threads = [threading.Thread(target=go, args=(i, learner)) for i, learner in enumerate(learners)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    if errors:
        print("errors:", *errors[:5], sep="\n  ")
    return times


def report(label: str, times: list[float], goal_worst: float, goal_median: float | None = None) -> None:
    med, worst = statistics.median(times), max(times)
    failed = sum(t == float("inf") for t in times)
    if failed:
        label += f" ({failed} failed)"
    verdict = "ok" if worst <= goal_worst and (goal_median is None or med <= goal_median) else "MISSED"
    goals = f"goal worst <= {goal_worst} s" + (f", median <= {goal_median} s" if goal_median else "")
    print(f"{label}: median {med:.1f} s, worst {worst:.1f} s ({goals}: {verdict})")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--learners", type=int, default=30)
    parser.add_argument("--spread", type=float, default=10.0)
    parser.add_argument("--port", type=int, default=9145)
    parser.add_argument("--lesson", default="04-taking-the-pile.ipynb")
    args = parser.parse_args()
    tmp = Path(tempfile.mkdtemp(prefix="canasta-class-bench-"))
    env = dict(os.environ, CANASTA_TUTOR_DB=str(tmp / "progress.sqlite3"))
    log = open(tmp / "serve.log", "w")
    proc = subprocess.Popen([sys.executable, "-m", "canasta_tutor.cli", "serve", "--classroom", "--ip", HOST,
                             "--port", str(args.port), "--no-browser", "--class-code", CODE,
                             "--class-size", str(args.learners), "--class-lesson", args.lesson],
                            cwd=ROOT, env=env, stdout=log, stderr=subprocess.STDOUT)
    base = f"http://{HOST}:{args.port}"
    try:
        start = time.perf_counter()
        while True:
            text = (tmp / "serve.log").read_text(errors="replace")
            if all(f"Kernel pool of {nb} is filled with {args.learners} kernel" in text
                   for nb in ("index.ipynb", args.lesson)):
                break
            if proc.poll() is not None or time.perf_counter() - start > 900:
                print(text[-3000:])
                return 1
            time.sleep(1)
        print(f"server ready (kernels preheated) after {time.perf_counter() - start:.0f} s; "
              f"{len(kernels(proc.pid))} kernels, {memory_mb(proc.pid):.0f} MB")
        learners = [Learner(base, f"Learner {i + 1}") for i in range(args.learners)]
        for learner in learners:
            learner.sign_in()
        report(f"{args.learners} learners arrive within {args.spread:.0f} s, landing page",
               all_at_once(learners, "index.ipynb", args.spread), 10, 4)
        for learner in learners:  # they leave the landing page for the lesson
            learner.leave()
        report(f'"open lesson 4": {args.learners} at once', all_at_once(learners, args.lesson, 0), 5)
        time.sleep(2)
        print(f"memory with {args.learners} learners on {args.lesson}: {memory_mb(proc.pid):.0f} MB "
              f"(goal <= 3072 MB), {len(kernels(proc.pid))} kernels")
        for learner in learners:
            learner.leave()
        time.sleep(5)
        print(f"after they left: {len(kernels(proc.pid))} kernels (the pools), {memory_mb(proc.pid):.0f} MB")
    finally:
        proc.terminate()
        try:
            proc.wait(30)
        except subprocess.TimeoutExpired:
            proc.kill()
        log.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
