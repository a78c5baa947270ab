"""The server's log: one format, and no secret in any line at any level.

Credentials travel in cookies, ``Authorization`` headers and ``hello``
messages; invite codes in bodies and page fragments.  None of them is ever
logged by this package, but libraries below it may log requests or frames
at debug level: :class:`Redact` masks anything shaped like a secret in
every record that reaches the server's handler, and the WebSocket
library's frame-by-frame debug log is not switched on at all.
"""

from __future__ import annotations

import logging
import re
from typing import Final

__all__ = ["Redact", "configure"]

_PATTERNS: Final = (
    re.compile(
        r"""(?i)((?:token|secret|credential|invite|host_token|authorization)["']?\s*[:=]\s*["']?)[^\s"',;&}]{6,}"""
    ),
    re.compile(r"(?i)(deepsix-(?:seat|host)=)[^;\s'\"]+"),
    re.compile(r"(?i)(bearer\s+)[^\s'\",]+"),
    re.compile(r"(#invite=)[^\s'\"&]+"),
)
MASK: Final = "[redacted]"


class Redact(logging.Filter):
    """Masks credentials, cookies and invite codes in log records."""

    def filter(self, record: logging.LogRecord) -> bool:
        message = record.getMessage()
        masked = message
        for pattern in _PATTERNS:
            masked = pattern.sub(lambda found: found.group(1) + MASK, masked)
        if masked != message:
            record.msg, record.args = masked, None
        return True


def configure(level: str) -> logging.Handler:
    """Log to standard error at ``level``, through :class:`Redact`; returns the handler."""
    handler = logging.StreamHandler()
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
