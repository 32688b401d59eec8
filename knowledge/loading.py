"""Read documents: files, or documents given in memory (text, or a file's bytes with its name).

Text, Markdown (with its front matter), HTML, PDF and JSONL are read the same way from a file on
disk and from its bytes: `load_file` reads the file and calls `load_bytes`.
"""

from __future__ import annotations

import datetime as dt
import hashlib
import io
import json
import re
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from pathlib import Path, PurePath
from typing import Any

import yaml
from langchain_core.documents import Document

SUPPORTED = (".txt", ".md", ".markdown", ".html", ".htm", ".pdf", ".jsonl")
OWN_KEYS = frozenset(
    "source section position parent_id id line file_hash file_chunks entities owner groups"
    " ingested_on".split()
)
"""Chunk metadata the knowledge base writes itself: a JSONL field so named is kept as doc_<name>."""


class LoadError(ValueError):
    """A document could not be read; the message names it and gives the reason."""


@dataclass(frozen=True)
class TextDocument:
    """A document given as text; `name` is its source, as a file's path is."""

    name: str
    text: str
    title: str = ""
    """Its title ('': the first Markdown heading, else the name without its extension)."""
    metadata: Mapping[str, Any] = field(default_factory=dict)
    """Its own fields (author, date, url ...), kept as a JSONL record's are."""


@dataclass(frozen=True)
class FileDocument:
    """A file's bytes given in memory, read as a file of that name is (its extension decides)."""

    name: str
    data: bytes


@dataclass(frozen=True)
class Unreadable:
    """A file that could not be read from disk, and why."""

    name: str
    reason: str


Given = TextDocument | FileDocument
"""A document to ingest: the knowledge base reads files into FileDocuments too."""


def iter_files(paths: Iterable[str | Path]) -> Iterator[Path]:
    """Yield supported files under the given files and folders, in a stable order, once each."""
    seen: set[Path] = set()
    for raw in paths:
        path = Path(raw).expanduser()
        if path.is_dir():
            found = [c.resolve() for c in sorted(path.rglob("*")) if c.is_file()]
            found = [c for c in found if c.suffix.lower() in SUPPORTED]
        else:  # a missing or unsupported file is reported when read
            found = [path.resolve()]
        for item in found:
            if item not in seen:
                seen.add(item)
                yield item


def read_files(paths: Iterable[str | Path]) -> Iterator[FileDocument | Unreadable]:
    """Read the files `iter_files` finds, one at a time, each named by its full path."""
    for path in iter_files(paths):
        try:
            yield FileDocument(str(path), path.read_bytes())
        except OSError as exc:
            yield Unreadable(str(path), str(exc.strerror or exc))


def content_hash(doc: Given) -> str:
    """Return a hash of what a document holds: a file's bytes; a text with its title and fields."""
    if isinstance(doc, FileDocument):
        data = doc.data
    else:
        fields = {str(key): value for key, value in doc.metadata.items()}
        record = [doc.text, doc.title, fields]
        data = json.dumps(record, sort_keys=True, default=str, ensure_ascii=False).encode()
    return hashlib.sha256(data).hexdigest()


def load_document(doc: Given) -> list[Document]:
    """Read a document given in memory; raise LoadError with a reason a user can act on."""
    if isinstance(doc, FileDocument):
        return load_bytes(doc.name, doc.data)
    if not isinstance(doc.text, str) or not doc.text.strip():
        raise LoadError(f"{doc.name}: contains no text")
    meta = _fields(dict(doc.metadata))
    meta["title"] = doc.title or str(meta.get("title") or "") or _title(doc.text, doc.name)
    return [Document(page_content=doc.text, metadata=meta)]


def load_file(path: Path) -> list[Document]:
    """Read one file; raise LoadError with a reason a user can act on."""
    _check_type(str(path))
    try:
        data = path.read_bytes()
    except OSError as exc:
        raise LoadError(f"{path}: {exc.strerror or exc}") from exc
    return load_bytes(str(path), data)


def load_bytes(name: str, data: bytes) -> list[Document]:
    """Read a file's bytes as the file `name` (its extension picks the reader)."""
    suffix = _check_type(name)
    try:
        if suffix == ".pdf":
            docs = _load_pdf(name, data)
        elif suffix == ".jsonl":
            docs = _load_jsonl(name, data.decode("utf-8"))
        else:
            text = data.decode("utf-8-sig")
            if suffix in (".html", ".htm"):
                text = _html_to_markdown(text)
            fields, text = _front_matter(text) if suffix in (".md", ".markdown") else ({}, text)
            fields.setdefault("title", _title(text, name))
            docs = [Document(page_content=text, metadata=fields)]
    except LoadError:
        raise
    except UnicodeDecodeError as exc:
        raise LoadError(f"{name}: not UTF-8 text ({exc.reason} at byte {exc.start})") from exc
    except Exception as exc:  # corrupt PDFs and the like
        raise LoadError(f"{name}: cannot be read ({type(exc).__name__}: {exc})") from exc
    docs = [d for d in docs if d.page_content.strip()]
    if not docs:
        raise LoadError(f"{name}: contains no text")
    return docs


def _check_type(name: str) -> str:
    """Return a supported file name's extension; raise LoadError for any other."""
    suffix = PurePath(name).suffix.lower()
    if suffix not in SUPPORTED:
        raise LoadError(
            f"{name}: unsupported type {suffix or '(none)'}; use {', '.join(SUPPORTED)}"
        )
    return suffix


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


def _title(text: str, name: str) -> str:
    """Use the first Markdown heading as the title, else the file name without its extension."""
    found = re.search(r"^#{1,3}\s+(.+)$", text, re.MULTILINE)
    return found.group(1).strip() if found else PurePath(name).stem


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


def _load_pdf(name: str, data: bytes) -> list[Document]:
    """One document per page, keeping the page number."""
    from pypdf import PdfReader

    reader = PdfReader(io.BytesIO(data))
    info = reader.metadata
    title = str(info.title if info is not None and info.title else PurePath(name).stem)
    return [
        Document(page_content=page.extract_text() or "", metadata={"title": title, "page": n})
        for n, page in enumerate(reader.pages, start=1)
    ]


def _load_jsonl(name: str, text: str) -> list[Document]:
    """One document per line: `text` plus any flat metadata (id, title, url ...)."""
    docs = []
    stem = PurePath(name).stem
    for number, line in enumerate(text.splitlines(), start=1):
        if not line.strip():
            continue
        try:
            record = json.loads(line)
        except json.JSONDecodeError as exc:
            raise LoadError(f"{name}:{number}: not JSON ({exc.msg})") from exc
        if not isinstance(record, dict) or not isinstance(record.get("text"), str):
            raise LoadError(f"{name}:{number}: each line needs a string field 'text'")
        meta = _fields(record)
        meta.setdefault("title", str(record.get("title") or f"{stem} #{number}"))
        meta["line"] = number
        docs.append(Document(page_content=record["text"], metadata=meta))
    return docs
