"""Transform query: the new query is in the language of the knowledge base searched next."""

from __future__ import annotations

from typing import Any

from adaptive_rag import Context, Services
from adaptive_rag.nodes.transform_query import transform_query
from fake_sources import KeywordRetriever, Titled, kb_docs
from fakes import ScriptedChatModel

TRANSLATED = "How many vacation days does a full-time employee get?"


def _query(titles: dict[str, int], translate: str = TRANSLATED, **state: Any) -> tuple[str, Any]:
    model = ScriptedChatModel.with_script(translate=translate, transform="年假 天数 全职员工")
    services = Services(
        chat_model=model, retriever=KeywordRetriever(docs=kb_docs()), knowledge=Titled(titles)
    )
    asked = {"standalone": "全职员工一年有多少天年假？", "language": "zh", **state}
    update = transform_query(asked, Context(), services)  # type: ignore[arg-type]
    return update["search_query"], model.roles()


ENGLISH = {"Leave and Public Holidays": 12, "苏州配送中心员工规定": 2}


def test_a_question_in_another_language_than_the_knowledge_base_is_searched_translated() -> None:
    query, roles = _query(ENGLISH)
    assert query == TRANSLATED and roles["translate"] == 1 and "transform" not in roles


def test_a_reply_that_is_no_translation_falls_back_to_the_rewrite() -> None:
    query, roles = _query(ENGLISH, translate="年假是二十六天。")
    assert query == "年假 天数 全职员工" and roles["translate"] == 1 and roles["transform"] == 1


def test_the_question_keeps_its_language_in_a_knowledge_base_of_its_own_or_for_the_web() -> None:
    assert _query({"苏州配送中心员工规定": 12})[0] == "年假 天数 全职员工"
    web = {"web_available": True, "web_searches": 0, "rules": {"web_search_budget": 1}}
    query, roles = _query(ENGLISH, **web)
    assert query == "年假 天数 全职员工" and "translate" not in roles
