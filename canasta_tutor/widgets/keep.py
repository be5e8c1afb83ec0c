"""Answers kept in the learner's browser too, so that a kernel that dies while the database is out of reach (a full
disk: not even the journal file can be written) loses nothing.

One :class:`BrowserKeep` per kernel (:func:`keeper`): two hidden text boxes that the page's script (the ``canasta``
template) watches.

* ``.ct-keep-out`` (kernel → browser): ``{"waiting": [entry...], "done": [uid...]}``: the attempts this kernel has
  not saved yet, each signed, and those saved since; the page keeps the waiting ones in ``localStorage`` and forgets
  the done ones.
* ``.ct-keep-back`` (browser → kernel): when the page (re)connects, the entries its ``localStorage`` holds. The kernel
  takes those whose signature is right (a page cannot make up an answer) and whose learner is the one signed in,
  saves them (with their own time), and lists them as done.

An entry is signed with HMAC-SHA256 under ``$CANASTA_KEEP_KEY`` (set by ``canasta-tutor serve`` for all its
kernels; without it, a key of this kernel's own: entries then come back only to the kernel that made them).
"""

from __future__ import annotations

import hashlib
import hmac
import json
import os
import secrets

import ipywidgets as widgets

KEY_ENV = "CANASTA_KEEP_KEY"
MAX_ENTRIES = 200  # entries a page may send back at once (more wait for the next time)
FIELDS = ("learner", "puzzle_set", "puzzle_id", "kind", "topic", "difficulty", "answer", "correct", "seconds",
          "timestamp")
_own_key = secrets.token_hex(16)


def _key() -> bytes:
    return (os.environ.get(KEY_ENV) or _own_key).encode()


def sign(uid: str, row: dict) -> dict:
    """An entry for the browser: the attempt ``row`` (the store's ``record`` arguments), its uid and signature."""
    body = json.dumps({"uid": uid, **{k: row.get(k) for k in FIELDS}}, sort_keys=True, default=str)
    return {"body": body, "sig": hmac.new(_key(), body.encode(), hashlib.sha256).hexdigest()}


def verify(entry) -> dict | None:
    """The attempt an entry holds (with its ``uid``), or None when it is not one this server signed."""
    if not isinstance(entry, dict) or not isinstance(entry.get("body"), str) or not isinstance(entry.get("sig"), str):
        return None
    expected = hmac.new(_key(), entry["body"].encode(), hashlib.sha256).hexdigest()
    if not hmac.compare_digest(expected, entry["sig"]):
        return None
    try:
        data = json.loads(entry["body"])
    except ValueError:
        return None
    return data if isinstance(data, dict) and isinstance(data.get("uid"), str) else None


class BrowserKeep:
    """The kernel's side of the answers kept in the browser (see the module's description)."""

    def __init__(self):
        self.out = widgets.Text(value="", layout=widgets.Layout(display="none"))
        self.out.add_class("ct-keep-out")
        self.back = widgets.Text(value="", layout=widgets.Layout(display="none"))
        self.back.add_class("ct-keep-back")
        self.back.observe(lambda change: self.take_back(change["new"]), "value")
        self.box = widgets.Box([self.out, self.back], layout=widgets.Layout(display="none"))
        self.waiting: dict[str, dict] = {}  # uid -> entry
        self.done: list[str] = []
        self.store = None  # where answers sent back are saved (the last trainer's store, else the default)
        self.learner = None  # whose answers this kernel takes back (None: anyone's, one learner's own computer)

    def hold(self, uid: str, row: dict) -> None:
        """The attempt ``row`` is not saved yet: the browser keeps it too."""
        self.waiting[uid] = sign(uid, row)
        self._publish()

    def release(self, uid: str) -> None:
        """The attempt is saved: the browser may forget it."""
        if self.waiting.pop(uid, None) is not None or uid not in self.done:
            self.done = [*self.done[-(MAX_ENTRIES - 1):], uid]
        self._publish()

    def _publish(self) -> None:
        self.out.value = json.dumps({"waiting": list(self.waiting.values()), "done": self.done})

    def take_back(self, text: str) -> int:
        """Save the entries a page sent back; returns how many were saved."""
        try:
            entries = json.loads(text) if text else []
        except ValueError:
            return 0
        if not isinstance(entries, list):
            return 0
        saved = 0
        for entry in entries[:MAX_ENTRIES]:
            data = verify(entry)
            if data is None or data["uid"] in self.done or data["uid"] in self.waiting:
                continue
            if self.learner is not None and data.get("learner") != self.learner:
                continue  # another learner's, on a shared computer: it waits in the browser for them
            if self._save(data):
                saved += 1
                self.release(data["uid"])
        return saved

    def _save(self, data: dict) -> bool:
        try:
            if self.store is None:
                from ..classroom.progress import ProgressStore

                self.store = ProgressStore()
            result = self.store.record(**{k: data.get(k) for k in FIELDS})
        except Exception:  # noqa: BLE001 - the database is still out of reach: the browser keeps it
            return False
        return bool(result) or bool(getattr(result, "journal", False))


_keeper: BrowserKeep | None = None


def keeper() -> BrowserKeep:
    """This kernel's :class:`BrowserKeep`."""
    global _keeper
    if _keeper is None:
        _keeper = BrowserKeep()
    return _keeper
