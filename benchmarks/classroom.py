"""A class of N learners on this machine: ``canasta-tutor serve --classroom --class-size N`` on 127.0.0.2.

    .venv/bin/python benchmarks/classroom.py [--learners 30] [--spread 10] [--port 9145]

One kernel per learner for the whole app: the landing page (its pool of N preheated kernels) shows every lesson
inside itself. Each learner is a kernel client doing what the page's browser does:

1. N learners sign in (HTTP, one cookie jar each) and open the landing page, arriving evenly within
   ``--spread`` seconds: the page's HTML, then its kernel's websocket and the widgets' states (the widget
   manager's ``request_states``): median and worst time until every widget's state has arrived;
2. the teacher says "open lesson 4" (named ahead with ``--class-lesson``, so each kernel builds it while its
   learner is on the landing page; ``--no-class-lesson``: built when asked for): all N send the lesson's name
   to their page's route box at once (what the page's script does when the address becomes
   ``#04-taking-the-pile``): median and worst time until the kernel has sent the lesson's widgets and put them
   in the page;
3. memory (resident, the server and every kernel) with N learners on lesson 4;
4. the learners leave (their websockets close, their pages' close requests): how many kernels are still held.

The browser's own drawing (about half a second) comes on top. Goals (from the issue): arrivals worst <= 10 s,
median <= 4 s; "open lesson 4" worst <= 5 s; memory <= 3 GB.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import re
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request
import uuid
from datetime import UTC, datetime
from http.cookiejar import CookieJar
from pathlib import Path
from urllib.parse import urlencode

import psutil

ROOT = Path(__file__).resolve().parent.parent
HOST = "127.0.0.2"
CODE = "bench"
LESSON = "04-taking-the-pile"


class NoRedirect(urllib.request.HTTPRedirectHandler):
    def redirect_request(self, *args, **kwargs):
        return None


def message(msg_type: str, content: dict, session: str, metadata: dict | None = None) -> str:
    return json.dumps({"header": {"msg_id": uuid.uuid4().hex, "username": "bench", "session": session,
                                  "msg_type": msg_type, "version": "5.3",
                                  "date": datetime.now(UTC).isoformat()},
                       "parent_header": {}, "metadata": metadata or {}, "content": content, "channel": "shell",
                       "buffers": []})


class Learner:
    def __init__(self, base: str, name: str):
        self.base = base
        self.name = name
        self.jar = CookieJar()
        self.opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(self.jar), NoRedirect())
        self.kernel = ""
        self.session = uuid.uuid4().hex
        self.ws = None
        self.states: dict = {}

    def sign_in(self) -> None:
        page = self.opener.open(self.base + "/classroom/signin", timeout=60).read().decode()
        xsrf = re.search(r'name="_xsrf" value="([^"]+)"', page).group(1)
        try:  # the answer redirects to the landing page: not followed here, the arrival is measured below
            self.opener.open(self.base + "/classroom/signin",
                             urlencode({"_xsrf": xsrf, "name": self.name, "code": CODE}).encode(), timeout=60)
        except urllib.error.HTTPError as e:
            if e.code != 302:
                raise

    def _page(self) -> str:
        body = self.opener.open(f"{self.base}/voila/render/index.ipynb", timeout=300).read().decode()
        if "Signed in as" not in body or "application/vnd.jupyter.widget-view+json" not in body:
            raise RuntimeError("the landing page came without its first outputs")
        self.kernel = re.search(r'"kernelId": "([0-9a-f-]{36})"', body).group(1)
        return body

    async def _until(self, wanted, timeout: float = 120) -> dict:
        """Read the kernel's messages until ``wanted(msg)``."""
        deadline = time.perf_counter() + timeout
        while True:
            raw = await asyncio.wait_for(self.ws.read_message(), max(0.1, deadline - time.perf_counter()))
            if raw is None:
                raise RuntimeError("the kernel's websocket closed")
            if isinstance(raw, bytes):
                continue
            msg = json.loads(raw)
            msg["msg_type"] = msg.get("msg_type") or msg.get("header", {}).get("msg_type")
            if msg["msg_type"] in ("comm_open", "comm_msg"):  # every widget's state, as the page would hold it
                data = msg["content"].get("data", {})
                if msg["msg_type"] == "comm_open" or data.get("method") == "update":
                    state = self.states.setdefault(msg["content"]["comm_id"], {})
                    state.update(data.get("state", {}))
            if wanted(msg):
                return msg

    async def arrive(self) -> float:
        """The landing page, its kernel's websocket, every widget's state: seconds."""
        from tornado.httpclient import HTTPRequest
        from tornado.websocket import websocket_connect

        start = time.perf_counter()
        await asyncio.to_thread(self._page)
        self.html_seconds = time.perf_counter() - start
        cookies = "; ".join(f"{c.name}={c.value}" for c in self.jar)
        url = (f"ws://{self.base.split('://', 1)[1]}/api/kernels/{self.kernel}/channels?session_id={self.session}")
        self.ws = await websocket_connect(HTTPRequest(url, headers={"Cookie": cookies}), max_message_size=2**28)
        control = uuid.uuid4().hex
        self.ws.write_message(message("comm_open", {"comm_id": control, "target_name": "jupyter.widget.control",
                                                    "data": {}}, self.session, {"version": "1.0"}))
        self.ws.write_message(message("comm_msg", {"comm_id": control, "data": {"method": "request_states"}},
                                      self.session))
        reply = await self._until(lambda m: m.get("msg_type") == "comm_msg" and
                                  m["content"]["data"].get("method") == "update_states")
        self.states.update({k: v["state"] for k, v in reply["content"]["data"]["states"].items()})
        if not any("ct-lesson-app" in s.get("_dom_classes", ()) for s in self.states.values()):
            raise RuntimeError("the landing page has no lesson app")
        return time.perf_counter() - start

    async def open_lesson(self, slug: str) -> float:
        """What the page does when its address becomes #slug: seconds until the lesson is in the page."""
        app = next(s for s in self.states.values() if "ct-lesson-app" in s.get("_dom_classes", ()))
        route, _menu, body, *_ = (c.removeprefix("IPY_MODEL_") for c in app["children"])  # (then the browser keep)
        start = time.perf_counter()
        self.ws.write_message(message("comm_msg", {"comm_id": route, "data": {
            "method": "update", "state": {"value": slug}, "buffer_paths": []}}, self.session))
        await self._until(lambda m: m.get("msg_type") == "comm_msg" and m["content"]["comm_id"] == body and
                          m["content"]["data"].get("method") == "update" and
                          m["content"]["data"].get("state", {}).get("children"))
        took = time.perf_counter() - start
        lesson = [s for s in self.states.values() if "ct-trainer" in s.get("_dom_classes", ())]
        if not lesson:
            raise RuntimeError(f"{slug} came without its trainer")
        return took

    def leave(self) -> None:
        """The page closes: its websocket, and the beacon to /voila/api/shutdown/KERNEL."""
        if self.ws is not None:
            self.ws.close()
            self.ws = None
        if self.kernel:
            try:
                self.opener.open(urllib.request.Request(f"{self.base}/voila/api/shutdown/{self.kernel}", data=b"",
                                                        method="POST"), timeout=60).read()
            except urllib.error.HTTPError:
                pass
        self.kernel = ""


def kernels(pid: int) -> list[psutil.Process]:
    out = []
    for child in psutil.Process(pid).children(recursive=True):
        try:
            if "ipykernel" in " ".join(child.cmdline()):
                out.append(child)
        except psutil.Error:
            pass
    return out


used_before = 0   # the machine's used memory before the server starts


def memory_mb(pid: int, kind: str = "rss") -> float:
    """The server and its kernels together: ``rss`` (each process's resident set, shared library pages counted
    once per process, so an over-estimate) or ``pss`` (proportional: shared pages split between the processes
    sharing them, so the sum is what they take together)."""
    total = 0
    for p in [psutil.Process(pid)] + psutil.Process(pid).children(recursive=True):
        try:
            total += p.memory_full_info().pss if kind == "pss" else p.memory_info().rss
        except psutil.Error:
            pass
    return total / 2**20


async def together(learners, step, spread: float) -> list[float]:
    """``step(learner)`` for every learner, started evenly within ``spread`` seconds; a failure counts as never."""
    errors: list[str] = []

    async def go(i, learner):
        await asyncio.sleep(spread * i / max(1, len(learners)))
        try:
            return await step(learner)
        except Exception as e:  # noqa: BLE001 - a benchmark reports every failure
            errors.append(f"{learner.name}: {type(e).__name__}: {e}")
            return float("inf")

    times = await asyncio.gather(*(go(i, learner) for i, learner in enumerate(learners)))
    if errors:
        print("errors:", *errors[:5], sep="\n  ")
    return list(times)


def report(label: str, times: list[float], goal_worst: float, goal_median: float | None = None) -> tuple:
    med, worst = statistics.median(times), max(times)
    failed = sum(t == float("inf") for t in times)
    if failed:
        label += f" ({failed} failed)"
    verdict = "ok" if worst <= goal_worst and (goal_median is None or med <= goal_median) else "MISSED"
    goals = f"goal worst <= {goal_worst} s" + (f", median <= {goal_median} s" if goal_median else "")
    print(f"{label}: median {med:.1f} s, worst {worst:.1f} s ({goals}: {verdict})", flush=True)
    return med, worst


async def run(args, proc, base: str) -> None:
    learners = [Learner(base, f"Learner {i + 1}") for i in range(args.learners)]
    for learner in learners:
        learner.sign_in()
    report(f"{args.learners} learners arrive within {args.spread:.0f} s, landing page (all widgets' states)",
           await together(learners, Learner.arrive, args.spread), 10, 4)
    html_times = [getattr(learner, "html_seconds", float("inf")) for learner in learners]
    print(f"    of which the page's HTML: median {statistics.median(html_times):.1f} s, "
          f"worst {max(html_times):.1f} s", flush=True)
    await asyncio.sleep(2)
    report(f'"open lesson 4": {args.learners} at once', await together(
        learners, lambda learner: learner.open_lesson(LESSON), 0), 5)
    await asyncio.sleep(2)
    print(f"memory with {args.learners} learners on lesson 4: {memory_mb(proc.pid, 'pss'):.0f} MB proportional "
          f"(PSS; goal <= 3072 MB), {memory_mb(proc.pid):.0f} MB as the sum of resident sets (RSS), "
          f"{len(kernels(proc.pid))} kernels; the machine's used memory grew by "
          f"{(psutil.virtual_memory().used - used_before) / 2**20:.0f} MB since before the server started",
          flush=True)
    for learner in learners:
        learner.leave()
    await asyncio.sleep(5)
    print(f"after they left: {len(kernels(proc.pid))} kernels, {memory_mb(proc.pid):.0f} MB "
          f"(load average {os.getloadavg()[0]:.1f})", flush=True)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--learners", type=int, default=30)
    parser.add_argument("--spread", type=float, default=10.0)
    parser.add_argument("--port", type=int, default=9145)
    parser.add_argument("--no-class-lesson", action="store_true",
                        help="do not tell the server which lesson the class will open (it is built when asked for)")
    parser.add_argument("--settle", type=float, default=20.0, help="seconds to wait after the pool is filled")
    args = parser.parse_args()
    tmp = Path(tempfile.mkdtemp(prefix="canasta-class-bench-"))
    env = dict(os.environ, CANASTA_TUTOR_DB=str(tmp / "progress.sqlite3"))
    log = open(tmp / "serve.log", "w")
    global used_before
    used_before = psutil.virtual_memory().used
    proc = subprocess.Popen([sys.executable, "-m", "canasta_tutor.cli", "serve", "--classroom", "--ip", HOST,
                             "--port", str(args.port), "--no-browser", "--class-code", CODE,
                             "--class-size", str(args.learners),
                             *([] if args.no_class_lesson else ["--class-lesson", LESSON + ".ipynb"])],
                            cwd=ROOT, env=env, stdout=log, stderr=subprocess.STDOUT)
    base = f"http://{HOST}:{args.port}"
    try:
        start = time.perf_counter()
        while True:
            text = (tmp / "serve.log").read_text(errors="replace")
            if f"Kernel pool of index.ipynb is filled with {args.learners} kernel" in text:
                break
            if proc.poll() is not None or time.perf_counter() - start > 900:
                print(text[-3000:])
                return 1
            time.sleep(1)
        time.sleep(args.settle)  # the pool's kernels finish running the page up to where it waits for its learner
        print(f"server ready (kernels preheated) after {time.perf_counter() - start:.0f} s; "
              f"{len(kernels(proc.pid))} kernels, {memory_mb(proc.pid):.0f} MB "
              f"(load average {os.getloadavg()[0]:.1f})", flush=True)
        asyncio.run(run(args, proc, base))
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
