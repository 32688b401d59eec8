"""Loaders: Markdown titles, HTML headings, PDF pages, JSONL metadata; Chinese chunked and cut quietly."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest
from adaptive_rag.knowledge.chunking import chunk_documents, stable_id
from adaptive_rag.knowledge.loading import LoadError, iter_files, load_file
from adaptive_rag.knowledge.tokenizing import tokenize
from fake_sources import make_pdf


def test_markdown_title_and_html_headings(tmp_path: Path) -> None:
    md = tmp_path / "a.md"
    md.write_text("Intro\n\n# Real Title\n\nBody")
    assert load_file(md)[0].metadata["title"] == "Real Title"
    html = tmp_path / "b.html"
    html.write_text("<html><script>x()</script><h1>Page</h1><p>Para one.</p><h2>Sub</h2><p>Two</p>")
    text = load_file(html)[0].page_content
    assert "# Page" in text and "## Sub" in text and "x()" not in text


def test_pdf_pages(tmp_path: Path) -> None:
    pdf = tmp_path / "manual.pdf"
    pdf.write_bytes(make_pdf("Osprey drone manual"))
    docs = load_file(pdf)
    assert "Osprey drone manual" in docs[0].page_content and docs[0].metadata["page"] == 1


def test_jsonl_keeps_flat_metadata(tmp_path: Path) -> None:
    path = tmp_path / "c.jsonl"
    path.write_text(
        '{"text": "alpha", "doc_id": "d1", "title": "A", "tags": ["x"]}\n\n{"text": "beta"}\n'
    )
    docs = load_file(path)
    assert [d.page_content for d in docs] == ["alpha", "beta"]
    assert docs[0].metadata == {"doc_id": "d1", "title": "A", "line": 1}
    assert docs[1].metadata["title"] == "c #3"


def test_jsonl_fields_the_knowledge_base_owns_are_kept_beside_its_own(tmp_path: Path) -> None:
    path = tmp_path / "c.jsonl"
    path.write_text('{"text": "alpha", "source": "The Verge", "line": 9, "position": "lead"}\n')
    (doc,) = load_file(path)
    assert doc.metadata == {
        "doc_source": "The Verge",
        "doc_line": 9,
        "doc_position": "lead",
        "title": "c #1",
        "line": 1,
    }
    (chunk,), _ = chunk_documents([doc], str(path))
    assert chunk.metadata["source"] == str(path) and chunk.metadata["doc_source"] == "The Verge"
    path.write_text('{"doc_id": "gold-1", "id": "row-7", "text": "beta"}\n')
    (doc,) = load_file(path)  # a record's own doc_id is never overwritten
    assert doc.metadata["doc_id"] == "gold-1" and doc.metadata["doc_doc_id"] == "row-7"


def test_markdown_front_matter_becomes_the_documents_fields(tmp_path: Path) -> None:
    md = tmp_path / "a.md"
    md.write_text(
        "---\ntitle: Launch notes\nauthor: Ada Brook\ndate: 2024-01-05\nsource: Wiki\n"
        "tags: [a, b]\n---\n# Heading\n\nBody\n"
    )
    (doc,) = load_file(md)
    assert doc.metadata == {
        "title": "Launch notes",
        "author": "Ada Brook",
        "date": "2024-01-05",
        "doc_source": "Wiki",
    }
    assert doc.page_content == "# Heading\n\nBody\n"
    md.write_bytes("\ufeff---\nauthor: Ada Brook\n---\nBody\n".encode())  # after a BOM too
    (doc,) = load_file(md)
    assert doc.metadata["author"] == "Ada Brook" and doc.page_content == "Body\n"
    plain = tmp_path / "b.md"  # no front matter, or not YAML: the text stays whole
    for text in ("# Title\n\n---\nnot: front\n---\n", "---\n: [unclosed\n---\nBody\n"):
        plain.write_text(text)
        (doc,) = load_file(plain)
        assert doc.page_content == text


def test_unsupported_and_missing_files(tmp_path: Path) -> None:
    with pytest.raises(LoadError, match="unsupported type .docx"):
        load_file(tmp_path / "x.docx")
    with pytest.raises(LoadError, match="missing.md"):
        load_file(tmp_path / "missing.md")


def test_iter_files_walks_folders_in_order(tmp_path: Path) -> None:
    (tmp_path / "b.md").write_text("b")
    (tmp_path / "a.txt").write_text("a")
    (tmp_path / "skip.bin").write_bytes(b"\0")
    assert [p.name for p in iter_files([tmp_path])] == ["a.txt", "b.md"]


def test_chunking_respects_headings_overlaps_and_handles_chinese() -> None:
    from langchain_core.documents import Document

    zh = "。".join(f"第{i}句话讲的是传感器的电池寿命和防水等级" for i in range(80)) + "。"
    doc = Document(
        page_content=f"# 手册\n\n## 电池\n\n{zh}\n\n## 保修\n\n三年保修。",
        metadata={"title": "手册"},
    )
    chunks, sections = chunk_documents([doc], "manual.md", chunk_chars=300, overlap=60)
    assert [s.text.splitlines()[0] for s in sections] == ["手册 > 电池", "手册 > 保修"]
    assert not any(c.page_content.startswith("#") for c in chunks)
    battery = [c for c in chunks if c.metadata["section"] == "手册 > 电池"]
    assert len(battery) > 3 and all(len(c.page_content) <= 300 for c in battery)
    assert all(c.page_content.endswith("。") for c in battery[:-1])  # cut at sentence ends
    assert battery[1].page_content[:10] in battery[0].page_content  # overlap
    assert [c.metadata["position"] for c in chunks] == list(range(len(chunks)))
    again, _ = chunk_documents([doc], "manual.md", chunk_chars=300, overlap=60)
    assert [c.id for c in again] == [c.id for c in chunks]  # stable ids
    assert stable_id("a", "b") != stable_id("ab")


def test_tokenizer_cuts_chinese_and_drops_stopwords() -> None:
    assert tokenize("What is the warranty of the Heron hub?") == ["warranty", "heron", "hub"]
    assert "保修" in tokenize("Heron 网关的保修期是多久？")


@pytest.mark.parametrize(
    "code",
    [
        "from adaptive_rag.knowledge.tokenizing import tokenize; print(tokenize('保修期是多久'))",
        "from adaptive_rag.core.text import terms_of; print(terms_of('李明在北京工作'))",
    ],
    ids=["keyword index", "terms"],
)
def test_cutting_chinese_first_prints_nothing_from_jieba(code: str, tmp_path: Path) -> None:
    # a fresh process: jieba loads its dictionary once per process, and logs it at DEBUG
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True, cwd=tmp_path
    )
    assert "保修" in out.stdout or "北京" in out.stdout
    assert "prefix dict" not in out.stderr.lower() and "loading model" not in out.stderr.lower()
    assert out.stderr == ""
