"""Two things our widgets need from the kernel side of ipywidgets, installed once on import.

* **No traceback for a malformed message.** ipywidgets handles each message
  from the browser in ``Widget._handle_msg``, wrapped in ``_show_traceback``:
  a message whose state does not fit a trait (``{"value": 12}`` for a text
  box, ``{"index": 99}`` for a dropdown) or has no ``method`` raises inside
  ``set_state``, and the kernel sends the full traceback, with the server's
  paths, to the browser (``ip.showtraceback()``). Here every message is
  checked first: a message that is not a well-formed update, state request
  or custom message, or whose values the traits refuse, is dropped, and the
  widget sends the state the kernel holds back to the page, so both agree.
  Nothing is printed (the kernel's output goes to the browser too); the last
  refusals are kept in :data:`refused` for whoever debugs.

* **When did a browser first ask for the widgets?** A preheated kernel runs a
  lesson long before a learner opens it; the browser's widget manager asks
  for every widget's state (``request_states`` on the
  ``jupyter.widget.control`` comm) as the page opens. :func:`on_browser` lets
  the trainer start its clock then, not when the kernel was preheated.
"""

from __future__ import annotations

import collections
import time
import weakref

import ipywidgets as widgets

refused: collections.deque = collections.deque(maxlen=20)  # (widget class, why) for the last refused messages
browser_seen_at: float | None = None  # time.perf_counter() when a browser first asked for the widgets
_listeners: weakref.WeakSet = weakref.WeakSet()


def _refuse(widget, why: str) -> None:
    refused.append((type(widget).__name__, why))
    try:
        widget.send_state()  # the page shows what the kernel holds again
    except Exception:  # noqa: BLE001 - a widget whose comm is gone has nothing to resend
        pass


def _handle_msg(self, msg) -> None:
    """ipywidgets' ``Widget._handle_msg`` with every message checked before it is used."""
    try:
        data = msg["content"]["data"]
        method = data["method"]
    except (KeyError, TypeError):
        _refuse(self, "a message without content.data.method")
        return
    buffers = msg.get("buffers") or []
    if method == "update":
        state = data.get("state", {})
        if not isinstance(state, dict) or any(not isinstance(k, str) for k in state):
            _refuse(self, "an update whose state is not an object")
            return
        unknown = [k for k in state if not self.has_trait(k)]
        if unknown:
            _refuse(self, f"an update of unknown traits {unknown[:3]}")
            return
        try:
            if "buffer_paths" in data:
                from ipywidgets.widgets.widget import _put_buffers

                _put_buffers(state, data["buffer_paths"], buffers)
            self.set_state(state)
        except Exception as e:  # noqa: BLE001 - any value the traits refuse (TraitError and others)
            _refuse(self, f"an update refused by the traits ({type(e).__name__})")
    elif method == "request_state":
        self.send_state()
    elif method == "custom":
        content = data.get("content")
        if not isinstance(content, dict):
            _refuse(self, "a custom message without content")
            return
        try:
            self._handle_custom_msg(content, buffers)
        except Exception as e:  # noqa: BLE001 - never a traceback to the page; kept for debugging
            refused.append((type(self).__name__, f"a custom message whose handler failed: {type(e).__name__}: {e}"))
    else:
        _refuse(self, f"an unknown method {str(method)[:40]!r}")


def _watch_control(original):
    def handle(cls, msg):
        try:
            asked = msg["content"]["data"].get("method") == "request_states"
        except (KeyError, TypeError, AttributeError):
            asked = False
        if asked:
            browser_connected()
        return original.__func__(cls, msg)

    handle._canasta = True
    return classmethod(handle)


def browser_connected() -> None:
    """A browser has asked for the widgets: tell every listener once (the first time)."""
    global browser_seen_at
    if browser_seen_at is not None:
        return
    browser_seen_at = time.perf_counter()
    for listener in list(_listeners):
        listener._browser_connected(browser_seen_at)


def on_browser(listener) -> None:
    """Call ``listener._browser_connected(when)`` when a browser first asks for the widgets (weakly held)."""
    _listeners.add(listener)


def install() -> None:
    if getattr(widgets.Widget._handle_msg, "_canasta", False):
        return
    _handle_msg._canasta = True
    widgets.Widget._handle_msg = _handle_msg
    widgets.Widget._handle_control_comm_msg = _watch_control(widgets.Widget._handle_control_comm_msg)


install()
