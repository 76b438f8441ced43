"""The lab's tables as files: each as CSV and as Parquet, one column per field of its row type.

A list field holds one value per seat and becomes the columns `p1_NAME` … `pN_NAME`. Rates
are written with six decimals in CSV, so that the same results give the same bytes.
"""

from __future__ import annotations

import csv
import dataclasses
import io
import types
import typing
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import pyarrow as pa
import pyarrow.parquet as pq

_ARROW = {str: pa.string(), int: pa.int64(), float: pa.float64()}


@dataclasses.dataclass(frozen=True)
class Column:
    name: str
    field: str
    seat: int | None  # the element of a list field, or None
    kind: type


def columns(row_type: type, seats: int) -> list[Column]:
    """The columns of a table of `row_type`, with `seats` columns for each list field."""
    hints = typing.get_type_hints(row_type)
    found: list[Column] = []
    for f in dataclasses.fields(row_type):
        hint = hints[f.name]
        if typing.get_origin(hint) is list:
            (kind,) = typing.get_args(hint)
            found.extend(Column(f"p{s + 1}_{f.name}", f.name, s, kind) for s in range(seats))
        else:
            found.append(Column(f.name, f.name, None, _plain(hint)))
    return found


def _plain(hint: Any) -> type:
    """`int | None` → int: the type of a value that may be missing."""
    if isinstance(hint, types.UnionType):
        (kind,) = [a for a in typing.get_args(hint) if a is not type(None)]
        return typing.cast(type, kind)
    return typing.cast(type, hint)


def write_table(folder: Path, name: str, row_type: type, rows: Sequence[Any], seats: int) -> list[Path]:
    """Write `rows` as NAME.csv and NAME.parquet in `folder`; returns both paths. Raises
    OSError when a file cannot be written."""
    cols = columns(row_type, seats)
    values = [[_value(row, c) for c in cols] for row in rows]
    text = io.StringIO()
    writer = csv.writer(text, lineterminator="\n")
    writer.writerow([c.name for c in cols])
    writer.writerows([_csv(v) for v in line] for line in values)
    csv_path, parquet_path = folder / f"{name}.csv", folder / f"{name}.parquet"
    csv_path.write_text(text.getvalue(), encoding="utf-8")
    table = pa.table({c.name: pa.array([line[i] for line in values], type=_ARROW[c.kind])
                      for i, c in enumerate(cols)})
    pq.write_table(table, parquet_path)
    return [csv_path, parquet_path]


def _value(row: Any, column: Column) -> Any:
    value = getattr(row, column.field)
    return value if column.seat is None else value[column.seat]


def _csv(value: Any) -> str:
    if value is None:
        return ""
    if isinstance(value, float):
        return f"{value:.6f}"
    return str(value)
