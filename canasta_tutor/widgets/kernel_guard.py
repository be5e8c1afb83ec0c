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

* **Nothing large from a page.** A text value longer than :data:`MAX_TEXT` characters, a list longer than
  :data:`MAX_ITEMS`, or binary buffers over :data:`MAX_BUFFER_BYTES` in all are refused the same way (20 messages
  of 8 MB to a hidden text box once grew a kernel from 101 to 372 MB); the server's gate
  (:mod:`canasta_tutor.web.kernel_gate`) drops any message over 256 KiB before it reaches a kernel.

* **No traceback from the widgets' comms.** ipywidgets raises, and the comm manager logs the traceback to the
  page, when a page opens the ``jupyter.widget`` or ``jupyter.widget.control`` comm with a wrong or missing
  protocol version, or sends the control comm an unknown method: here such a comm is closed (or the message
  dropped) and the refusal kept in :data:`refused`.

* **A quiet stop.** When the server stops, it shuts every kernel down; a kernel still answering a request (a
  preheated kernel waits for its visitor inside one) then finds its sockets closed, and ipykernel logged a
  ``ZMQError`` traceback for each (eleven on the teacher's terminal). :func:`quiet_shutdown` drops just those
  records (an error on a closed socket) from the kernel's log.

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

MAX_TEXT = 4000  # characters in any text a page sends (a hand in notation is under 500)
MAX_ITEMS = 1000  # items in any list a page sends
MAX_BUFFER_BYTES = 64 * 1024
refused: collections.deque = collections.deque(maxlen=20)  # (widget class, why) for the last refused messages
browser_seen_at: float | None = None  # time.perf_counter() when a browser first asked for the widgets
_listeners: weakref.WeakSet = weakref.WeakSet()


def _refuse(widget, why: str) -> None:
    refused.append((type(widget).__name__, why))
    try:
        widget.send_state()  # the page shows what the kernel holds again
    except Exception:  # noqa: BLE001 - a widget whose comm is gone has nothing to resend
        pass


def oversized(value, depth: int = 0) -> str:
    """Why a value a page sent is too large to take ("" : it is not)."""
    if isinstance(value, str):
        return f"a text of {len(value)} characters (at most {MAX_TEXT})" if len(value) > MAX_TEXT else ""
    if isinstance(value, dict):
        value = [*value.keys(), *value.values()]
    if isinstance(value, (list, tuple)):
        if len(value) > MAX_ITEMS or depth > 10:
            return f"a list of {len(value)} items (at most {MAX_ITEMS})" if len(value) > MAX_ITEMS else "deep nesting"
        return next((why for why in (oversized(v, depth + 1) for v in value) if why), "")
    return ""


def _too_large(data, buffers) -> str:
    size = sum(len(memoryview(b)) for b in buffers)
    if size > MAX_BUFFER_BYTES:
        return f"buffers of {size} bytes (at most {MAX_BUFFER_BYTES})"
    return oversized(data)


def _handle_msg(self, msg) -> None:
    """ipywidgets' ``Widget._handle_msg`` with every message checked before it is used."""
    try:
        data = msg["content"]["data"]
        method = data["method"]
    except (KeyError, TypeError):
        _refuse(self, "a message without content.data.method")
        return
    buffers = msg.get("buffers") or []
    large = _too_large(data, buffers)
    if large:
        _refuse(self, f"a message with {large}")
        return
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
        if not asked:  # ipywidgets would raise (a traceback to the page): the only method it knows is this one
            refused.append(("control comm", "a control message that is not request_states"))
            return None
        browser_connected()
        return original.__func__(cls, msg)

    handle._canasta = True
    return classmethod(handle)


def _control_opened(comm, msg) -> None:
    """ipywidgets' ``handle_control_comm_opened``, with a wrong or missing version refused quietly."""
    from ipywidgets.widgets.widget import CONTROL_PROTOCOL_VERSION_MAJOR

    metadata = msg.get("metadata") if isinstance(msg, dict) else None
    version = str((metadata if isinstance(metadata, dict) else {}).get("version", ""))
    if version.split(".")[0] != CONTROL_PROTOCOL_VERSION_MAJOR:
        refused.append(("control comm", f"a control comm of version {version[:20]!r}"))
        comm.close()
        return
    widgets.Widget.handle_control_comm_opened(comm, msg)


def _widget_opened(comm, msg) -> None:
    """ipywidgets' ``handle_comm_opened`` (a page making a widget), with whatever it refuses refused quietly."""
    try:
        widgets.Widget.handle_comm_opened(comm, msg)
    except Exception as e:  # noqa: BLE001 - a wrong version, no state, an unknown model: never a traceback
        refused.append(("widget comm", f"a widget comm refused: {type(e).__name__}"))
        comm.close()


def register_targets() -> None:
    """Put :func:`_widget_opened` and :func:`_control_opened` in place of ipywidgets' own comm targets (in a
    kernel; elsewhere there is no comm manager and nothing to do)."""
    try:
        from ipywidgets import comm as widget_comm

        manager = widget_comm.get_comm_manager()
    except Exception:  # noqa: BLE001 - no kernel here
        return
    if manager is not None:
        manager.register_target("jupyter.widget", _widget_opened)
        manager.register_target("jupyter.widget.control", _control_opened)


def _not_on_a_closed_socket(record) -> bool:
    error = record.exc_info[1] if record.exc_info else None
    try:
        import zmq
    except ImportError:  # pragma: no cover - no kernel without zmq
        return True
    return not (isinstance(error, zmq.ZMQError) and error.errno == zmq.ENOTSOCK)


def quiet_shutdown() -> None:
    """In a kernel: its log leaves out the errors of a socket closed under it (the server stopping)."""
    try:
        from ipykernel.kernelapp import IPKernelApp
    except ImportError:  # pragma: no cover
        return
    if not IPKernelApp.initialized():
        return
    log = IPKernelApp.instance().log
    for target in [log, *getattr(log, "handlers", [])]:
        if _not_on_a_closed_socket not in target.filters:
            target.addFilter(_not_on_a_closed_socket)


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
    register_targets()
    quiet_shutdown()


install()
