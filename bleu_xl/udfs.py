"""The Excel functions of the classic xlwings add-in, declared from the registry in ``bleu_xl.excel.functions``.

Set ``UDF Modules`` to ``bleu_xl.udfs`` (the template's xlwings.conf sheet does) and import the functions: every
entry of ``FUNCTIONS`` becomes a module-level function here (``BLEU2``, ``BLEU2_DETAIL``...) with the entry's
arguments, docs and description. The xlwings Lite bundle declares them the same way, with Lite's decorators.
"""

from __future__ import annotations

from xlwings import arg, func

from .excel.faces import classic_result
from .excel.functions import declare

_DECLARED = declare(func, arg, __name__, classic_result)
globals().update(_DECLARED)
__all__ = list(_DECLARED)
