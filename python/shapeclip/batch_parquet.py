"""`shapeclip batch` on a Parquet file: the conversations of its `messages` (or `input`) column
compressed as those of a JSONL file are, and written to a Parquet file of the same schema.

A conversation there is either JSON text (a string column) or nested records (a list column).
Nested records go to the workers as JSON text too, one code path for both, and come back as
records of the column's own type. Arrow gives each record every key that any record of the
column has, with nulls where a message had none; `compress_messages` reads past them, and they
are written back as they were. Every other column, and every row with nothing to cut, is
written unchanged. A row that cannot travel as JSON (a date inside a message), or whose
compressed form the column's type cannot hold whole, is written as it was and counted as not a
conversation.

Reading Parquet needs `pyarrow`, which shapeclip does not require.
"""

from __future__ import annotations

import argparse
import json
from collections import deque
from itertools import islice
from typing import TYPE_CHECKING, Any

from .batch import MESSAGE_KEYS, Line, Tally, compress_lines, unchanged

if TYPE_CHECKING:
    from collections.abc import Iterable, Iterator

    import pyarrow as pa

    from .messages import Budget

#: Rows read and written at a time: bounds memory, and makes row groups of a useful size.
BATCH_ROWS = 4096


def compress_parquet(
    source: str, target: str, workers: int, budget: Budget | int, parser: argparse.ArgumentParser
) -> int:
    """Compresses the conversations of the Parquet file `source` into `target`; errors in the
    arguments or the files go to `parser.error`."""
    try:
        import pyarrow.parquet as pq
    except ImportError:
        parser.error("reading Parquet needs pyarrow (pip install pyarrow)")
    if target == "-":
        parser.error("Parquet is written to a file: give one with -o")
    try:
        file = pq.ParquetFile(source)
    except (OSError, ValueError) as exc:  # pyarrow's ArrowInvalid is a ValueError
        parser.error(f"cannot read {source} as Parquet: {exc}")
    schema = file.schema_arrow
    column = next((key for key in MESSAGE_KEYS if key in schema.names), None)
    if column is None:
        parser.error(f"{source} has no column of conversations (one named {' or '.join(MESSAGE_KEYS)})")
    tally = Tally("row")
    try:
        with pq.ParquetWriter(target, schema) as writer:
            for batch in _compressed_batches(file.iter_batches(BATCH_ROWS), column, workers, budget, tally):
                writer.write_batch(batch)
    except OSError as exc:
        parser.error(f"cannot write {target}: {exc}")
    except KeyboardInterrupt:
        return tally.interrupted()
    return tally.done()


def _compressed_batches(
    batches: Iterator[pa.RecordBatch], column: str, workers: int, budget: Budget | int, tally: Tally
) -> Iterator[pa.RecordBatch]:
    """Each batch with its `column` compressed, in order, all batches' rows sharing the workers."""
    waiting: deque[tuple[pa.RecordBatch, list[Any], list[str]]] = deque()

    def texts() -> Iterator[str]:
        for batch in batches:
            if batch.num_rows:
                values = batch.column(column).to_pylist()
                sent = [_as_text(value) for value in values]
                waiting.append((batch, values, sent))
                yield from sent

    lines = iter(compress_lines(texts(), workers, budget))
    while (first := next(lines, None)) is not None:
        batch, values, sent = waiting.popleft()
        done = [first, *islice(lines, batch.num_rows - 1)]
        yield _with_column(batch, column, zip(values, sent, done, strict=True), tally)


def _as_text(value: Any) -> str:
    """A row's conversation as JSON text; what is not JSON goes as text `compress_line` refuses."""
    if isinstance(value, str):
        return value
    try:
        return json.dumps(value, ensure_ascii=False)
    except (TypeError, ValueError):
        return ""


def _with_column(
    batch: pa.RecordBatch, column: str, rows: Iterable[tuple[Any, str, Line]], tally: Tally
) -> pa.RecordBatch:
    """`batch` with each row's value of `column` replaced by its compressed form, where it has one."""
    import pyarrow as pa

    kind = batch.schema.field(column).type
    nested = not (pa.types.is_string(kind) or pa.types.is_large_string(kind))
    out: list[Any] = []
    for value, sent, line in rows:
        if line.text == unchanged(sent):
            out.append(value)
        elif not nested:
            out.append(line.text.removesuffix("\n"))
        else:
            record = json.loads(line.text)
            if _fits(record, kind):
                out.append(record)
            else:
                out.append(value)
                line = Line(line.text, False, why="compressed would not fit its column's type")
        tally.count(line)
    arrays = [pa.array(out, type=kind) if name == column else batch.column(name) for name in batch.schema.names]
    return pa.RecordBatch.from_arrays(arrays, schema=batch.schema)


def _fits(record: Any, kind: pa.DataType) -> bool:
    """Whether a column of type `kind` holds `record` whole: Arrow drops a key its struct type
    lacks without a word, so the record must come back as it went in."""
    import pyarrow as pa

    try:
        back = pa.array([record], type=kind).to_pylist()[0]
    except (pa.ArrowException, TypeError, ValueError, OverflowError):
        return False
    return bool(_present(back) == _present(record))


def _present(value: Any) -> Any:
    """`value` without the keys whose value is null: to Arrow, a null and a key left out are one."""
    if isinstance(value, dict):
        return {key: _present(item) for key, item in value.items() if item is not None}
    if isinstance(value, list):
        return [_present(item) for item in value]
    return value
