"""The one gate between a page and its kernel, the same on both servers (``canasta-tutor serve`` and a JupyterHub
single-user server): :class:`WidgetGate`, a Jupyter kernel websocket connection class.

* **In**: only the widgets' messages (:data:`WIDGET_MESSAGES`), on the shell channel, each at most
  :data:`MAX_MESSAGE_BYTES` long, reach a kernel. Anything else (``execute_request``, ``shutdown_request``,
  ``interrupt_request``, a message on the control or stdin channel, an unreadable message) is dropped and logged.
  Jupyter's own filter (``MappingKernelManager.allowed_message_types``) is not enough on its own: Voilà sets its
  own list on its kernel manager, which lets ``shutdown_request`` through, whatever the configuration says.
* **Out**: no traceback reaches a page: a kernel's ``error`` messages and its ``stderr`` stream (where a failing
  comm handler's traceback is logged, with the server's paths) stay on the server.

``canasta-tutor serve`` sets it with ``--Voila.kernel_websocket_connection_class`` (:func:`gate_arguments`), the
hub's servers with ``--ServerApp.kernel_websocket_connection_class`` (``deploy/jupyterhub/``).

>>> refusal("shell", {"msg_type": "comm_msg"}, 100), refusal("shell", {"msg_type": "shutdown_request"}, 100)
('', 'a shutdown_request message')
>>> refusal("control", {"msg_type": "comm_msg"}, 100)
'a message on the control channel'
"""

from __future__ import annotations

import json

from jupyter_server.services.kernels.connection.base import deserialize_binary_message, deserialize_msg_from_ws_v1
from jupyter_server.services.kernels.connection.channels import ZMQChannelsWebsocketConnection

#: what a page's widgets need to say to their kernel; nothing else gets through
WIDGET_MESSAGES = ("comm_open", "comm_msg", "comm_close", "comm_info_request", "kernel_info_request")
CHANNELS = ("shell",)
#: the largest message a page may send its kernel (a widget's update is a few hundred bytes; 20 messages of 8 MB to
#: a hidden text box once grew a kernel by 270 MB)
MAX_MESSAGE_BYTES = 256 * 1024
V1 = "v1.kernel.websocket.jupyter.org"


def gate_class_name() -> str:
    return f"{WidgetGate.__module__}.{WidgetGate.__qualname__}"


def gate_arguments(app: str) -> list[str]:
    """The command-line arguments that put the gate on ``app``'s kernels (``Voila`` or ``ServerApp``); Jupyter's own
    filter is set too, for whatever does not go through the gate."""
    return [*(f"--MappingKernelManager.allowed_message_types={m}" for m in WIDGET_MESSAGES),
            f"--{app}.kernel_websocket_connection_class={gate_class_name()}"]


def refusal(channel, header, size: int) -> str:
    """Why a page's message may not reach its kernel ("" : it may)."""
    if size > MAX_MESSAGE_BYTES:
        return f"a message of {size} bytes (at most {MAX_MESSAGE_BYTES})"
    if channel not in CHANNELS:
        return f"a message on the {str(channel)[:20]} channel"
    msg_type = header.get("msg_type") if isinstance(header, dict) else None
    if msg_type not in WIDGET_MESSAGES:
        return f"a {str(msg_type)[:40]} message"
    return ""


def read_incoming(ws_msg, subprotocol: str | None, unpack) -> tuple[str | None, dict | None]:
    """The channel and header of a page's message, as Jupyter's connection would read them (None: unreadable)."""
    try:
        if subprotocol == V1:
            channel, parts = deserialize_msg_from_ws_v1(ws_msg)
            return channel, unpack(parts[0])
        msg = deserialize_binary_message(ws_msg) if isinstance(ws_msg, bytes) else json.loads(ws_msg)
        return msg.get("channel") or "shell", msg.get("header")
    except Exception:  # noqa: BLE001 - whatever is unreadable is refused
        return None, None


def is_traceback(msg_type, content) -> bool:
    """Whether a kernel's message would show a page an error: an ``error`` message, or text on ``stderr``."""
    if msg_type == "error":
        return True
    return msg_type == "stream" and isinstance(content, dict) and content.get("name") == "stderr"


class WidgetGate(ZMQChannelsWebsocketConnection):
    """Jupyter's kernel connection with the gate: see the module's description."""

    def handle_incoming_message(self, incoming_msg) -> None:
        channel, header = read_incoming(incoming_msg, self.subprotocol, self.session.unpack)
        why = refusal(channel, header, len(incoming_msg))
        if why:
            self.log.warning("Kernel %s: a page's message was dropped: %s", self.kernel_id, why)
            return
        super().handle_incoming_message(incoming_msg)

    def handle_outgoing_message(self, stream, outgoing_msg) -> None:
        channel = stream if isinstance(stream, str) else getattr(stream, "channel", None)
        if channel == "iopub" and self._shows_traceback(outgoing_msg):
            return
        super().handle_outgoing_message(stream, outgoing_msg)

    def _shows_traceback(self, msg_list) -> bool:
        try:
            _, parts = self.session.feed_identities(msg_list)
            parts = [getattr(p, "bytes", p) for p in parts[:5]]  # zmq frames or bytes
            msg_type = self.session.unpack(parts[1]).get("msg_type")
            if msg_type not in ("error", "stream"):
                return False
            return is_traceback(msg_type, self.session.unpack(parts[4]))
        except Exception:  # noqa: BLE001 - a message the gate cannot read is Jupyter's to handle, as before
            return False
