"""Which names lead a multi-step search on from its sources (core.bridges), no model."""

from __future__ import annotations

from adaptive_rag.core.bridges import candidates, named, written

QUESTION = "Where was the inventor of the Halden valve born?"
SOURCES = [
    "Marta Solheim, the inventor of the Solheim float gauge, was born in Vessmark in 1862.",
    "The Halden valve was patented in 1887 by Oskar Brevik, then a foreman at the Tofte foundry.",
    "The Tofte foundry museum keeps forty Halden valves and the original patent drawings.",
]


def test_names_of_the_sources_about_the_question_come_first_in_full() -> None:
    found = candidates(SOURCES, QUESTION)
    assert found[:2] == ["oskar brevik", "tofte"]  # the valve's source; full name, no surname
    assert "brevik" not in found and "halden" not in found  # a surname alone; the question's
    assert found.index("marta solheim") > found.index("tofte")  # not about the valve
    assert "oskar brevik" not in candidates(SOURCES, QUESTION, used={"oskar brevik"})


def test_a_name_within_the_question_is_not_a_bridge() -> None:
    sources = ["青石堰由乡绅卢仲和主持修建。", "卢仲和晚年担任本县商会会长。"]
    found = candidates(sources, "主持修建青石堰的乡绅晚年担任了什么职务？")
    assert found and "石堰" not in found and found[0].startswith("卢仲")


def test_the_models_words_pick_among_the_candidates() -> None:
    found = candidates(SOURCES, QUESTION)
    assert named(found, "Brevik patented it", "") == ["oskar brevik"]  # by surname, as linked
    assert named(found, "Oskar Brevik patented it") == ["oskar brevik"]
    assert named(found, "", "Where was Oskar Brevik born?") == ["oskar brevik"]
    assert named(found, "The Tofte foundry made it") == ["tofte"]
    assert named(found, "Tofteby") == []  # whole words only
    assert named(candidates(["The Felling Canal opened."], "Who dug it?"), "a canal") == []


def test_a_name_is_written_as_its_source_writes_it() -> None:
    assert written("oskar brevik", "\n".join(SOURCES)) == "Oskar Brevik"
    assert written("卢仲", "卢仲和晚年") == "卢仲"
    assert written("nobody", "no such name") == "nobody"
