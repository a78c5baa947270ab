"""The server's log: one format, and no secret in any line at any level.

Credentials travel in cookies, ``Authorization`` headers and ``hello``
messages; invite codes in bodies and page fragments.  None of them is ever
logged by this package, but libraries below it may log requests or frames
at debug level: :class:`Redact` masks anything shaped like a secret in
every record that reaches the server's handler, and the WebSocket
library's frame-by-frame debug log is not switched on at all.
"""

from __future__ import annotations

import datetime
import json
import logging
import re
from typing import Final

__all__ = ["FORMATS", "JSONLines", "Redact", "configure", "redact"]

_PATTERNS: Final = (
    re.compile(
        r"""(?i)((?:token|secret|credential|invite|host_token|authorization)["']?\s*[:=]\s*["']?)[^\s"',;&}]{6,}"""
    ),
    re.compile(r"(?i)(deepsix-(?:seat|host)=)[^;\s'\"]+"),
    re.compile(r"(?i)(bearer\s+)[^\s'\",]+"),
    re.compile(r"(#invite=)[^\s'\"&]+"),
)
MASK: Final = "[redacted]"


FORMATS: Final = ("text", "json")
"""The log's formats: lines of text, or one JSON object a line (for a log collector)."""


def redact(text: str) -> str:
    """``text`` with anything shaped like a credential, cookie or invite code masked."""
    for pattern in _PATTERNS:
        text = pattern.sub(lambda found: found.group(1) + MASK, text)
    return text


class Redact(logging.Filter):
    """Masks credentials, cookies and invite codes in log records."""

    def filter(self, record: logging.LogRecord) -> bool:
        message = record.getMessage()
        masked = redact(message)
        if masked != message:
            record.msg, record.args = masked, None
        return True


class JSONLines(logging.Formatter):
    """One JSON object a line: ``time`` (UTC, ISO 8601), ``level``, ``logger``, ``message``,
    and ``error`` (the traceback, masked too) when there is one."""

    def format(self, record: logging.LogRecord) -> str:
        entry: dict[str, object] = {
            "time": datetime.datetime.fromtimestamp(record.created, datetime.UTC).isoformat(
                timespec="milliseconds"
            ),
            "level": record.levelname.lower(),
            "logger": record.name,
            "message": record.getMessage(),
        }
        if record.exc_info:
            entry["error"] = redact(self.formatException(record.exc_info))
        return json.dumps(entry, ensure_ascii=False)


def configure(level: str, form: str = "text") -> logging.Handler:
    """Log to standard error at ``level`` in ``form`` (``text`` or ``json``), through
    :class:`Redact`; returns the handler."""
    handler = logging.StreamHandler()
    if form == "json":
        handler.setFormatter(JSONLines())
    else:
        handler.setFormatter(logging.Formatter("%(asctime)s %(levelname)s %(name)s: %(message)s"))
    handler.addFilter(Redact())
    root = logging.getLogger()
    for old in list(root.handlers):
        root.removeHandler(old)
    root.addHandler(handler)
    root.setLevel(level.upper())
    # The WebSocket library logs every frame at debug level: never wanted here.
    logging.getLogger("websockets").setLevel(max(logging.INFO, root.level))
    return handler
