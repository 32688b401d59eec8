"""A no its cited source states is answered, though the model's odds that the sources answer are low.

A small model reads a rule that forbids ("Codes sent by SMS are not allowed.") as sources that
do not answer, so the answerability judge declined right answers "No, … [1]". A cited sentence
holding two thirds of the question's focus and negating states the no (core.grounding.stated).
"""

from __future__ import annotations

from typing import Any

import pytest
from adaptive_rag import Context, Services, build_graph, services
from fake_sources import KeywordRetriever
from fakes import OddsModel, ScriptedChatModel, ScriptedJudge
from langchain_core.documents import Document

QUESTION = "Can I use SMS codes for MFA?"
ANSWER = "No, you cannot use SMS codes for MFA [1]."


def ask(page: str, answer: str = ANSWER) -> dict[str, Any]:
    model = OddsModel(script=ScriptedChatModel.with_script(rag=answer).script, p_yes=0.1)
    doc = Document(page_content=page, metadata={"source": "it/security.md", "title": "Security"})
    graph = build_graph(
        services=Services(
            chat_model=model,
            retriever=KeywordRetriever(docs=[doc]),
            no_web=True,
            relevance=ScriptedJudge([0.95]),
        )
    )
    return graph.invoke({"question": QUESTION}, context=Context(max_rewrites=0))


@pytest.fixture(autouse=True)
def no_fitted_judge(monkeypatch: pytest.MonkeyPatch) -> None:
    """As if no answerability judge were shipped: assess's low odds alone would decline."""
    monkeypatch.setattr(services, "answer_judge", lambda _model: (None, "none shipped"))


def test_a_no_its_cited_source_states_is_answered() -> None:
    page = (
        "MFA is required for email and the VPN. Use the authenticator app on your phone.\n"
        "Codes sent\nby SMS are not allowed. Call the help desk if you lose your phone."
    )
    out = ask(page)
    assert out["answerable"] is True and out["answer"].startswith("No, you cannot use SMS codes")
    checked = [j for j in out["diagnostics"]["judgments"] if j["node"] == "self_check"]
    assert "Codes sent by SMS are not allowed." in checked[-1]["detail"]


def test_a_no_whose_source_does_not_negate_is_judged_as_any_answer() -> None:
    page = "MFA is required for email and the VPN. Codes are sent by SMS or by the app."
    out = ask(page)
    assert out["answerable"] is False and out["decline"]["reason"] == "not_in_sources"


def test_a_no_whose_focus_is_spread_over_the_page_is_judged_as_any_answer() -> None:
    page = (
        "MFA is required for email and is not optional.\n\n"
        "The help desk sends codes by SMS to reset a forgotten password."
    )
    out = ask(page)
    assert out["answerable"] is False
