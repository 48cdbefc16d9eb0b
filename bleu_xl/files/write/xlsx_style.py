"""What every workbook bleu-xl writes with XlsxWriter shares: safe options for user text, the score data bar."""

from __future__ import annotations

from typing import Any

__all__ = ["DATA_BAR", "EDITS_BAR", "EDITS_BAR_COLOR", "SAFE_OPTIONS", "SCORE_BAR_COLOR"]

# User text stays text: no conversion of "=..." into formulas, of "http://..." into links, of "1e3" into numbers.
SAFE_OPTIONS: dict[str, Any] = {"strings_to_formulas": False, "strings_to_urls": False, "strings_to_numbers": False}
#: A score's bar is blue (a longer bar, a better score); TER's is orange: its bar is the edits, longer is worse.
SCORE_BAR_COLOR, EDITS_BAR_COLOR = "#5B9BD5", "#ED7D31"

#: Data bars for scores from 0 to 1 (a fixed scale, so bars compare across sheets).
DATA_BAR: dict[str, Any] = {
    "type": "data_bar",
    "bar_color": SCORE_BAR_COLOR,
    "bar_solid": True,
    "min_type": "num",
    "min_value": 0,
    "max_type": "num",
    "max_value": 1,
}
#: TER's data bars: the same scale, the edits' colour.
EDITS_BAR: dict[str, Any] = {**DATA_BAR, "bar_color": EDITS_BAR_COLOR}
