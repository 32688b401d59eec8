"""A yes to an owned question stands only when one sentence of its cited sources states it.

The focus rule passes a yes whose sources hold the question's focus anywhere; a page that names
unused days, payment and leaving in three sentences on other things does not say that unused
days are paid out when one leaves (core.grounding.stated_yes).
"""

from __future__ import annotations

from typing import Any

from adaptive_rag import Context, Services, build_graph
from fake_sources import KeywordRetriever
from fakes import ScriptedChatModel, ScriptedJudge
from langchain_core.documents import Document

QUESTION = "Are unused vacation days paid out when I leave the company?"
ANSWER = "Yes, unused vacation days are paid out when you leave the company [1]."
SPREAD = (
    "Full-time employees get 26 vacation days per year. You can carry over up to 5 unused days"
    " into the next year. If you leave during the year, your days are calculated from your end"
    " date. Salaries are paid on the 25th of each month."
)


def ask(page: str, answer: str = ANSWER, **context: Any) -> dict[str, Any]:
    doc = Document(page_content=page, metadata={"source": "hr/leave.md", "title": "Leave"})
    graph = build_graph(
        services=Services(
            chat_model=ScriptedChatModel.with_script(rag=answer),
            retriever=KeywordRetriever(docs=[doc]),
            no_web=True,
            relevance=ScriptedJudge([0.95]),
        )
    )
    return graph.invoke({"question": QUESTION}, context=Context(max_rewrites=0, **context))


def test_a_yes_its_sources_hold_only_spread_over_sentences_is_declined() -> None:
    out = ask(SPREAD)
    assert out["answerable"] is False and out["decline"]["reason"] == "not_in_sources"
    assert "no one sentence" in out["decline"]["detail"] and "paid out" not in out["answer"]


def test_a_yes_one_sentence_states_stands() -> None:
    page = SPREAD + " Unused vacation days are paid out with your last salary when you leave."
    out = ask(page)
    assert out["answerable"] is True and out["answer"].startswith("Yes, unused vacation days")


def test_a_no_or_the_check_off_is_not_read_so() -> None:
    no = ask(SPREAD, "No, unused vacation days are not paid out when you leave [1].")
    assert "no one sentence" not in str(no["diagnostics"]["judgments"])
    off = ask(SPREAD, answer_check="off")
    assert "no one sentence" not in str(off["diagnostics"]["judgments"])
