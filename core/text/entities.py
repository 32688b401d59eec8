"""The entities of a chunk: the names an entity graph links chunks by, normalised, no model.

English names are core.text.terms' capitalised spans ("Oskar Brevik", "Lindqvist Observatory"), each
also under its last word when it has several ("brevik"): a person named in full in one chunk and by
surname in another is one entity. Chinese names are core.text.terms_zh's (jieba's proper nouns and
《titles》) and the words jieba's dictionary lacks, which are mostly names its hidden Markov model
found (温若兰, 云栖塔), cleaned of what that model glues to them: a preposition in front (由林远舟
is cut 由林 / 远舟), a lone surname split from its given name (钟 / 海生), the last character of a
village, a town, a river, a mountain or a built work (渡口 / 村, 青石 / 堰). A short span in
quotation marks is a name as a 《title》 is (“远航三号”: Chinese prose quotes a ship's, a product's
or a campaign's name); a word that asks, points or compares (哪座, 那所, 更长) never is. Keys are
lower-cased, accents and "the" dropped, spaces collapsed.
"""

from __future__ import annotations

import re
import unicodedata

from adaptive_rag.core.text.terms import key_tokens, terms_of
from adaptive_rag.core.text.terms_zh import CJK, STOP, cut, tag, unknown

VERSION = 2
"""Bump when extraction changes: stored collections then extract their chunks' entities again."""
MOST = 40
"""Entities kept per chunk (the longest first): a bound on metadata and on the graph's edges."""

_SPACE = re.compile(r"\s+")
_EDGE = " .,;:!?'\"-()[]“”‘’《》「」"
_GLUE = frozenset("由在为是于从到向被把将与和及的时对")
"""Characters jieba's model glues to the front or middle of a name it does not know."""
_SURNAMES = frozenset(
    "王李张刘陈杨黄赵吴周徐孙马朱胡郭何林罗高郑梁谢宋唐许韩冯邓曹彭曾萧田董潘袁蔡蒋余杜叶程魏"
    "苏吕丁沈任姚卢姜崔钟谭陆汪范金石廖贾夏韦付方白邹孟熊秦邱江尹薛闫段雷侯龙史陶黎贺顾毛郝龚"
    "邵万钱严覃武戴莫孔汤温"
)
_PLACE_SUFFIX = frozenset("村镇县市省")
_FEATURE_SUFFIX = frozenset("河湖江溪山峰岭岛湾港桥堰塔寺")
"""A river's, a mountain's or a built work's last character, which jieba cuts off (青石 / 堰)."""
_MEASURE = frozenset("座所个家位条部种本件次处间只棵")
_QUOTED = re.compile(r"[“「]([^”」“「\n，。、；：！？,.;:!?]{2,12})[”」]")
"""A short quoted span without punctuation: a name (quoted speech is longer, or punctuated)."""


def key(name: str) -> str:
    """Return the normal form entities are matched by: 'The Ögedei's' -> 'ogedei'."""
    text = unicodedata.normalize("NFKD", name)
    text = "".join(c for c in text if not unicodedata.combining(c))
    text = _SPACE.sub(" ", text.replace("’", "'").lower()).strip(_EDGE)
    text = text.removesuffix("'s")
    return text[4:] if text.startswith("the ") else text


def entities_of(text: str) -> list[str]:
    """Return a text's entity keys, sorted (at most MOST, the longest kept)."""
    names = set(terms_of(text).names)
    keys = {key(n) for n in names}
    for name in names:
        if not CJK.search(name):
            tokens = key_tokens(name)
            if len(tokens) > 1:
                keys.add(key(tokens[-1]))
    if CJK.search(text):
        keys |= chinese_names(text)
    keys = {k for k in keys if len(k) > 1 and not k.isdigit()}
    if len(keys) > MOST:
        keys = set(sorted(keys, key=lambda k: (-len(k), k))[:MOST])
    return sorted(keys)


def specific(name: str) -> bool:
    """Whether an entity key is specific enough to tie two sources to one person or thing.

    Several words ("oskar brevik", "lindqvist observatory"), or a Chinese name of two or three
    characters opening with a common surname (贺志远; a place that opens with one, 温州, passes
    too); a lone English word (a surname, a town) is shared by too many unrelated sources.
    """
    if CJK.search(name):
        return 2 <= len(name) <= 3 and name[0] in _SURNAMES
    return " " in name


def _pointing(word: str) -> bool:
    """Whether a word asks, points or compares rather than names: 哪座, 那所, 这家, 更长."""
    if word.startswith("哪"):
        return True
    return len(word) == 2 and ((word[0] in "那这每某" and word[1] in _MEASURE) or word[0] == "更")


def _noun(word: str) -> bool:
    """Whether jieba's dictionary lacks a word or tags it a noun (青石, not 修建 or 一座)."""
    return unknown(word) or tag(word).startswith("n")


def chinese_names(text: str) -> set[str]:
    """Return short quoted spans, the names jieba's dictionary lacks (cleaned), joined names."""
    tokens: list[str] = []
    for word in cut(text):
        if len(word) > 1 and CJK.search(word) and unknown(word):
            # split what the model glued on: 由林 -> 由 林, 河是岚州 -> 河 是 岚州
            tokens.extend(t for t in re.split(f"([{''.join(_GLUE)}])", word) if t)
        else:
            tokens.append(word)
    names = {m.group(1).strip() for m in _QUOTED.finditer(text) if CJK.search(m.group(1))}
    for i, word in enumerate(tokens):
        if _pointing(word):
            continue
        after = tokens[i + 1] if i + 1 < len(tokens) else ""
        if word in _SURNAMES and 0 < len(after) <= 2 and CJK.search(after) and after not in STOP:
            if not (set(after) & _GLUE):
                names.add(word + after)  # 钟 / 海生 -> 钟海生
        elif len(word) > 1 and CJK.search(word) and word not in STOP:
            if unknown(word) and not set(word) & _GLUE:
                names.add(word)
            if after in _PLACE_SUFFIX or (after in _FEATURE_SUFFIX and _noun(word)):
                names.add(word + after)  # 渡口 / 村 -> 渡口村, 青石 / 堰 -> 青石堰
    return names
