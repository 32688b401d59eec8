from decimal import Decimal

from adaptive_rag.prompts import ranges
from adaptive_rag.prompts.ranges import Within, within


def ranges_in(text: str) -> list[tuple[Decimal, Decimal, str]]:
    """The two-ended ranges a text states, as (low, high, unit), in order."""
    return [(low, high, unit) for low, high, unit, _ in ranges._ranges(text)]


RETURNS = (
    "Unused products can be returned within 45 days of delivery for a full refund. Products "
    "returned between 31 and 45 days after delivery carry a restocking fee of 10 %."
)


def test_a_range_stated_between_two_numbers_is_read_with_its_unit() -> None:
    assert ranges_in(RETURNS) == [(Decimal(31), Decimal(45), "day")]


def test_ranges_by_dash_to_and_chinese_joins() -> None:
    text = (
        "Delivery takes 3–5 days; support replies in 2 to 4 hours, refunds in 31 through 45 days."
        " 保修期为2至3年，价格100-200元。"
    )
    assert ranges_in(text) == [
        (Decimal(3), Decimal(5), "day"),
        (Decimal(2), Decimal(4), "hour"),
        (Decimal(31), Decimal(45), "day"),
        (Decimal(2), Decimal(3), "year"),
        (Decimal(100), Decimal(200), "cny"),
    ]


def test_a_chinese_numeral_before_the_join_is_the_low_end() -> None:
    text = "退货在三十一至四十五天内收取10%的费用；客服会在三到五个工作日内回复，运费2～5元。"
    assert ranges_in(text) == [
        (Decimal(31), Decimal(45), "day"),
        (Decimal(3), Decimal(5), "day"),
        (Decimal(2), Decimal(5), "cny"),
    ]
    found = within("四十天后退货要收多少费用？", [text])
    assert [(w.quantity, w.low, w.high) for w in found] == [("40", "31", "45")]


def test_chinese_numerals_that_are_no_range_low_end() -> None:
    assert ranges_in("价格在三至五千元之间，运费一到两百元。") == []  # 3 or 3,000?
    assert ranges_in("数据统一到三天后发布，初一到十五天。") == []
    assert ranges_in("乾隆三十至四十年间，民国三十至三十八年。") == []
    assert ranges_in("气温零下五至十摄氏度，负五至十米。") == []
    assert ranges_in("气温零下5至10摄氏度，负5至10米。") == []  # digits as well
    assert ranges_in("第三至五天休息。") == []
    assert ranges_in("合约通常为期五到八年，在三十和四十五天之间。") == [
        (Decimal(5), Decimal(8), "year"),
        (Decimal(30), Decimal(45), "day"),
    ]


def test_and_without_between_is_not_a_range() -> None:
    assert ranges_in("It costs 10 euros and 20 euros for the case.") == []


def test_no_range_without_a_unit_or_with_its_ends_reversed() -> None:
    assert ranges_in("In 2019-2021 the team grew.") == []
    assert ranges_in("between 45 and 31 days") == []
    assert ranges_in("between 3 years and 5 days") == []


def test_a_question_quantity_inside_a_source_range_becomes_a_line() -> None:
    found = within(
        "What is the restocking fee for a return 40 days after delivery?", ["x", RETURNS]
    )
    rule = "Products returned between 31 and 45 days after delivery carry a restocking fee of 10 %."
    assert found == [Within("40", "31", "45", "day", 2, rule)]
    assert (
        found[0].line("en") == f'40 days is between 31 and 45 days, so this applies: "{rule}" [2]'
    )
    assert found[0].line("zh") == f"40天在31至45天之间，因此适用：“{rule}”[2]"


def test_quantities_outside_or_in_another_unit_give_no_line() -> None:
    assert within("What is the fee 50 days after delivery?", [RETURNS]) == []
    assert within("What is the fee after 40 weeks?", [RETURNS]) == []
    assert within("What is the fee after 40?", [RETURNS]) == []
    assert within("What is the restocking fee?", [RETURNS]) == []


def test_chinese_question_against_a_chinese_source() -> None:
    found = within("交付后第40天退货要付多少费用？", ["交付后31至45天内退货收取10%的重新上架费。"])
    assert [w.line("zh") for w in found] == [
        "40天在31至45天之间，因此适用：“交付后31至45天内退货收取10%的重新上架费。”[1]"
    ]


def test_an_english_quantity_matches_a_chinese_range_by_its_canonical_unit() -> None:
    assert within("fee after 40 days?", ["31至45天内退货收取10%的费用"]) != []


def test_calendar_years_and_months_are_dates_not_quantities() -> None:
    assert within("1953年，他获得了什么奖？", ["他在1944至1980年间获得多个奖项。"]) == []
    assert ranges_in("from 1990 to 2000 years") == []
    assert within("What happened in March?", ["between February and April"]) == []
    assert within("2012年10月18日发生了什么？", ["会议持续16至19日。"]) == []


def test_negative_numbers_are_not_read_as_positive() -> None:
    source = "Store the device at -5 to 10 °C."
    assert within("Can the device be stored at -7 °C?", [source]) == []
    assert ranges_in("between -10 and -5 °C") == []


def test_an_end_with_a_scale_word_the_other_lacks_is_no_range() -> None:
    assert (
        within(
            "Is there a grant for a project costing 2 million euros?",
            ["Projects of 5 to 10 million euros receive a grant of 20 %."],
        )
        == []
    )
    assert within("项目投资2万元有补贴吗？", ["投资3-5万元的项目补贴10%。"]) == []


def test_dates_grades_decades_and_yen_are_not_durations() -> None:
    assert within("会议持续18天吗？", ["会议于10月16至19日举行。"]) == []
    assert within("这个课程保修5年吗？", ["本课程适合3-6年级学生。"]) == []
    assert within("运费要15天吗？", ["运费为10-20日元每克。"]) == []


def test_a_list_item_or_table_row_is_its_own_sentence() -> None:
    source = "Returns\n- 0-30 days: no fee\n- 31-45 days: a fee of 10 %\n| 46-60 days | 20 % |"
    found = within("What is the fee for a return after 40 days?", [source])
    assert [w.sentence for w in found] == ["- 31-45 days: a fee of 10 %"]


def test_a_wrapped_line_goes_on_with_its_sentence() -> None:
    source = (
        "Full refund within 45 days. Products returned\nbetween 31 and 45 days carry a fee of 10 %."
    )
    found = within("What is the fee for products returned after 40 days?", [source])
    assert [w.sentence for w in found] == [
        "Products returned between 31 and 45 days carry a fee of 10 %."
    ]


def test_abbreviations_do_not_end_a_sentence() -> None:
    source = "Per Art. 5 of the U.S. code, items returned 31-45 days late cost 10 %."
    found = within("What do items returned 40 days late cost?", [source])
    assert [w.sentence for w in found] == [source]


def test_a_long_sentence_is_cut_around_its_range() -> None:
    filler = "words about returns " * 40
    found = within("the fee for a return after 40 days?", [f"{filler}31-45 days: 10 % {filler}."])
    assert len(found[0].sentence) <= 302 and "31-45 days" in found[0].sentence
    assert found[0].sentence.startswith("…") and found[0].sentence.endswith("…")


def test_a_change_a_label_and_another_topic_are_not_ranges_that_apply() -> None:
    assert within("the fee on an order of 8 euros?", ["The fee rose from 5 to 10 euros."]) == []
    assert within("a refund after 40 days?", ["Rule 4 – 60 days: no refund."]) == []
    assert within("Can I return a product after 40 days?", ["Islands: 30–45 days."]) == []


def test_one_range_gives_one_line_however_often_it_is_repeated() -> None:
    assert len(within("a return after 40 days?", [RETURNS, RETURNS + " " + RETURNS])) == 2
