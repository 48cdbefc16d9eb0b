"""TER's words: a text lowercased (unless case matters), optionally normalised and stripped of punctuation as Tercom
does it, then split on whitespace; as sacrebleu 2.6's ``TercomTokenizer`` reads a text (checked by the tests, not its
code). Standard library only (it runs in Pyodide).

- By default a text is only lowercased (``str.lower``) and split on whitespace: ``"Hello, World!"`` is the two
  words ``hello,`` and ``world!``.
- ``normalized``: lines joined (a hyphen that starts a line joins the words around the break), ``&quot;``,
  ``&amp;``, ``&lt;`` and ``&gt;`` unescaped, then ASCII punctuation split off as words of its own, except that
  an apostrophe stays in a word (``'s`` alone is split off), a hyphen only after a digit, and a full stop or comma
  only where a digit is not beside it (``3.5`` and ``1,000`` stay whole). With ``asian_support`` too, every CJK
  ideograph, stroke, radical and compatibility character and CJK or full-width punctuation mark is a word of its
  own.
- ``no_punct``: ``. , ? : ; ! " ( )`` removed (and, with ``asian_support``, CJK and full-width punctuation).
- A reference is read twice over (its words read again), as sacrebleu reads references: with ``normalized`` this
  splits ``'s`` off a word that punctuation follows, so that ``cat's.`` is three words in a reference
  (``cat 's .``) and two in a candidate (``cat's .``).
"""

from __future__ import annotations

import re
from typing import NamedTuple

__all__ = ["TerTokenizer", "ter_words"]

#: ASCII punctuation that Tercom's normalisation splits off wherever it is: all of it but ' , - . (and the space).
_SPLIT_ALWAYS = re.compile(r"""([!"#$%&()*+/:;<=>?@\[\\\]^_`{|}~ ])""")
_POSSESSIVE = re.compile(r"'s ")
_POSSESSIVE_AT_END = re.compile(r"'s$")
_STOP_AFTER_NON_DIGIT = re.compile(r"([^0-9])([.,])")
_STOP_BEFORE_NON_DIGIT = re.compile(r"([.,])([^0-9])")
_DASH_AFTER_DIGIT = re.compile(r"([0-9])(-)")

#: CJK and full-width punctuation: split off by ``normalized`` with ``asian_support``, removed by ``no_punct`` with it.
_ASIAN_PUNCTUATION = "\u3001\u3002\u3008-\u3011\u3014-\u301f\uff61-\uff65\u30fb"
_FULL_WIDTH_PUNCTUATION = "\uff0e\uff0c\uff1f\uff1a\uff1b\uff01\uff02\uff08\uff09"
#: Characters that are a word each under ``normalized`` with ``asian_support``: CJK ideographs (and extension A), CJK
#: strokes and radicals, compatibility characters and forms, enclosed letters and months on to U+3F22, and the
#: punctuation above. (Tercom also splits a run of kana that is the whole text, but the normalisation has put a
#: space before the text by then, so no run can be: nothing to do.)
_ASIAN_WORD = re.compile(
    "([\u4e00-\u9fff\u3400-\u4dbf\u31c0-\u31ef\u2e80-\u2eff\u3300-\u33ff\uf900-\ufaff\ufe30-\ufe4f\u3200-\u3f22"
    + _ASIAN_PUNCTUATION
    + _FULL_WIDTH_PUNCTUATION
    + "])"
)
_PUNCTUATION = re.compile(r'[.,?:;!"()]')
_ASIAN_PUNCTUATION_ONLY = re.compile(f"[{_ASIAN_PUNCTUATION}{_FULL_WIDTH_PUNCTUATION}]")


def _normalise(text: str, asian_support: bool) -> str:
    text = text.replace("\n-", "").replace("\n", " ")
    # In this order: "&amp;lt;" becomes "<", as in Tercom.
    text = text.replace("&quot;", '"').replace("&amp;", "&").replace("&lt;", "<").replace("&gt;", ">")
    text = _SPLIT_ALWAYS.sub(r" \1 ", f" {text} ")
    text = _POSSESSIVE_AT_END.sub(" 's", _POSSESSIVE.sub(" 's ", text))
    text = _STOP_AFTER_NON_DIGIT.sub(r"\1 \2 ", text)
    text = _STOP_BEFORE_NON_DIGIT.sub(r" \1 \2", text)
    text = _DASH_AFTER_DIGIT.sub(r"\1 \2 ", text)
    if asian_support:
        text = _ASIAN_WORD.sub(r" \1 ", text)
    return text


class TerTokenizer(NamedTuple):
    """TER's tokenizer settings (sacrebleu's ``TER`` options of the same names); calling it gives a text's words."""

    normalized: bool = False
    no_punct: bool = False
    asian_support: bool = False
    case_sensitive: bool = False

    def __call__(self, text: str) -> list[str]:
        """A candidate's words."""
        return ter_words(text, *self)

    def reference(self, text: str) -> list[str]:
        """A reference's words: its words read again, as sacrebleu reads a reference (twice over)."""
        return ter_words(" ".join(ter_words(text, *self)), *self)


def ter_words(
    text: str,
    normalized: bool = False,
    no_punct: bool = False,
    asian_support: bool = False,
    case_sensitive: bool = False,
) -> list[str]:
    """The words TER aligns, as sacrebleu's ``TER`` reads ``text`` with these options.

    >>> ter_words("The cat's hat, 3.5 m!", normalized=True)
    ['the', 'cat', "'s", 'hat', ',', '3.5', 'm', '!']
    """
    text = text.rstrip()
    if not case_sensitive:
        text = text.lower()
    if normalized:
        text = _normalise(text, asian_support)
    if no_punct:
        text = _PUNCTUATION.sub("", text)
        if asian_support:
            text = _ASIAN_PUNCTUATION_ONLY.sub("", text)
    return text.split()
