"""The knowledge base's main language, which a question asked in another is translated into."""

from __future__ import annotations

from typing import Any

from adaptive_rag import Context, Services
from adaptive_rag.services import main_language


class _Listed:
    def __init__(self, sources: list[dict[str, Any]], fail: bool = False) -> None:
        self.listed, self.fail, self.calls, self.at = sources, fail, 0, 1

    def sources(self) -> list[dict[str, Any]]:
        self.calls += 1
        if self.fail:
            raise ConnectionError("store down")
        return self.listed

    def revision(self) -> int:
        return self.at

    def answer_cache(self) -> Any:
        raise AssertionError("not read")


def test_the_main_language_is_the_one_most_chunks_are_titled_in() -> None:
    handbook = [
        {"title": "Working Hours", "chunks": 9},
        {"title": "苏州配送中心员工规定", "chunks": 4},
    ]
    assert main_language(handbook) == "en"
    assert (
        main_language([{"title": "中国区售后服务", "chunks": 5}, {"title": "K2", "chunks": 1}])
        == "zh"
    )
    assert main_language([]) == ""


def test_services_read_it_once_per_revision_and_a_failing_store_is_unknown() -> None:
    kb = _Listed([{"title": "Returns", "chunks": 3}])
    services = Services(knowledge=kb)
    assert services.main_language(Context()) == "en" and services.main_language(Context()) == "en"
    assert kb.calls == 1
    kb.at, kb.listed = 2, [{"title": "退货", "chunks": 3}]
    assert services.main_language(Context()) == "zh" and kb.calls == 2
    assert Services(knowledge=_Listed([], fail=True)).main_language(Context()) == ""


def test_untitled_sources_say_nothing_of_the_language() -> None:
    assert main_language([{"title": "", "chunks": 9}, {"title": "退货", "chunks": 1}]) == "zh"
    assert main_language([{"title": None, "chunks": 9}]) == ""
