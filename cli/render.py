"""How answers, sources, costs and progress are shown in the terminal."""

from __future__ import annotations

from typing import Any

import typer


def print_answer(out: dict[str, Any], seconds: float, all_sources: bool = False) -> None:
    """Print an answer with its numbered sources and what it cost."""
    typer.echo(out.get("answer", ""))
    print_footer(out, seconds, all_sources)


def print_footer(out: dict[str, Any], seconds: float, all_sources: bool = False) -> None:
    """Print the cited sources (all with all_sources), the route and what the answer cost."""
    sources = out.get("sources") or []
    shown = [s for s in sources if s["cited"] or all_sources]
    links = {
        (link["title"], link["source"]): link
        for link in (out.get("diagnostics") or {}).get("links") or []
    }
    if shown:
        typer.echo("\nSources:" if out.get("answerable", True) else "\nDocuments looked at:")
        for src in shown:
            mark = "" if src["cited"] or not out.get("answerable", True) else " (not cited)"
            link = links.get((src["title"], src["source"])) or {}
            mark += f" (found within {link['within']})" if link.get("within") else ""
            mark += f" (linked by {', '.join(link['entities'])})" if link.get("entities") else ""
            typer.echo(f"  [{src['id']}] {src['title']} — {src['source']}{mark}")
    hidden = len(sources) - len(shown)
    if hidden:
        typer.secho(
            f"({hidden} more document(s) looked at but not cited: --all-sources shows them)",
            fg=typer.colors.BRIGHT_BLACK,
        )
    route = out.get("route") or {}
    diag = out.get("diagnostics") or {}
    how = f"{route.get('method', '-')}: {route.get('reason', '')}"
    trust = f"confidence {out.get('confidence', 0):.2f}"
    decline = out.get("decline")
    if decline:
        trust = f"declined: {decline['reason']} ({decline['detail']}) | {trust}"
    elif not out.get("verified"):  # checked and not passed, or left unchecked (answer_check off)
        checked = any(
            j.get("node") == "self_check" and j.get("verdict") in ("grounded", "unsupported")
            for j in diag.get("judgments") or []
        )
        trust += " (unverified)" if checked else " (not fact-checked)"
    cost = f"{diag.get('model_calls', 0)} model calls, {diag.get('retrievals', 0)} retrievals"
    typer.secho(
        f"\nroute: {route.get('category', '-')} ({how}) | {trust} | {cost} | {seconds:.1f}s",
        fg=typer.colors.BRIGHT_BLACK,
    )
    for note in diag.get("notes") or []:
        typer.secho(f"note: {note}", fg=typer.colors.YELLOW)


def jsonable(out: dict[str, Any]) -> dict[str, Any]:
    """Make an output state printable as JSON (messages as role and text)."""
    messages = [{"role": m.type, "content": m.content} for m in out.get("messages") or []]
    return {**out, "messages": messages}


def show_step(node: str, update: dict[str, Any]) -> None:
    """Print one finished step, with its verdict where it has one."""
    detail = ""
    if node == "classify" and update.get("route"):
        detail = f" -> {update['route']['category']} ({update['route']['reason']})"
    elif node == "grade_documents" and update.get("relevance"):
        detail = f" -> {update['relevance']}"
    elif node == "self_check" and update.get("check"):
        check = update["check"]
        detail = f" -> grounded={check['grounded']} answers={check['answers_question']}"
    elif node == "rewrite_with_history" and update.get("standalone"):
        detail = f" -> {update['standalone']}"
    if node != "finalize":
        typer.secho(f"  · {node}{detail}", fg=typer.colors.BRIGHT_BLACK)
