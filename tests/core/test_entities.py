"""The entities a chunk is linked by: names in both languages, normalised, a surname as alias."""

from __future__ import annotations

import pytest
from adaptive_rag.core.text import entities_of, key
from adaptive_rag.core.text.entities import MOST


def test_english_names_with_their_surnames_and_nothing_else() -> None:
    found = entities_of(
        "The Halden valve was patented in 1887 by Oskar Brevik, then a foreman at the Tofte foundry."
    )
    assert found == ["brevik", "halden", "oskar brevik", "tofte"]  # no year, no common word
    assert "brevik" in entities_of("In 1890 Brevik moved to Korrvik.")  # the surname alone


@pytest.mark.parametrize(
    ("written", "normal"),
    [
        ("The Ögedei’s", "ogedei"),
        ("  Oskar \n Brevik ", "oskar brevik"),
        ("《潮汐手记》", "潮汐手记"),
    ],
)
def test_keys_ignore_case_accents_articles_and_spacing(written: str, normal: str) -> None:
    assert key(written) == normal


@pytest.mark.parametrize(
    ("text", "name"),
    [
        ("现任船长是钟海生，他已经在这艘船上干了十二年。", "钟海生"),  # jieba cuts 钟 / 海生
        ("澜川科技有限公司由林远舟于2009年4月在北塘市创立。", "林远舟"),  # and 由林 / 远舟
        ("白鹭河在渡口村附近汇入栖霞河。", "渡口村"),  # and 渡口 / 村
        ("《潮汐手记》是温若兰的散文集。", "潮汐手记"),
        ("《潮汐手记》是温若兰的散文集。", "温若兰"),  # a name jieba's dictionary lacks
        (
            "“远航三号”是一艘拖网渔船。",
            "远航三号",
        ),  # quoted, as a ship is named; jieba: 远航 / 三号
    ],
)
def test_chinese_names_jieba_cuts_apart_are_whole(text: str, name: str) -> None:
    assert name in entities_of(text)


def test_function_words_glued_to_a_name_are_not_entities() -> None:
    found = entities_of("他当选为岚州工商联副主席，业余时间喜欢在河边钓鱼。")
    assert "岚州" in found and not [e for e in found if e.startswith(("为", "在"))]


def test_words_that_ask_point_or_compare_are_not_entities() -> None:
    found = entities_of(
        "陈雁主持设计的那座大桥在哪座城市？画家林远洲和企业家林远舟，谁的年纪更大？"
    )
    assert {"陈雁", "林远洲", "林远舟"} <= set(found)
    assert not {"那座", "哪座", "更大"} & set(found)


def test_quoted_speech_is_not_a_name() -> None:
    found = entities_of("他说：“我们明天一早就出海，天黑之前回来。”")
    assert not [e for e in found if "出海" in e]


def test_a_chunk_keeps_at_most_MOST_entities() -> None:
    text = " ".join(f"Zorb{chr(65 + i % 26)}{chr(65 + i // 26)}x met Quill{i}." for i in range(80))
    assert len(entities_of(text)) == MOST
