"""The command line: ingest, list, delete and ask, with exit codes a user can act on."""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Any

import pytest
from adaptive_rag.cli import main as cli
from adaptive_rag.knowledge import embeddings
from adaptive_rag.providers import chat
from fake_sources import SAMPLE, HashEmbeddings
from fakes import K2_BATTERY, ScriptedChatModel
from typer.testing import CliRunner

runner = CliRunner()


@pytest.fixture(autouse=True)
def _offline_cli(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("ADAPTIVE_RAG_DATA", str(tmp_path / "data"))
    monkeypatch.delenv("CHROMA_HOST", raising=False)
    monkeypatch.setattr(embeddings, "_CACHE", {"local:multilingual-e5-small": HashEmbeddings()})


def invoke(*args: str) -> Any:
    return runner.invoke(cli.app, list(args))


def test_ingest_list_delete(tmp_path: Path, store: str) -> None:
    kb = str(tmp_path / "kb")
    result = invoke("ingest", str(SAMPLE), "--kb-path", kb, "-c", "demo")
    assert result.exit_code == 0, result.output
    assert "8 added" in result.output and "0 failed" in result.output
    again = invoke("ingest", str(SAMPLE), "--kb-path", kb, "-c", "demo")
    assert "8 unchanged" in again.output
    listing = invoke("list", "--kb-path", kb, "-c", "demo")
    assert "returns.md" in listing.output and listing.exit_code == 0
    returns = str((SAMPLE / "policies" / "returns.md").resolve())
    deleted = invoke("delete", returns, "--kb-path", kb, "-c", "demo")
    assert deleted.exit_code == 0 and "removed" in deleted.output
    assert invoke("delete", returns, "--kb-path", kb, "-c", "demo").exit_code == 1


def test_a_moved_sample_is_not_held_twice(tmp_path: Path, store: str) -> None:
    kb, copy, moved = str(tmp_path / "kb"), tmp_path / "copy", tmp_path / "moved"
    shutil.copytree(SAMPLE, copy)
    assert invoke("ingest", str(copy), "--kb-path", kb).exit_code == 0
    count = len(invoke("list", "--kb-path", kb).output.splitlines())
    copy.rename(moved)  # the clone moved (or was deleted and cloned again elsewhere)
    result = invoke("ingest", str(moved), "--kb-path", kb)
    assert result.exit_code == 0 and "8 added" in result.output, result.output
    assert result.output.count("moved: ") == 8 and "0 duplicates" in result.output
    listing = invoke("list", "--kb-path", kb).output
    assert len(listing.splitlines()) == count and str(copy) not in listing


def test_listing_a_missing_knowledge_base_exits_3_with_the_fix(tmp_path: Path, store: str) -> None:
    result = invoke("list", "--kb-path", str(tmp_path / "none"), "-c", "nothing")
    assert result.exit_code == cli.EXIT_NO_KB
    assert "adaptive-rag ingest" in result.output


def test_ingest_of_only_unreadable_files_fails(tmp_path: Path, store: str) -> None:
    bad = tmp_path / "bad.txt"
    bad.write_bytes(b"\xff\xfe\xfa")
    result = invoke("ingest", str(bad), "--kb-path", str(tmp_path / "kb"))
    assert result.exit_code == 1 and "not UTF-8" in result.output


def test_ask_prints_answer_sources_and_route(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, store: str
) -> None:
    kb = str(tmp_path / "kb")
    invoke("ingest", str(SAMPLE), "--kb-path", kb)
    monkeypatch.setattr(
        chat, "_MODELS", {chat.LOCAL_MODEL: ScriptedChatModel.with_script(rag=K2_BATTERY)}
    )
    result = invoke("ask", "How long does the Kestrel K2 battery last?", "--kb-path", kb)
    assert result.exit_code == 0, result.output
    assert K2_BATTERY in result.output
    assert "Sources:" in result.output and "route: simple" in result.output
    thread = result.output.strip().splitlines()[-1].removeprefix("thread: ")
    follow = invoke("ask", "And the price?", "--kb-path", kb, "--thread", thread, "--json")
    data = json.loads(follow.output)
    assert len(data["messages"]) == 4  # the thread survived between processes (SQLite)
    assert data["route"]["category"] == "simple"


def test_ask_without_a_model_exits_4(tmp_path: Path) -> None:
    result = invoke("ask", "Hello!", "--kb-path", str(tmp_path / "kb"))
    assert result.exit_code == cli.EXIT_NO_MODEL
    assert "could not answer" in result.output


def test_bad_input_and_bad_config(tmp_path: Path) -> None:
    assert invoke("ask", "  ").exit_code == cli.EXIT_BAD_CONFIG
    result = invoke("ask", "hi", "--collection", " ")
    assert result.exit_code == cli.EXIT_BAD_CONFIG and "collection" in result.output


def test_chat_streams_steps_follows_up_and_answers_clarifications(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    kb = str(tmp_path / "kb")
    invoke("ingest", str(SAMPLE), "--kb-path", kb)
    model = ScriptedChatModel.with_script(
        rag=K2_BATTERY, rewrite="How long does the Kestrel K2 take to boil?"
    )
    monkeypatch.setattr(chat, "_MODELS", {chat.LOCAL_MODEL: model})
    turns = "How long does the Kestrel K2 battery last?\nAnd how much does it cost?\n\n"
    result = runner.invoke(cli.app, ["chat", "--kb-path", kb], input=turns)
    assert result.exit_code == 0, result.output
    out = result.output
    assert "· classify -> simple" in out and "· retrieve" in out and "· generate" in out
    assert out.count(K2_BATTERY) == 2  # streamed once per turn
    assert "· rewrite_with_history -> How long does the Kestrel K2 take to boil?" in out
    assert "route: simple" in out and "[1] Kestrel K2 sensor" in out
    fresh = runner.invoke(
        cli.app, ["chat", "--kb-path", kb], input="What about the other one?\nthe Heron hub\n\n"
    )
    assert "agent asks> Which one do you mean?" in fresh.output
    assert "· clarify" in fresh.output and "route: simple" in fresh.output


def test_serve_refuses_without_the_cli(monkeypatch: pytest.MonkeyPatch) -> None:
    import importlib.util

    real = importlib.util.find_spec
    monkeypatch.setattr(
        importlib.util,
        "find_spec",
        lambda name, *a: None if name == "langgraph_cli" else real(name, *a),
    )
    result = invoke("serve")
    assert result.exit_code == 1 and "langgraph-cli is not installed" in result.output


def test_unreachable_model_server_exits_5(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    model = ScriptedChatModel.with_script(talk=ConnectionError("Connection refused"))
    monkeypatch.setattr(chat, "_MODELS", {chat.LOCAL_MODEL: model})
    result = invoke("ask", "Hello!", "--kb-path", str(tmp_path / "kb"))
    assert result.exit_code == cli.EXIT_NETWORK and "could not be reached" in result.output


GROUNDING = {"node": "self_check", "method": "rule", "verdict": "unsupported"}
ANSWERABILITY = {"node": "self_check", "method": "rule", "verdict": "answer"}


@pytest.mark.parametrize(
    ("judgments", "verified", "label"),
    [
        ([GROUNDING, ANSWERABILITY], True, "confidence 0.70 |"),
        ([GROUNDING, ANSWERABILITY], False, "(unverified)"),
        ([ANSWERABILITY], False, "(not fact-checked)"),  # answer_check off: only the decline ran
        ([], False, "(not fact-checked)"),
    ],
)
def test_the_footer_tells_a_failed_check_from_none(
    judgments: list[dict[str, str]], verified: bool, label: str, capsys: pytest.CaptureFixture[str]
) -> None:
    from adaptive_rag.cli.render import print_footer

    out = {"confidence": 0.7, "verified": verified, "diagnostics": {"judgments": judgments}}
    print_footer(out, 1.0)
    assert label in capsys.readouterr().out


def test_the_sources_say_which_names_linked_them(capsys: pytest.CaptureFixture[str]) -> None:
    from adaptive_rag.cli.render import print_footer

    source = {"source": "corpus.jsonl", "snippet": "", "origin": "kb", "cited": True}
    links = [
        {"title": "Oskar Brevik", "source": "corpus.jsonl", "entities": ["oskar brevik"]},
        {"title": "Fair", "source": "corpus.jsonl", "entities": [], "within": "publisher: Wired"},
    ]
    out = {
        "sources": [
            {**source, "id": 1, "title": "Oskar Brevik"},
            {**source, "id": 2, "title": "Tofte"},
            {**source, "id": 3, "title": "Fair"},
        ],
        "diagnostics": {"links": links},
    }
    print_footer(out, 1.0)
    shown = capsys.readouterr().out
    assert "[1] Oskar Brevik — corpus.jsonl (linked by oskar brevik)" in shown
    assert "[2] Tofte — corpus.jsonl\n" in shown
    assert "[3] Fair — corpus.jsonl (found within publisher: Wired)\n" in shown


def test_serve_writes_the_repositorys_server_config_for_the_installed_package() -> None:
    served = json.loads(cli.served_config().joinpath("langgraph.json").read_text())
    repository = json.loads((Path(cli.__file__).parents[1] / "langgraph.json").read_text())
    for key in ("graphs", "http", "auth"):  # sign-in holds for `adaptive-rag serve` too
        assert served[key] == repository[key]
