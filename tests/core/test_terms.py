"""Names, numbers and content words of English and Chinese text, and finding them elsewhere."""

from __future__ import annotations

import subprocess
import sys

import pytest
from adaptive_rag.core.text import Terms, found_in, stem, terms_of
from fake_sources import SAMPLE


def test_english_names_are_capitalised_spans_not_sentence_starts() -> None:
    terms = terms_of(
        "What is the population of New York City? However, the iPhone 15 and the Kestrel S2 "
        "were tested by NASA. The Bank of America said so."
    )
    assert terms.names == {"New York City", "iPhone 15", "Kestrel S2", "NASA", "Bank of America"}
    assert {"what", "however", "the"}.isdisjoint(terms.words)


def test_a_sentence_start_is_a_name_when_a_name_follows_or_it_recurs() -> None:
    assert "Quillon Labs" in terms_of("Quillon Labs makes sensors.").names
    assert terms_of("Refunds are paid within a week.").names == frozenset()
    recurring = terms_of("Tromsø is in Norway. The office in Tromsø opened first.")
    assert {"Tromsø", "Norway"} <= recurring.names


def test_english_numbers_and_content_words() -> None:
    terms = terms_of("Products returned between 31 and 45 days after delivery carry a fee of 10 %.")
    assert terms.numbers == {"31", "45 day", "10 %"}
    assert terms.words == {"product", "returned", "delivery", "carry", "fee"}  # no "days"


def test_quoted_spans_are_kept_verbatim_and_titles_are_names() -> None:
    terms = terms_of('Press "Add sensor" in the dashboard, or see “the pairing guide”.')
    assert terms.quotes == {"Add sensor", "the pairing guide"}
    assert "Add sensor" in terms.names and "the pairing guide" not in terms.names


def test_chinese_names_numbers_and_words() -> None:
    terms = terms_of(
        "Quillon Labs 于2019年3月在挪威成立，苏州办公室负责《中国区售后服务》，收取百分之十的手续费。"
    )
    assert {"Quillon Labs", "挪威", "苏州", "中国区售后服务"} <= terms.names
    assert terms.numbers == {"2019 year", "3 mon", "10 %"}
    assert {"办公室", "手续费", "成立"} <= terms.words
    assert {"的", "于", "在"}.isdisjoint(terms.words)  # function characters are not content


def test_latin_names_inside_chinese_text_at_any_position() -> None:
    terms = terms_of("Heron hub 的保修期是两年，Kestrel K2 使用两节 AA 锂电池。")
    assert {"Heron", "Kestrel K2", "AA"} <= terms.names
    assert {"2 year", "2"} == terms.numbers
    assert "保修期" in terms.words and "hub" in terms.words


def test_english_text_with_a_chinese_name() -> None:
    assert "李白" in terms_of("Who is 李白?").names


def test_stems_fold_plurals_and_endings() -> None:
    assert stem("warranties") == stem("warranty")
    assert stem("returns") == stem("returned") == stem("returning") == stem("return")
    assert stem("charges") == stem("charged") == stem("charge")
    assert stem("business") == "business"


def test_found_in_is_fair_across_wordings() -> None:
    source = (SAMPLE / "policies" / "returns.md").read_text()
    asked = terms_of("Can I return products after 40 days? Is the 10% restocking fee refunded?")
    found = found_in(asked, source)
    assert found.numbers == {"10 %"}  # "10%" finds "10 %"; 40 days is not there
    assert {"product", "restocking", "fee"} <= found.words
    warranty = found_in(
        terms_of("All Kestrel warranties last three years"), "Kestrel has a three-year warranty."
    )
    assert warranty.names == {"Kestrel"} and warranty.numbers == {"3 year"}
    assert "warranty" in warranty.words


def test_found_in_chinese_by_characters_and_across_languages() -> None:
    source = (SAMPLE / "zh" / "售后服务.md").read_text()
    found = found_in(terms_of("Heron 网关的保修期是两年"), source)
    assert found.names == {"Heron"} and found.numbers == {"2 year"}
    assert found.words == {"网关", "保修期"}  # 保修期 is found by its pair 保修
    english = (SAMPLE / "policies" / "warranty.md").read_text()
    assert found_in(terms_of("Heron 网关享有两年保修"), english).numbers == {"2 year"}


@pytest.mark.parametrize(
    ("word", "source", "found"),
    [
        ("上班", "员工上下班须刷工卡考勤。", True),  # 上下班: 上班 and 下班
        ("进口", "公司从事进出口贸易。", True),
        ("早班", "早晚班各八小时。", True),
        ("上班", "上午班从七点开始。", False),  # 午班 is no word: 上午 and 班
        ("产假", "产后假期另行规定。", False),  # 后假 joins nothing
    ],
)
def test_a_chinese_word_inside_two_words_joined_on_their_last_character(
    word: str, source: str, found: bool
) -> None:
    assert (word in found_in(Terms(words=frozenset({word})), source).words) is found


def test_a_multiword_name_needs_each_distinctive_token() -> None:
    source = "The standard Heron costs 189 EUR and the Heron Pro costs 329 EUR."
    assert found_in(
        Terms(names=frozenset({"Heron Pro", "Heron Max", "Kestrel K1"})), source
    ).names == {"Heron Pro"}


@pytest.mark.parametrize("text", ["", "   ", "[1][2]", "。"])
def test_texts_without_terms(text: str) -> None:
    assert len(terms_of(text)) == 0


def test_jieba_prints_nothing() -> None:
    code = "from adaptive_rag.core.text import terms_of; terms_of('Heron 网关享有两年保修。')"
    run = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert run.stdout == "" and run.stderr == ""
