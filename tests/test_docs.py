"""The README matches the code: every Context field is documented with its real default."""

from __future__ import annotations

import re
from dataclasses import MISSING, fields
from pathlib import Path

from adaptive_rag import Context

README = (Path(__file__).resolve().parents[1] / "README.md").read_text()


def test_every_context_field_is_in_the_configuration_table() -> None:
    for f in fields(Context):
        default = f.default if f.default_factory is MISSING else f.default_factory()
        assert f"| `{f.name}` | `{default!r}` |" in README, f"README is missing {f.name}"


def test_env_example_lists_every_variable_the_code_reads() -> None:
    example = (Path(__file__).resolve().parents[1] / ".env.example").read_text()
    root = Path(__file__).resolve().parents[1]
    files = [*root.glob("*.py"), *root.glob("*/*.py")]  # top-level faces too (auth, webapp)
    code = "\n".join(p.read_text() for p in files if "tests" not in p.parts)
    read = set(
        re.findall(
            r'(?:environ(?:\.get)?|env_seconds)\(\s*"([A-Z_]+)"|environ\["([A-Z_]+)"\]', code
        )
    )
    names = {a or b for a, b in read} - {"CI"}
    assert {"CHROMA_TIMEOUT", "ADAPTIVE_RAG_LOCAL_TIMEOUT"} <= names
    assert names >= {"OPENAI_API_KEY", "CHROMA_HOST", "ADAPTIVE_RAG_DATA"}
    for name in names:
        assert f"{name}=" in example, f".env.example is missing {name}"
