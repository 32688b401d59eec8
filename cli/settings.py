"""The CLI's --set FIELD=VALUE overrides, read into typed Context fields."""

from __future__ import annotations

from dataclasses import MISSING, fields
from typing import Any

from adaptive_rag.schema.context import Context, removed_problem

_TRUE, _FALSE = {"1", "true", "yes", "on"}, {"0", "false", "no", "off"}


def settings_from_pairs(pairs: list[str] | None) -> dict[str, Any]:
    """Read FIELD=VALUE overrides (the CLI's --set) into typed Context fields."""
    known = {
        f.name: f.default if f.default_factory is MISSING else f.default_factory()
        for f in fields(Context)
    }
    settings: dict[str, Any] = {}
    for pair in pairs or []:
        name, sep, raw = pair.partition("=")
        name, raw = name.strip(), raw.strip()
        removed = removed_problem({name: raw})
        if removed:
            raise ValueError(f"--set {pair!r}: {removed}")
        if not sep or name not in known:
            raise ValueError(
                f"--set {pair!r}: expected FIELD=VALUE, FIELD one of {', '.join(sorted(known))}"
            )
        default = known[name]
        try:
            if isinstance(default, bool):
                if raw.lower() not in _TRUE | _FALSE:
                    raise ValueError("expected true or false")
                settings[name] = raw.lower() in _TRUE
            elif isinstance(default, int | float):
                settings[name] = type(default)(raw)
            else:
                settings[name] = raw
        except ValueError as exc:
            raise ValueError(f"--set {name}: {raw!r} is not a valid value ({exc})") from exc
    return settings
