"""The README matches the code: every Context field is documented with its real default."""

from __future__ import annotations

from dataclasses import fields
from pathlib import Path

from adaptive_rag import Context

README = (Path(__file__).resolve().parents[1] / "README.md").read_text()


def test_every_context_field_is_in_the_configuration_table() -> None:
    for f in fields(Context):
        assert f"| `{f.name}` | `{f.default!r}` |" in README, f"README is missing {f.name}"


def test_env_example_lists_every_variable_the_code_reads() -> None:
    example = (Path(__file__).resolve().parents[1] / ".env.example").read_text()
    for name in ("OPENAI_API_KEY", "OPENAI_BASE_URL", "ADAPTIVE_RAG_CHAT_MODEL", "TAVILY_API_KEY"):
        assert f"{name}=" in example
