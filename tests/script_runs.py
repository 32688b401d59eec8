"""Running the clone's scripts (benchmarks/, experiments/) on `eval run` folders written here."""

from __future__ import annotations

import importlib.util
import json
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from types import ModuleType


def script_runner(folder: Path) -> Callable[..., str]:
    """Return a function that runs folder/NAME with arguments and returns what it printed.

    With `code`, the script must exit with that code, and what it wrote to stderr is returned.
    """

    def run(name: str, *args: object, code: int = 0) -> str:
        command = [sys.executable, str(folder / name), *map(str, args)]
        done = subprocess.run(command, capture_output=True, text=True, check=False)
        assert done.returncode == code, done.stderr
        return done.stdout if code == 0 else done.stderr

    return run


def runs_writer(root: Path) -> Callable[[str, list[dict[str, object]]], Path]:
    """Return a function that writes runs as the `eval run` folder root/NAME and returns it."""

    def write(name: str, runs: list[dict[str, object]]) -> Path:
        folder = root / name
        folder.mkdir()
        (folder / "results.jsonl").write_text("".join(json.dumps(r) + "\n" for r in runs))
        return folder

    return write


def load_script(path: Path) -> ModuleType:
    """Import a script that imports no sibling (by its file name, as running it would)."""
    if path.stem in sys.modules:
        return sys.modules[path.stem]
    spec = importlib.util.spec_from_file_location(path.stem, path)
    assert spec is not None and spec.loader is not None, path
    module = importlib.util.module_from_spec(spec)
    sys.modules[path.stem] = module
    spec.loader.exec_module(module)
    return module
