"""Prompts for turning a follow-up into a standalone question, in the follow-up's language.

Each language has its own instruction and a few worked examples (chat turns before the real one):
told in English only, the 1.5B model returned most Chinese follow-ups unchanged, pronoun and all.
"""

from __future__ import annotations

from adaptive_rag.core.text import language_of, message_text
from adaptive_rag.schema.reading import conversation
from langchain_core.messages import AIMessage, BaseMessage, HumanMessage, SystemMessage

SYSTEM = """Rewrite the user's latest question so it can be understood without the conversation.
Replace pronouns and references ("it", "that one", "they", "he", "she") with what they refer to, and fill in what the question leaves out.
Keep the question's language and meaning. Do not answer it.
Reply with the rewritten question only, on one line."""

SYSTEM_ZH = """把用户最新的问题改写成不看对话也能看懂的完整问题。
把"他""她""它""这个""那个""那里"等指代词换成对话里它们指的具体名称；问题省略了主语或对象时，把对话里说到的对象补上。
保持中文和原意，不要回答问题。只输出改写后的问题，一行。"""

USER = "Conversation:\n{history}\n\nLatest question: {question}\nStandalone question:"
USER_ZH = "对话：\n{history}\n\n最新问题：{question}\n改写后的问题："

EXAMPLES = [
    (
        "User: Who wrote the novel Dune?\nAssistant: Frank Herbert wrote Dune, published in 1965.",
        "What else did he write?",
        "What else did Frank Herbert write?",
    ),
    (
        "User: How much does the Nimbus 3 router cost?\nAssistant: It costs 89 dollars.",
        "Does it support Wi-Fi 6?",
        "Does the Nimbus 3 router support Wi-Fi 6?",
    ),
    (
        "User: How do I update the router's firmware?\nAssistant: Open the app and tap Update.",
        "Does that delete my settings?",
        "Does updating the router's firmware delete my settings?",
    ),
    (
        "User: Which planets are gas giants?\nAssistant: Jupiter and Saturn are gas giants.",
        "Which of them has more moons?",
        "Which of Jupiter and Saturn has more moons?",
    ),
]

EXAMPLES_ZH = [
    (
        "用户：杜甫是哪个朝代的诗人？\n助手：杜甫是唐代诗人。",
        "他写过哪些有名的诗？",
        "杜甫写过哪些有名的诗？",
    ),
    (
        "用户：小米 SU7 的续航是多少？\n助手：标准版的续航是 700 公里。",
        "多少钱？",
        "小米 SU7 多少钱？",
    ),
    (
        "用户：六必居是卖什么的？\n助手：六必居是北京的老字号，卖黄酱和酱菜。",
        "那给我来两袋吧。",
        "给我来两袋六必居的黄酱。",
    ),
]


def recent_history(messages: list[BaseMessage], turns: int, max_chars: int = 600) -> str:
    """Format the last `turns` question/answer pairs before the latest question."""
    earlier = [m for m in conversation(messages)[:-1] if isinstance(m, HumanMessage | AIMessage)]
    window = earlier[-2 * turns :] if turns > 0 else []
    lines = []
    for message in window:
        who = "User" if isinstance(message, HumanMessage) else "Assistant"
        text = message_text(message).strip().replace("\n", " ")
        lines.append(f"{who}: {text[:max_chars]}")
    return "\n".join(lines)


def messages(history: str, question: str) -> list[BaseMessage]:
    """Return the instruction and worked examples in the follow-up's language, then the task."""
    chinese = language_of(question) == "zh"
    system, user = (SYSTEM_ZH, USER_ZH) if chinese else (SYSTEM, USER)
    shown: list[BaseMessage] = [SystemMessage(system)]
    for past, follow_up, standalone in EXAMPLES_ZH if chinese else EXAMPLES:
        shown += [HumanMessage(user.format(history=past, question=follow_up))]
        shown += [AIMessage(standalone)]
    return [*shown, HumanMessage(user.format(history=history, question=question))]
