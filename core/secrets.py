"""Keep secrets out of answers, notes, logs and errors: exceptions are described through here."""

from __future__ import annotations

import os
import re

_SECRET_NAME = re.compile(r"(API_KEY|_KEY|TOKEN|SECRET|PASSWORD|PASSWD)$", re.IGNORECASE)
_PATTERNS = [
    re.compile(r"\b(sk|tvly|lsv2|gsk|xai|hf)[-_][A-Za-z0-9_\-]{8,}"),  # provider key shapes
    re.compile(r"(?i)\b(bearer|token|api[_-]?key)([\s:=\"']+)[A-Za-z0-9_\-.]{8,}"),
]
_URI_PASSWORD = re.compile(r"(\b[a-zA-Z][a-zA-Z0-9+.\-]*://[^:/@\s]+:)[^@\s]+@")
MASK = "***"


def _secret_values() -> list[str]:
    """Values of environment variables whose names say they are secret (longest first)."""
    values = {
        value
        for name, value in os.environ.items()
        if _SECRET_NAME.search(name) and len(value.strip()) >= 6
    }
    return sorted(values, key=len, reverse=True)


def redact(text: str, also: tuple[str, ...] = ()) -> str:
    """Mask secret environment values (and `also`), key-shaped tokens and passwords in URIs."""
    for value in [*(a for a in also if a), *_secret_values()]:
        text = text.replace(value, MASK)
    for pattern in _PATTERNS:
        text = pattern.sub(
            lambda m: f"{m.group(1)}{m.group(2)}{MASK}" if m.lastindex == 2 else MASK, text
        )
    return _URI_PASSWORD.sub(rf"\g<1>{MASK}@", text)


def describe(exc: BaseException, limit: int = 300, also: tuple[str, ...] = ()) -> str:
    """Say what failed as 'Type: message', redacted before it is cut short for a note."""
    message = str(exc).strip()
    text = f"{type(exc).__name__}: {message}" if message else type(exc).__name__
    return redact(text, also)[:limit]
