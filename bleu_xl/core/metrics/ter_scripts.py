"""Texts TER reads as far fewer words than they hold: those written in a script that puts no spaces between words.

TER's words are what whitespace separates once its tokenizer has run, so a sentence of Chinese or Japanese, Thai,
Lao, Burmese or Khmer is one word, or a few where digits, Latin words or punctuation stand apart: its TER is all or
nothing (0 for the same text, 1 or near it for any difference), exactly as sacrebleu gives it, and misleading.
Only Chinese characters (kanji) are split by a TER setting, ``normalized`` with ``asian_support``; no setting
splits kana, Thai, Lao, Burmese or Khmer. Scores stay sacrebleu's: this only finds such texts, so that every face
can say so. Standard library only (it runs in Pyodide).
"""

from __future__ import annotations

import re
from collections.abc import Collection

from ..errors import Part, Setting
from .ter_tokenizer import TerTokenizer

__all__ = ["CHINESE_OR_JAPANESE", "SCRIPTS", "UNSPACED_WORD", "unspaced_note", "unspaced_script"]

#: A word (as TER reads a text) that holds this many characters of a script written without spaces is likely more
#: than a word: Chinese words are mostly two characters, so a call to action of four (立即购买, "buy now": 立即
#: and 购买) is already two, which TER scores all or nothing against 马上购买. A single long word (a name such as
#: 東京タワー) is noted too: a note too many costs less than misleading scores unsaid.
UNSPACED_WORD = 4

CHINESE_OR_JAPANESE = "Chinese or Japanese"
#: The scripts written without spaces between words, by the name a note gives them, with their code point ranges
#: (inclusive): CJK ideographs, radicals and iteration marks, kana (half-width too); Hangul is not among them,
#: since Korean puts spaces between words.
SCRIPTS: dict[str, tuple[tuple[int, int], ...]] = {
    CHINESE_OR_JAPANESE: (
        (0x2E80, 0x2FDF),
        (0x3005, 0x3007),
        (0x3021, 0x3029),
        (0x3031, 0x3035),
        (0x3038, 0x303C),
        (0x3040, 0x30FF),
        (0x31F0, 0x31FF),
        (0x3400, 0x4DBF),
        (0x4E00, 0x9FFF),
        (0xF900, 0xFAFF),
        (0xFF66, 0xFF9F),
        (0x20000, 0x3FFFF),
    ),
    "Thai": ((0x0E00, 0x0E7F),),
    "Lao": ((0x0E80, 0x0EFF),),
    "Burmese": ((0x1000, 0x109F), (0xA9E0, 0xA9FF), (0xAA60, 0xAA7F)),
    "Khmer": ((0x1780, 0x17FF), (0x19E0, 0x19FF)),
}


def _class(scripts: Collection[str]) -> re.Pattern[str]:
    ranges = "".join(f"\\U{low:08x}-\\U{high:08x}" for name in scripts for low, high in SCRIPTS[name])
    return re.compile(f"[{ranges}]")


_ANY_SCRIPT = _class(SCRIPTS)
#: What ``normalized`` with ``asian_support`` leaves unsplit that a setting could not split either.
_NOT_SPLIT_BY_ASIAN_SUPPORT = _class([name for name in SCRIPTS if name != CHINESE_OR_JAPANESE])
_SCRIPT_OF = {name: _class([name]) for name in SCRIPTS}


def unspaced_script(text: str, tokenizer: TerTokenizer) -> str | None:
    """The script (a name of :data:`SCRIPTS`) of the first word TER reads in ``text`` that holds
    :data:`UNSPACED_WORD` or more of its characters: a phrase or a sentence read as one word. ``None`` when there is
    none, and for Chinese or Japanese when ``normalized`` with ``asian_support`` splits it (as far as TER can).

    >>> unspaced_script("2024年5月にNikeの新しいｼｭｰｽﾞを発売します", TerTokenizer())
    'Chinese or Japanese'
    >>> unspaced_script("2024年5月にNikeの新しいｼｭｰｽﾞを発売します", TerTokenizer(normalized=True, asian_support=True))
    >>> unspaced_script("모든 주문 무료 배송", TerTokenizer()) is None  # Korean: spaced
    True
    """
    pattern = _NOT_SPLIT_BY_ASIAN_SUPPORT if tokenizer.normalized and tokenizer.asian_support else _ANY_SCRIPT
    if pattern.search(text) is None:  # most texts: one search, no tokenizing
        return None
    for word in tokenizer(text):
        found = "".join(pattern.findall(word))
        if len(found) >= UNSPACED_WORD:
            return max(SCRIPTS, key=lambda name: len(_SCRIPT_OF[name].findall(found)))
    return None


def _listing(names: list[str]) -> str:
    return names[0] if len(names) == 1 else f"{', '.join(names[:-1])} or {names[-1]}"


def unspaced_note(scripts: Collection[str]) -> tuple[Part, ...]:
    """What to say of texts in ``scripts`` (as :func:`unspaced_script` names them), after the rows they are in: why
    their TER misleads, and what splits them where a setting can."""
    named = [name for name in SCRIPTS if name in scripts]
    parts: list[Part] = [
        f"written without spaces between words ({', '.join(named)}): TER reads such a sentence as one word or a few, "
        "so its scores are all or nothing (as sacrebleu's are)"
    ]
    if CHINESE_OR_JAPANESE in named:
        parts += [
            "; ",
            Setting("normalized"),
            " with ",
            Setting("asian_support"),
            " makes each Chinese character a word",
        ]
    others = [name for name in named if name != CHINESE_OR_JAPANESE]
    if others:
        them = "it" if len(others) == 1 else "them"
        parts.append(f"; no TER setting splits {_listing(others)}: chrF (or BLEU) scores {them} by characters")
    return tuple(parts)
