"""Documents given in memory (text, or a file's bytes) go the way files go, each with its result."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from adaptive_rag.knowledge.loading import FileDocument, TextDocument, load_file
from adaptive_rag.knowledge.retriever import HybridRetriever
from fake_sources import SAMPLE, make_pdf
from stores import ids_where

KETTLE = "# Zephyr kettle\n\nThe Zephyr kettle boils 1.7 litres in three minutes.\n"


def test_text_and_bytes_documents_are_ingested_searched_and_deleted(open_kb: Any) -> None:
    kb = open_kb()
    html = b"<html><h1>Heron hub</h1><p>The Heron hub pairs with 32 sensors.</p></html>"
    records = b'{"text": "Osprey drones fly for 40 minutes.", "title": "Osprey"}\n'
    report = kb.ingest_documents(
        [
            TextDocument("notes/kettle", KETTLE, metadata={"author": "Ada", "source": "wiki"}),
            FileDocument("uploads/hub.html", html),
            FileDocument("uploads/manual.pdf", make_pdf("Kestrel manual: charge for two hours")),
            FileDocument("uploads/drones.jsonl", records),
        ]
    )
    assert report.failed == [] and report.duplicates == []
    assert report.added == ["notes/kettle", "uploads/hub.html", "uploads/manual.pdf"] + [
        "uploads/drones.jsonl"
    ]
    assert {e["source"]: e["title"] for e in kb.sources()} == {
        "notes/kettle": "Zephyr kettle",
        "uploads/hub.html": "Heron hub",
        "uploads/manual.pdf": "manual",
        "uploads/drones.jsonl": "Osprey",
    }
    (kettle,) = HybridRetriever(kb=kb, k=1, mode="keyword").invoke("kettle litres minutes")
    assert kettle.metadata["source"] == "notes/kettle" and kettle.metadata["author"] == "Ada"
    assert kettle.metadata["doc_source"] == "wiki"  # a field the knowledge base owns is renamed
    (hub,) = HybridRetriever(kb=kb, k=1, mode="keyword").invoke("Heron hub sensors")
    assert hub.metadata["source"] == "uploads/hub.html"
    assert kb.delete("uploads/hub.html") > 0
    assert "uploads/hub.html" not in {e["source"] for e in kb.sources()}


def test_a_document_given_again_is_unchanged_replaced_or_a_duplicate(open_kb: Any) -> None:
    kb = open_kb()
    kb.ingest_documents([TextDocument("kettle", KETTLE)])
    again = kb.ingest_documents([TextDocument("kettle", KETTLE)])
    assert again.unchanged == ["kettle"] and again.chunks_added == 0
    retitled = kb.ingest_documents([TextDocument("kettle", KETTLE, title="Kettles")])
    assert retitled.replaced == ["kettle"]  # its title is part of what it holds
    changed = KETTLE.replace("three", "four")
    report = kb.ingest_documents([TextDocument("kettle", changed), TextDocument("copy", changed)])
    assert report.replaced == ["kettle"] and report.duplicates == ["copy (same content as kettle)"]
    later = kb.ingest_documents([TextDocument("elsewhere", changed)])
    assert later.duplicates == ["elsewhere (same content as kettle)"] and later.moved == []
    assert {e["source"] for e in kb.sources()} == {"kettle"}  # never judged moved: no disk


def test_bad_documents_fail_with_their_reason_and_the_rest_is_ingested(open_kb: Any) -> None:
    kb = open_kb()
    report = kb.ingest_documents(
        [
            TextDocument("empty", "  \n"),
            FileDocument("garbage.txt", bytes(range(128, 256)) * 4),
            FileDocument("slides.pptx", b"PK\x03\x04 not ours"),
            FileDocument("blank.md", b""),
            FileDocument("broken.pdf", b"%PDF-1.4 not really"),
            FileDocument("bad.jsonl", b'{"text": "ok"}\nnot json\n'),
            TextDocument(" ", "no name"),
            TextDocument("good", KETTLE),
            TextDocument("good", "the same name again"),
            FileDocument("fine.txt", "Plain text, in UTF-8: café.".encode()),
        ]
    )
    assert report.added == ["good", "fine.txt"]
    reasons = dict(line.split(": ", 1) for line in report.failed)
    assert set(reasons) == {"empty", "garbage.txt", "slides.pptx", "blank.md"} | {
        "broken.pdf",
        "bad.jsonl:2",
        "(no name)",
        "good",
    }
    assert reasons["empty"] == reasons["blank.md"] == "contains no text"
    assert reasons["garbage.txt"].startswith("not UTF-8 text")
    assert reasons["slides.pptx"].startswith("unsupported type .pptx")
    assert reasons["broken.pdf"].startswith("cannot be read")
    assert reasons["bad.jsonl:2"].startswith("not JSON")
    assert reasons["good"] == "given more than once in one ingest"
    assert {e["source"] for e in kb.sources()} == {"good", "fine.txt"}


def test_a_file_is_read_the_way_its_bytes_are(open_kb: Any, tmp_path: Path) -> None:
    path = SAMPLE / "policies" / "returns.md"
    from adaptive_rag.knowledge.loading import load_document

    given = load_document(FileDocument(str(path), path.read_bytes()))
    assert [(d.page_content, d.metadata) for d in given] == [
        (d.page_content, d.metadata) for d in load_file(path)
    ]
    files, memory = open_kb("files"), open_kb("memory")
    files.ingest([str(path)], progress=False)
    memory.ingest_documents([FileDocument(str(path.resolve()), path.read_bytes())])
    assert ids_where(files) == ids_where(memory)
    # a file whose content an uploaded document holds is a duplicate of it, not a move
    copy = tmp_path / "copy.md"
    copy.write_bytes(path.read_bytes())
    uploads = open_kb("uploads")
    uploads.ingest_documents([FileDocument("returns.md", path.read_bytes())])
    report = uploads.ingest([str(copy)], progress=False)
    assert report.duplicates == [f"{copy.resolve()} (same content as returns.md)"]
    assert report.moved == []
