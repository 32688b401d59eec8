"""Read files into documents: text, Markdown (with its front matter), HTML, PDF and JSONL."""

from __future__ import annotations

import datetime as dt
import json
import re
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import Any

import yaml
from langchain_core.documents import Document

SUPPORTED = (".txt", ".md", ".markdown", ".html", ".htm", ".pdf", ".jsonl")
OWN_KEYS = frozenset(
    "source section position parent_id id line file_hash file_chunks entities owner groups".split()
)
"""Chunk metadata the knowledge base writes itself: a JSONL field so named is kept as doc_<name>."""


class LoadError(ValueError):
    """A file could not be read; the message names the file and the reason."""


def iter_files(paths: Iterable[str | Path]) -> Iterator[Path]:
    """Yield supported files under the given files and folders, in a stable order, once each."""
    seen: set[Path] = set()
    for raw in paths:
        path = Path(raw).expanduser()
        if path.is_dir():
            found = [c.resolve() for c in sorted(path.rglob("*")) if c.is_file()]
            found = [c for c in found if c.suffix.lower() in SUPPORTED]
        else:  # a missing or unsupported file is reported by load_file
            found = [path.resolve()]
        for item in found:
            if item not in seen:
                seen.add(item)
                yield item


def load_file(path: Path) -> list[Document]:
    """Read one file; raise LoadError with a reason a user can act on."""
    suffix = path.suffix.lower()
    if suffix not in SUPPORTED:
        raise LoadError(
            f"{path}: unsupported type {suffix or '(none)'}; use {', '.join(SUPPORTED)}"
        )
    try:
        if suffix == ".pdf":
            docs = _load_pdf(path)
        elif suffix == ".jsonl":
            docs = _load_jsonl(path)
        else:
            text = path.read_bytes().decode("utf-8-sig")
            if suffix in (".html", ".htm"):
                text = _html_to_markdown(text)
            fields, text = _front_matter(text) if suffix in (".md", ".markdown") else ({}, text)
            fields.setdefault("title", _title(text, path))
            docs = [Document(page_content=text, metadata=fields)]
    except LoadError:
        raise
    except UnicodeDecodeError as exc:
        raise LoadError(f"{path}: not UTF-8 text ({exc.reason} at byte {exc.start})") from exc
    except OSError as exc:
        raise LoadError(f"{path}: {exc.strerror or exc}") from exc
    except Exception as exc:  # corrupt PDFs and the like
        raise LoadError(f"{path}: cannot be read ({type(exc).__name__}: {exc})") from exc
    docs = [d for d in docs if d.page_content.strip()]
    if not docs:
        raise LoadError(f"{path}: contains no text")
    return docs


def _front_matter(text: str) -> tuple[dict[str, Any], str]:
    """Split a Markdown file's YAML front matter (between `---` lines) from its text.

    Its flat values (text, numbers, dates) become the document's fields, as a JSONL record's do;
    anything else, or front matter that is not YAML, leaves the text as it was.
    """
    found = re.match(r"\A---[ \t]*\r?\n(.*?)\r?\n---[ \t]*(?:\r?\n|\Z)", text, re.DOTALL)
    if not found:
        return {}, text
    try:
        parsed = yaml.safe_load(found.group(1))
    except yaml.YAMLError:
        return {}, text
    if not isinstance(parsed, dict):
        return {}, text
    return _fields(parsed), text[found.end() :]


def _fields(record: dict[Any, Any]) -> dict[str, Any]:
    """Keep a record's flat values (dates as ISO text).

    A field the knowledge base writes itself (`source`: the file) is kept beside it as
    doc_<name>, or doc_doc_<name> if the record has a doc_<name> of its own (`id`, `doc_id`).
    """
    meta: dict[str, Any] = {}
    for key, value in record.items():
        if isinstance(value, dt.date):
            value = value.isoformat()
        if key == "text" or not isinstance(value, str | int | float | bool):
            continue
        name = str(key)
        if name in OWN_KEYS:
            name = f"doc_{name}"
            while name in record:
                name = f"doc_{name}"
        meta[name] = value
    return meta


def _title(text: str, path: Path) -> str:
    """Use the first Markdown heading as the title, else the file name."""
    found = re.search(r"^#{1,3}\s+(.+)$", text, re.MULTILINE)
    return found.group(1).strip() if found else path.stem


def _html_to_markdown(html: str) -> str:
    """Keep an HTML page's text, turning h1-h3 into Markdown headings for the chunker."""
    from bs4 import BeautifulSoup

    soup = BeautifulSoup(html, "html.parser")
    for tag in soup(["script", "style", "nav", "footer", "noscript"]):
        tag.decompose()
    for level in (1, 2, 3):
        for heading in soup.find_all(f"h{level}"):
            heading.replace_with(f"\n\n{'#' * level} {heading.get_text(' ', strip=True)}\n\n")
    text = soup.get_text("\n")
    return re.sub(r"\n{3,}", "\n\n", text).strip()


def _load_pdf(path: Path) -> list[Document]:
    """One document per page, keeping the page number."""
    from pypdf import PdfReader

    reader = PdfReader(str(path))
    info = reader.metadata
    title = str(info.title if info is not None and info.title else path.stem)
    return [
        Document(page_content=page.extract_text() or "", metadata={"title": title, "page": n})
        for n, page in enumerate(reader.pages, start=1)
    ]


def _load_jsonl(path: Path) -> list[Document]:
    """One document per line: `text` plus any flat metadata (id, title, url ...)."""
    docs = []
    for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
        if not line.strip():
            continue
        try:
            record = json.loads(line)
        except json.JSONDecodeError as exc:
            raise LoadError(f"{path}:{number}: not JSON ({exc.msg})") from exc
        if not isinstance(record, dict) or not isinstance(record.get("text"), str):
            raise LoadError(f"{path}:{number}: each line needs a string field 'text'")
        meta = _fields(record)
        meta.setdefault("title", str(record.get("title") or f"{path.stem} #{number}"))
        meta["line"] = number
        docs.append(Document(page_content=record["text"], metadata=meta))
    return docs
