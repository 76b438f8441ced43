"""The lab's report: one self-contained HTML page (Jinja2, autoescaped, no script, nothing
fetched) with the summary, the outliers, plots drawn with matplotlib as inline SVG, and
the tables.

The plots keep their text as SVG text (escaped by matplotlib's SVG writer, with math
parsing off so a `$` in a label is only a character), in the game's labels; a CJK font is
listed after the default one when the machine has it, so labels in Chinese or Japanese are
measured and drawn.
"""

from __future__ import annotations

import io
import math
from collections.abc import Sequence
from pathlib import Path
from typing import Any, cast

import matplotlib
from jinja2 import Environment, PackageLoader, StrictUndefined
from markupsafe import Markup

matplotlib.use("Agg")

from matplotlib import font_manager  # noqa: E402 - after choosing the backend
from matplotlib.colors import TwoSlopeNorm  # noqa: E402
from matplotlib.figure import Figure  # noqa: E402

from .run import RunInfo  # noqa: E402
from .stats import Matrix, Results, percent  # noqa: E402

_CJK = {"ja": "JP", "zh-Hant": "TC", "ko": "KR"}  # Noto Sans CJK's variant by language (SC otherwise)
ANNOTATED = 12  # a map of rates with at most this many rows and columns prints its rates in the cells


def render(results: Results, run: RunInfo) -> str:
    """The page."""
    env = Environment(loader=PackageLoader("cardsmith.lab", "templates"), autoescape=True,
                      undefined=StrictUndefined, trim_blocks=True, lstrip_blocks=True)
    env.filters["pct"] = percent
    with matplotlib.rc_context(cast(Any, _style(results.summary.language))):
        plots = {
            "matrix": _rate_map(results.matrix, results.summary.fair),
            "characters": _rates_chart([c.name for c in results.characters], [c.win_rate for c in results.characters],
                                       [c.ci_low for c in results.characters], [c.ci_high for c in results.characters],
                                       (results.summary.band.low, results.summary.band.high), "win rate (95% CI)"),
            "cards": _rates_chart([c.name for c in results.charted], [c.win_rate for c in results.charted],
                                  [c.ci_low for c in results.charted], [c.ci_high for c in results.charted],
                                  (results.summary.card_rate, results.summary.card_rate),
                                  "win rate of the player who used it (95% CI)"),
            "lengths": _histograms(results),
        }
    return env.get_template("report.html.j2").render(r=results, s=results.summary, run=run, plots=plots)


def _style(language: str) -> dict[str, object]:
    installed = families(font_manager.fontManager)
    variant = _CJK.get(language, "SC")
    fonts = [name for name in ("DejaVu Sans", f"Noto Sans CJK {variant}", "Noto Sans CJK SC") if name in installed]
    return {"svg.fonttype": "none", "svg.hashsalt": "cardsmith-lab", "text.parse_math": False,
            "font.family": fonts or ["sans-serif"], "font.size": 9, "axes.titlesize": 10}


def families(manager: font_manager.FontManager) -> set[str]:
    """The font families matplotlib knows. It keeps its list of the machine's fonts in a cache of
    the user's and does not see fonts installed after that (the Makefile installs Noto Sans CJK
    with the browser tests' packages): a missing CJK font is looked for on the system and added,
    so that Chinese and Japanese labels are measured with a font that has their glyphs."""
    if not any(f.name.startswith("Noto Sans CJK") for f in manager.ttflist):
        for path in font_manager.findSystemFonts():
            if Path(path).name.startswith("NotoSansCJK"):
                try:
                    manager.addfont(path)
                except (OSError, RuntimeError, ValueError):  # a font file FreeType cannot read: left out
                    continue
    return {f.name for f in manager.ttflist}


def _svg(figure: Figure) -> Markup:
    """A figure as an inline <svg> element (no XML declaration or doctype)."""
    out = io.StringIO()
    figure.savefig(out, format="svg", bbox_inches="tight",
                   metadata={"Creator": None, "Date": None, "Format": None, "Type": None})
    text = out.getvalue()
    return Markup(text[text.index("<svg"):])  # noqa: S704 - matplotlib's own SVG, its text escaped by it


def _rate_map(matrix: Matrix, fair: float) -> Markup:
    rows, cols = len(matrix.rows), len(matrix.columns)
    figure = Figure(figsize=(max(4.5, 0.32 * cols + 2.5), max(3.5, 0.3 * rows + 1.8)))
    ax = figure.add_subplot()
    values = [[math.nan if v is None else v for v in line] for line in matrix.rates]
    image = ax.imshow(values, cmap="RdBu", norm=TwoSlopeNorm(vcenter=fair, vmin=0.0, vmax=1.0), aspect="auto",
                      interpolation="nearest")
    ax.set_xticks(range(cols), matrix.columns, rotation=60, ha="right", rotation_mode="anchor")
    ax.set_yticks(range(rows), matrix.rows)
    ax.set_xlabel(matrix.column_axis)
    ax.set_ylabel(matrix.row_axis)
    ax.set_title(matrix.title)
    ax.set_facecolor("#8c8c8c")  # never met: a grey that is not on the red-white-blue scale
    if rows <= ANNOTATED and cols <= ANNOTATED:
        for i, line in enumerate(matrix.rates):
            for j, v in enumerate(line):
                if v is not None:
                    ax.text(j, i, f"{100 * v:.0f}%\n({matrix.games[i][j]})", ha="center", va="center",
                            fontsize=7, color="white" if abs(v - fair) > 0.3 else "black")
    figure.colorbar(image, ax=ax, label="win rate", format=lambda v, _: percent(v))
    return _svg(figure)


def _rates_chart(labels: Sequence[str], rates: Sequence[float], lows: Sequence[float], highs: Sequence[float],
                 reference: tuple[float, float], axis: str) -> Markup:
    """Horizontal bars of rates with their intervals, first at the top, and the reference
    (a band, or a line when both ends are equal) behind them."""
    figure = Figure(figsize=(7.5, max(1.6, 0.26 * len(labels) + 1.0)))
    ax = figure.add_subplot()
    low, high = reference
    if high > low:
        ax.axvspan(low, high, color="#e8e8e8", zorder=0)
    else:
        ax.axvline(low, color="#888888", linestyle="--", zorder=0)
    colours = ["#2b6cb0" if lo > high else "#c53030" if hi < low else "#718096" for lo, hi in zip(lows, highs, strict=True)]
    positions = range(len(labels))
    ax.barh(positions, rates, color=colours, zorder=2,
            xerr=[[r - lo for r, lo in zip(rates, lows, strict=True)], [hi - r for r, hi in zip(rates, highs, strict=True)]],
            error_kw={"ecolor": "#1a202c", "capsize": 2, "elinewidth": 0.8})
    ax.set_yticks(positions, labels)
    ax.invert_yaxis()
    ax.set_xlim(0, 1)
    ax.xaxis.set_major_formatter(lambda v, _: percent(v))
    ax.set_xlabel(axis)
    return _svg(figure)


def _histograms(results: Results) -> Markup:
    figure = Figure(figsize=(8, 2.8))
    for i, measure in enumerate(("steps", "decisions")):
        ax = figure.add_subplot(1, 2, i + 1)
        counts = results.spread[measure]
        ax.hist(list(counts), bins=30, weights=list(counts.values()), color="#4a5568")
        ax.set_xlabel(f"{measure} per game")
        ax.set_ylabel("games")
    figure.tight_layout()
    return _svg(figure)


def write_report(path: Path, results: Results, run: RunInfo) -> None:
    """Write the page; raises OSError when it cannot be written."""
    path.write_text(render(results, run), encoding="utf-8")
