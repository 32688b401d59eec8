"""Generate: write the answer in the asker's language, citing sources, or decline honestly."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Literal

from adaptive_rag.core.grounding import (
    consistent_yes_no,
    says_sources_lack,
    without_feedback,
    without_stray_yes_no,
)
from adaptive_rag.core.question import asks_yes_no
from adaptive_rag.core.text import (
    Language,
    answers_in,
    doc_key,
    language_name,
    language_of,
    says_nothing,
    tidy,
)
from adaptive_rag.knowledge.fusion import fuse_documents
from adaptive_rag.knowledge.sources import merge_by_document
from adaptive_rag.nodekit.calling import ask_streamed, note
from adaptive_rag.nodekit.citing import sources_for
from adaptive_rag.prompts import generate as prompts
from adaptive_rag.schema.context import Context
from adaptive_rag.schema.reading import budget
from adaptive_rag.schema.state import RESET, State
from adaptive_rag.schema.updates import Update
from adaptive_rag.schema.values import Decline, GenerationMode, Hop, SubSearch
from adaptive_rag.services import Services
from langchain_core.documents import Document
from langchain_core.messages import AIMessage, BaseMessage


def fuse_branches(
    branches: Sequence[SubSearch | Hop], docs: list[Document], limit: int, whole: str = ""
) -> list[Document]:
    """Keep the whole question's search, then add the other searches' best documents.

    The search for the whole question (the branch whose question or query is `whole`) keeps its
    `limit` documents, as a single search would read them; the other branches' documents it did
    not find follow, ordered by reciprocal rank fusion, at most `limit` more. Without a
    whole-question branch every branch is fused alike and the best `limit` are kept.
    """
    by_key = {doc_key(doc): doc for doc in docs}
    target = whole.strip().casefold()
    first = [b for b in branches if target and _asked(b).strip().casefold() == target][:1]
    rest = [b for b in branches if b not in first]
    kept = [by_key[key] for b in first for key in b["source_keys"] if key in by_key][:limit]
    seen = {doc_key(doc) for doc in kept}
    rankings = [
        [by_key[key] for key in b["source_keys"] if key in by_key and key not in seen] for b in rest
    ]
    added = fuse_documents([r for r in rankings if r], len(docs))
    ranked = seen | {doc_key(doc) for doc in added}
    unranked = [doc for doc in docs if doc_key(doc) not in ranked]
    cap = 2 * limit if kept else limit
    return merge_by_document([*kept, *[*added, *unranked][: cap - len(kept)]])


def _asked(branch: SubSearch | Hop) -> str:
    """Return what a branch searched for: a part's question or a hop's query."""
    return str(branch.get("question") or branch.get("query") or "")


def choose_mode(state: State) -> GenerationMode:
    """Pick how to answer from what this turn has gathered."""
    route = state.get("route")
    check = state.get("check")
    found = bool(state.get("documents"))
    if found and state.get("hops"):
        return "synthesis"
    if found and state.get("sub_searches") and route and route["category"] == "complex":
        return "synthesis"
    if found and check is not None and not check["grounded"]:
        return "regenerate"
    if found:
        return "rag"
    if route and route["category"] == "general":
        return "direct"
    return "fallback"


def generate(state: State, ctx: Context, services: Services) -> Update:
    """Answer; a model failure yields an honest 'could not answer', never an exception."""
    question = state.get("standalone") or ""
    language = state.get("language") or language_of(question)
    mode = choose_mode(state)
    update: Update = {"mode": mode, "decline": None}
    if mode == "direct" and state.get("talk") == "about":  # what the assistant does, no model
        update.update({"answer": prompts.ABOUT[language], "sources": [], "notices": []})
        return update
    if mode == "fallback":  # nothing to write from: answer_general may answer it, or it declines
        update.update({"decline": _why_nothing(state), "answer": "", "sources": [], "notices": []})
        return update
    update["generations"] = 1
    check = state.get("check")
    if check is not None and not check["grounded"]:  # any mode: a synthesis is rewritten too
        update["regenerations"] = 1
    docs, messages = _prompt(state, ctx, mode, language, update)
    written = _write(state, ctx, services, messages, bool(docs), update)
    if written is not None and _read_again(state, mode, written[0], update):
        note(update, "generate: an open question's answer said the sources do not say; read again")
        task = prompts.answer_task(question, check, "open")  # the same sources, the open form
        messages = prompts.source_messages(docs, task, question, language)[0]
        _spend_rewrite(update)
        again = _write(state, ctx, services, messages, bool(docs), update)
        if again is not None and again[1] is None:  # an unusable reread keeps the admission
            written = again
    if written is None:
        failures = [f for f in update.get("failures") or [] if not isinstance(f, str)]
        reason = f"the model failed ({failures[-1]['message'] if failures else 'no reply'})"
        update.update(
            {
                "answer": prompts.FAILED_ANSWER.format(reason=reason),
                "mode": "none",
                "sources": [],
                "notices": [],
            }
        )
        return update
    answer, problem = written
    if problem == "empty" or not answer:
        update["decline"] = Decline(
            reason="empty_answer", detail="the answer gave no facts, only citation numbers"
        )
        answer = ""
    elif problem == "language":
        note(update, f"generate: the answer is not in {language_name(language)}")
    before, after = _notices(mode, state, language) if answer else ([], [])
    update["answer"] = "\n\n".join([*before, answer, *after]) if answer else ""
    update["notices"] = [*before, *after]
    update["sources"] = sources_for(answer, docs) if docs else []
    return update


def _why_nothing(state: State) -> Decline:
    """Say why no document is left: none relevant, no knowledge base to search, or none found."""
    if state.get("rejected"):
        return Decline(reason="no_relevant_documents", detail="every document found was irrelevant")
    unavailable = [
        f["message"]
        for f in state.get("failures") or []
        if f["kind"] in ("knowledge_base_unavailable", "search_failed")
    ]
    if unavailable:  # missing, empty, or down: the answer says so, with what to do
        return Decline(reason="no_knowledge_base", detail=unavailable[-1].split(": ", 1)[-1])
    return Decline(reason="no_documents", detail="the knowledge base returned no documents")


def _write(
    state: State,
    ctx: Context,
    services: Services,
    messages: list[BaseMessage],
    from_sources: bool,
    update: Update,
) -> tuple[str, str | None] | None:
    """Write the answer, and once more if it is empty or in another language (within budget).

    Returns the answer and what is still wrong with it, or None when the model failed. The
    answer's tokens stream to chat clients; its message id is kept in `answer_id`.
    """
    language = state.get("language") or "en"
    reply = ask_streamed(update, "generate", services.chat, ctx, messages, "no answer")
    if reply is None:
        return None
    text, update["answer_id"] = reply.text, reply.message_id or ""
    update["answer_logprob"] = reply.logprob
    answer = _clean(text, state)
    problem = _problem(answer, language, from_sources)
    if problem and _rewrites_left(state, update):
        again = [*messages, AIMessage(text), prompts.retry(problem, language)]
        retry = ask_streamed(update, "generate", services.chat, ctx, again, "no answer")
        if retry is None:
            return None
        _spend_rewrite(update)
        update["answer_id"] = retry.message_id or ""
        update["answer_logprob"] = retry.logprob
        answer = _clean(retry.text, state)
        problem = _problem(answer, language, from_sources)
    return answer, problem


def _read_again(state: State, mode: GenerationMode, answer: str, update: Update) -> bool:
    """Whether an answer that says its sources lack the answer is written once more, "open".

    The answer prompt asks a yes/no question to open with yes or no; a small model then opens
    an answer to "What is the fee?" with "No," and goes on to "the sources do not say", though
    a source it was shown states the fee. An open question (core.question.asks_yes_no reads no
    yes or no) answered so is asked again without that line, within the regeneration budget.
    """
    question = state.get("standalone") or ""
    if mode not in ("rag", "regenerate") or asks_yes_no(question):
        return False
    return _rewrites_left(state, update) and says_sources_lack(answer)


def _rewrites_left(state: State, update: Update) -> bool:
    """Whether the regeneration budget allows the answer to be written once more this turn."""
    spent = state.get("regenerations", 0) + int(update.get("regenerations") or 0)
    return spent < budget(state, "regeneration_budget")


def _spend_rewrite(update: Update) -> None:
    """Count one more writing of the answer against the regeneration budget."""
    update["regenerations"] = int(update.get("regenerations") or 0) + 1


def _clean(text: str, state: State) -> str:
    """Echoed source markup as [n]; no stray 'Yes,', and no 'Yes,' before a clause that says no.

    A rewrite after a failed check also loses any line that repeats the check's feedback.
    """
    question = state.get("standalone") or ""
    check = state.get("check")
    if check is not None and not check["grounded"]:
        text = without_feedback(text)
    return consistent_yes_no(without_stray_yes_no(tidy(text), question), question)


def _prompt(
    state: State,
    ctx: Context,
    mode: GenerationMode,
    language: Language,
    update: Update,
) -> tuple[list[Document], list[BaseMessage]]:
    """Return the documents shown and the messages for this mode (sources first)."""
    question = state.get("standalone") or ""
    docs = list(state.get("documents") or [])
    if mode == "direct" and state.get("talk") == "greeting":
        return [], prompts.talk_messages(question, language)
    if mode in ("direct", "fallback"):
        return [], prompts.direct_messages(question, language)
    if mode == "synthesis" and state.get("hops"):
        hops = state.get("hops") or []
        docs = fuse_branches(hops, docs, ctx.k, question)
        update["documents"] = [RESET, *docs]
        task = prompts.hops_task(hops, question)
    elif mode == "synthesis":  # the parts steered the searches; answered as from one search
        docs = fuse_branches(state.get("sub_searches") or [], docs, ctx.k, question)
        update["documents"] = [RESET, *docs]
        task = prompts.answer_task(question, state.get("check"))
    else:
        task = prompts.answer_task(question, state.get("check"))
    messages, worked = prompts.source_messages(docs, task, question, language)
    if worked:  # the user sees what the answer was told, not only the model
        note(update, f"generate: {worked.strip()}")
    return docs, messages


def _problem(
    answer: str, language: Language, from_sources: bool
) -> Literal["empty", "language"] | None:
    """Name what makes an answer unusable: it says nothing, or is in the wrong language."""
    if from_sources and says_nothing(answer):
        return "empty"
    if not answers_in(answer, language):
        return "language"
    return None


def _notices(mode: GenerationMode, state: State, language: Language) -> tuple[list[str], list[str]]:
    """Say plainly (before and after the answer) when it is not from the knowledge base or web."""
    route = state.get("route")
    before = []
    if route and route["category"] == "realtime" and state.get("web_status") != "ok":
        reason = state.get("web_status") or "web search unavailable"
        before.append(prompts.WEB_UNAVAILABLE_NOTE[language].format(reason=reason))
    if mode == "direct" and state.get("talk") not in ("greeting", "about"):  # no fact stated
        return [], [prompts.DIRECT_NOTE[language]]
    return before, []
