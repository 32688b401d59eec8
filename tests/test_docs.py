"""The docs match the code: the settings with their real defaults, the graph as it is wired."""

from __future__ import annotations

import re
from dataclasses import MISSING, fields
from pathlib import Path

from adaptive_rag import Context

ROOT = Path(__file__).resolve().parents[1]
README = (ROOT / "README.md").read_text()
SNAPSHOT = ROOT / "tests" / "graph" / "snapshots" / "graph.mmd"


def test_every_context_field_is_in_the_configuration_table() -> None:
    for f in fields(Context):
        default = f.default if f.default_factory is MISSING else f.default_factory()
        assert f"| `{f.name}` | `{default!r}` |" in README, f"README is missing {f.name}"


def test_the_readme_diagram_is_the_topology_snapshot() -> None:
    diagrams = re.findall(r"^```mermaid\n(.*?)^```$", README, re.S | re.M)
    assert diagrams == [SNAPSHOT.read_text()], "copy tests/graph/snapshots/graph.mmd into README.md"


def test_the_routes_table_has_every_edge_of_the_graph() -> None:
    snapshot = SNAPSHOT.read_text()
    edges = set(re.findall(r"^\s*(\w+) (?:-\.->|-->) (\w+);$", snapshot, re.M))
    assert len(edges) == snapshot.count("->")  # every edge line was read
    page = (ROOT / "docs" / "graph.md").read_text()
    routes = page.split("## Routes", 1)[1].split("\n## ", 1)[0]
    names = {"START": "__start__", "END": "__end__"}
    rows = re.findall(r"^\| `(\w+)` \| `(\w+)` \| .+ \|$", routes, re.M)
    assert len(rows) == len(set(rows)), "an edge is listed twice in docs/graph.md"
    assert {(names.get(a, a), names.get(b, b)) for a, b in rows} == edges


def test_env_example_lists_every_variable_the_code_reads() -> None:
    example = (Path(__file__).resolve().parents[1] / ".env.example").read_text()
    root = Path(__file__).resolve().parents[1]
    # top-level faces too (auth, webapp), and packages in packages (knowledge.chroma)
    files = [*root.glob("*.py"), *root.glob("*/*.py"), *root.glob("*/*/*.py")]
    code = "\n".join(p.read_text() for p in files if not {"tests", ".venv"} & set(p.parts))
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


DOCS = [
    "README.md",
    "CONTRIBUTING.md",
    "CHANGELOG.md",
    "docs/*.md",
    "benchmarks/README.md",
    "benchmarks/fitting/README.md",
    "experiments/README.md",
]
WORK_PERIOD = re.compile(r"\bsessions?\s+\d|\bs\d{1,2}\b|eval-out/[si]\d", re.IGNORECASE)


def _docs() -> list[Path]:
    root = Path(__file__).resolve().parents[1]
    return sorted(p for pattern in DOCS for p in root.glob(pattern))


def _anchors(markdown: str) -> set[str]:
    """Return the anchors GitHub gives the headings of a Markdown text."""
    headings = re.findall(r"^#+\s+(.+?)\s*$", re.sub(r"```.*?```", "", markdown, flags=re.S), re.M)
    return {re.sub(r"[^\w\- ]", "", h.lower()).replace(" ", "-") for h in headings}


def test_relative_links_in_the_docs_reach_a_file_and_heading() -> None:
    for doc in _docs():
        text = doc.read_text()
        for target in re.findall(r"\]\(([^)\s]+)\)", text):
            if re.match(r"[a-z]+:", target):
                continue  # a web address
            path, _, anchor = target.partition("#")
            linked = (doc.parent / path).resolve() if path else doc
            assert linked.exists(), f"{doc.name} links to {target}, which does not exist"
            if anchor and linked.suffix == ".md":
                assert anchor in _anchors(linked.read_text()), f"{doc.name}: no heading {target}"


def test_the_docs_name_no_work_periods() -> None:
    for doc in _docs():
        for number, line in enumerate(doc.read_text().splitlines(), start=1):
            assert not WORK_PERIOD.search(line), f"{doc.name}:{number}: {line.strip()}"
