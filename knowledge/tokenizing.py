"""Words as keyword search counts them: lower-cased, stop words dropped, Chinese cut with jieba.

Both stores' BM25 read text through `tokenize`, so a question scores the same in either.
"""

from __future__ import annotations

import re

from adaptive_rag.core.text import quiet_jieba

_CJK = re.compile(r"[\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff]")
_WORD = re.compile(r"[^\W_]+", re.UNICODE)
_STOP = frozenset(
    "a an and are as at be by for from has have how in is it its of on or that the this to was"
    " what when where which who why will with does did do".split()
    + "的 了 是 在 和 与 及 有 吗 呢 吧 啊 么 什么 怎么 怎样 多少".split()
    + "哪 哪些 哪个 谁 请问 一个 这 那".split()
)


def tokenize(text: str) -> list[str]:
    """Lower-case words; Chinese runs are cut with jieba (search mode)."""
    tokens: list[str] = []
    for word in _WORD.findall(text.lower()):
        if _CJK.search(word):
            cut = quiet_jieba().cut_for_search(word)
            tokens.extend(t for t in cut if t.strip() and t not in _STOP)
        elif word not in _STOP:
            tokens.append(word)
    return tokens
