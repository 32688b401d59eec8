"""The Chinese side of core.text.terms: jieba's words and proper nouns, loaded on first use.

Words are cut by jieba (its hidden Markov model finds words its dictionary lacks) and tagged by
the part-of-speech table of `jieba.posseg`: people (nr), places (ns), organisations (nt) and other
proper nouns (nz) are names. posseg's own tagger also guesses tags for words outside its
dictionary, but at many times the cost (docs/benchmarks.md), too slow for every chunk at ingest;
words outside the dictionary are content words here. jieba logs "Building prefix dict..." on
first use: `quiet_jieba` sets its logger to warnings before anything is cut, so nothing prints;
every use of jieba in the package (here and the keyword index's tokenizer) loads it through it.
"""

from __future__ import annotations

import logging
import re
from functools import cache
from typing import Any

CJK = re.compile(r"[\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff]")
TITLE = re.compile(r"《([^》\n]{1,60})》")
"""《书名》: a title, a name whatever the tagger says of its words."""

_NAME_TAGS = ("nr", "ns", "nt", "nz")
_NOT_CONTENT_TAGS = frozenset({"m", "mq", "q", "x", "uj", "ul", "uz", "ug", "uv", "ud", "p", "c"})
STOP = frozenset(
    """的 了 是 在 和 与 及 有 吗 呢 吧 啊 么 也 都 就 而 或 被 把 对 从 为 以 于 中 上 下 这 那 其
    什么 怎么 怎样 怎么样 多少 多久 哪 哪些 哪个 哪里 谁 请问
    一个 一些 这个 那个 这些 那些 这种 那种 这样 那样 可以 能够 需要 没有 不是 就是 还是
    但是 因为 所以 如果 或者 以及 并且 而且 其中
    之间 之后 之前 以上 以下 以内 通过 进行 根据 来源 资料 文档 来源于 提到 提及 显示 表示 说明 指出
    我们 你们 他们 它们 我 你 他 她 它 您 是的 对的 好的 不过 然而 另外 此外 因此 总之 例如 比如
    的话 大约 左右 大概 约为 只有 只能 已经 一般 目前 相关 具体 情况 方面 如下 其他 其它 可能
    应该 主要 还有 同时 非常 比较 一样 不同 所有 每个 任何 均 即 则 仍 该 此 等 等等
    这是 那是 也是 都是 即是 这里 那里 一种""".split()
)
"""Function words and answer scaffolding ("根据", "来源"): never content words."""


@cache
def quiet_jieba() -> Any:
    """Return jieba with its logger set to warnings, so loading its dictionary prints nothing."""
    import jieba

    jieba.setLogLevel(logging.WARNING)
    return jieba


@cache
def _jieba() -> tuple[Any, dict[str, str]]:
    """Return jieba and its word -> part-of-speech table, loading both quietly on first use."""
    jieba = quiet_jieba()
    from jieba import posseg

    return jieba, posseg.dt.word_tag_tab


def names_and_words(text: str) -> tuple[set[str], set[str]]:
    """Return the proper nouns and the content words of a text's Chinese runs.

    Titles in 《》 are names; a name is not also a content word. Words of one character, numerals,
    measure words, punctuation and function words are not content words.
    """
    names = {m.group(1).strip() for m in TITLE.finditer(text)}
    words: set[str] = set()
    if not CJK.search(text):
        return names, words
    tags = _jieba()[1]
    for word in cut(text):
        if not CJK.search(word):
            continue
        flag = tags.get(word, "")
        if flag.startswith(_NAME_TAGS) and len(word) > 1:
            names.add(word)
        elif len(word) > 1 and flag not in _NOT_CONTENT_TAGS and word not in STOP:
            words.add(word)
    words -= names
    return names, words


def cut(text: str) -> list[str]:
    """Return jieba's words of a text (its dictionary, then its hidden Markov model)."""
    return list(_jieba()[0].cut(text))


def unknown(word: str) -> bool:
    """Whether jieba's dictionary lacks a word (its hidden Markov model found it: often a name)."""
    return word not in _jieba()[1]


def tag(word: str) -> str:
    """Return jieba's part-of-speech tag for a word of its dictionary ('' for one it lacks)."""
    return _jieba()[1].get(word, "")


def word_found(word: str, haystack: str) -> bool:
    """Whether a Chinese word is in a text: whole, or at least half of its character pairs.

    jieba cuts the same phrase differently in different sentences ("保修期" in an answer,
    "保修" in the source), so a longer word counts as found when half its pairs are there. A
    word of two characters is also found inside two words joined on their last character
    (`_in_joined`: 上班 in 上下班).
    """
    if word in haystack:
        return True
    if len(word) == 2:
        return _in_joined(word, haystack)
    if len(word) < 3:
        return False
    pairs = [word[i : i + 2] for i in range(len(word) - 1)]
    return 2 * sum(p in haystack for p in pairs) >= len(pairs)


def _in_joined(word: str, haystack: str) -> bool:
    """Whether a two-character word stands in two words joined on their shared last character.

    Chinese joins two words that end alike into one of three characters: 上下班 is 上班 and 下班,
    进出口 进口 and 出口, 中小学 中学 and 小学. The word's first character, one more, then its
    last, count when that other character with the last is a word of jieba's dictionary too.
    """
    first, last = word[0], word[1]
    for found in re.finditer(re.escape(first) + r"([\u4e00-\u9fff])" + re.escape(last), haystack):
        if not unknown(found.group(1) + last):
            return True
    return False
