"""A yes/no answer is only as good as its sources' hold on what the question asks (core.grounding.focus)."""

from __future__ import annotations

from adaptive_rag.core.grounding import focus_of
from adaptive_rag.core.grounding.focus import focus_terms

RETURNS_ZH = (
    "未使用的产品在签收后 45 天内可以退货；签收 31 天到 45 天之间退货的，收取 10% 的手续费。"
)
BONUS = "Contractors are not eligible for the annual bonus."
WARRANTY = "The warranty covers manufacturing defects. It does not cover damage caused by water."


def test_the_focus_leaves_out_the_words_that_only_ask() -> None:
    assert focus_terms("退货需要支付运费吗？").words == {"退货", "支付", "运费"}
    assert focus_terms("Can I get a discount on the K2?").names == {"K2"}
    assert "get" not in focus_terms("Can I get a discount on the K2?").words
    assert "公司" not in focus_terms("公司有没有年终奖？").words  # the asker's own organisation


def test_a_source_holding_the_subject_but_not_the_focus_does_not_hold_it() -> None:
    focus = focus_of("退货需要支付运费吗？", [RETURNS_ZH])
    assert focus.known and not focus.held
    assert set(focus.missing) == {"支付", "运费"} and "运费" in focus.why()


def test_a_source_stating_the_no_holds_the_focus() -> None:
    assert focus_of("Are contractors eligible for the annual bonus?", [BONUS]).held
    assert focus_of("Does the warranty cover water damage?", [WARRANTY]).held
    assert not focus_of("Does the warranty cover theft?", [WARRANTY]).held


def test_a_long_focus_may_miss_one_term_in_four() -> None:
    source = "Contractors are not eligible for the bonus."
    assert focus_of("Are contractors eligible for the annual bonus?", [source]).held
    assert not focus_of("Are contractors eligible for the annual bonus?", ["Contractors."]).held


def test_across_scripts_the_focus_is_not_known() -> None:
    focus = focus_of("K2 打印机支持蓝牙吗？", ["The K2 label printer connects over USB."])
    assert not focus.known and set(focus.unchecked) == {"打印机", "支持", "蓝牙"}
    assert focus_of("Does the K2 support USB?", ["K2 标签打印机通过 USB 连接。"]).terms == (
        "K2",
        "USB",
    )


def test_an_english_source_naming_a_chinese_page_is_read_as_english() -> None:
    """A page's language is its words', not any Chinese character it holds (a linked title)."""
    page = (
        "Norhaven Care extends the warranty by 2 years and costs 89 euros per scanner. "
        "Customers in mainland China: see 中国区售后服务 for the local repair service."
    )
    focus = focus_of("Can Norhaven Care be cancelled for a refund?", [page])
    assert focus.known and not focus.held
    assert set(focus.missing) == {"cancelled", "refund"}


def test_a_question_asking_several_things_is_not_judged_whole() -> None:
    question = (
        "Did the Sporting News article on the Jaguars vs. Saints game show the Saints failing"
        " a fourth down conversion attempt?"
    )
    focus = focus_of(question, ["The Saints were stopped on fourth down."])
    assert not focus.known and focus.held and not focus.why()
    assert "article" not in focus_terms("Does the article mention the bonus?").words


DEPOT_ZH = "杭州仓储中心实行两班制，员工须穿安全鞋进入作业区，维修组负责设备维修。"


def test_a_chinese_name_cut_in_pieces_is_one_term_so_the_slack_does_not_excuse_the_asked_word() -> (
    None
):
    # jieba cuts 杭州仓储中心 into three words; as three terms one missing word of four would pass.
    focus = focus_of("杭州仓储中心有员工宿舍吗？", [DEPOT_ZH])
    assert "杭州仓储中心" in focus.terms and not focus.held
    assert focus.missing == ("宿舍",)
    assert not focus_of(
        "杭州仓储中心的维修组提供上门维修吗？", [DEPOT_ZH]
    ).held  # 维修 is in 维修组
    assert focus_of("杭州仓储中心的员工要穿安全鞋吗？", [DEPOT_ZH]).held


def test_offering_or_providing_is_asking_whether_it_exists() -> None:
    assert "provid" not in "".join(focus_terms("Does the depot provide a shuttle bus?").words)
    assert not focus_of(
        "Does the depot provide a shuttle bus?", ["The depot runs two shifts."]
    ).held


def test_an_answer_is_bound_to_the_one_name_asked_about() -> None:
    from adaptive_rag.core.grounding import unnamed_subject

    person = "Onboarding\nNorhaven was founded in 2011 by Marleen Vos, who is still our CEO."
    desk = "IT Help Desk\nEmail: helpdesk@norhaven.example; every email becomes a ticket."
    question = "What is Marleen Vos's email address?"
    assert unnamed_subject(question, [desk], [person, desk]) == "Marleen Vos"
    assert unnamed_subject(question, [person], [person, desk]) == ""  # cites the page naming her
    assert unnamed_subject(question, [desk], [desk]) == ""  # no source shown names her either
    assert unnamed_subject(question, [], [person, desk]) == ""  # nothing cited: read elsewhere
    lock = "The Carrow Lock\nThe Carrow Lock was designed by Piet Ravel."
    ravel = "Piet Ravel\nPiet Ravel began as a surveyor's chainman."
    bridge = "What was the first job of the engineer who designed the Carrow Lock?"
    assert unnamed_subject(bridge, [ravel], [lock, ravel]) == ""  # found through it: a bridge
    role = "What was the Carrow Lock's designer's first job?"
    assert unnamed_subject(role, [ravel], [lock, ravel]) == ""  # a role of it, not its own
    plain = "Who did the lands belong to in China?"  # no possessive: what it asks is not China's
    assert unnamed_subject(plain, [desk], ["China ...", desk]) == ""
    two = "Is Marleen Vos older than Ruud Bakker?"  # several things: one source each may answer
    assert unnamed_subject(two, [desk], [person, desk]) == ""
    assert unnamed_subject("What is the help desk's email address?", [desk], [person, desk]) == ""
    surname = "IT Help Desk\nMs Vos answers at helpdesk@norhaven.example."
    assert unnamed_subject(question, [surname], [person, surname]) == ""  # a word of the name
    company = "Returns\nReturn within 30 days."  # the company's own name, which most pages hold
    others = [f"Norhaven page {n}" for n in range(3)]
    assert unnamed_subject("What is Norhaven's return window?", [company], [company, *others]) == ""
    assert unnamed_subject("What is Norhaven's return window?", [company], [company, others[0]])
