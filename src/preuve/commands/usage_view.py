"""The cost table every evaluation prints: its model calls, mean and worst case over runs."""

from __future__ import annotations

from collections.abc import Mapping

from rich.table import Table

__all__ = ["cost_table"]

_ROWS = (
    ("model calls", "calls", "{:.1f}"),
    ("backend errors (no answer)", "errors", "{:.1f}"),
    ("answers stopped on length", "stopped_on_length", "{:.1f}"),
    ("prompt tokens", "prompt_tokens", "{:,.0f}"),
    ("generated tokens", "generated_tokens", "{:,.0f}"),
    ("model seconds", "model_seconds", "{:.1f}"),
    ("generated tokens / s", "tokens_per_second", "{:.2f}"),
    ("wall seconds", "wall_seconds", "{:.1f}"),
)


def cost_table(
    spread: Mapping[str, Mapping[str, float]], runs: int, *, title: str = "Model calls"
) -> Table:
    """``spread`` is :func:`preuve.models.usage.spread` of the runs' cost rows."""
    table = Table(title=f"{title}, {runs} run(s)")
    for column in ("figure", "mean", "worst"):
        table.add_column(column)
    mean, worst = spread.get("mean", {}), spread.get("worst", {})
    for label, name, shape in _ROWS:
        if name in mean:
            table.add_row(label, shape.format(mean[name]), shape.format(worst[name]))
    return table
