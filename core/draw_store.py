"""Arrays of posterior draws that may not fit in memory, and the blocks they are computed and read in.

A fit's draws of the field are ``draws x mesh nodes`` doubles: 800 MB for 1,000 draws on a mesh of 100,000 nodes.
Up to :data:`IN_MEMORY_BYTES` they are an ordinary array; beyond it :func:`draw_array` puts them in an unnamed
temporary file, memory-mapped, which the operating system deletes when the array is freed or the process ends (a
crash included). The draws are confidential, and the file has no name another process could open it by. The
model file then receives them block by block (:meth:`.posterior.Posterior.save`), and a large model file's draws
are mapped rather than read (:meth:`.posterior.Posterior.load`).

Everything that computes or reads draws does so in blocks of rows whose size depends only on the array's shape
(:func:`row_blocks`), never on where the array lives: a fit gives the same draws in memory and on disk.
"""

from __future__ import annotations

import tempfile
from collections.abc import Iterator

import numpy as np

#: Draws of the field up to this many bytes (draws x nodes x 8) are held in memory, larger ones in a temporary file.
IN_MEMORY_BYTES = 1 << 30

#: About this many values (rows x columns) are computed or read at a time: 16 MB of doubles.
BLOCK_VALUES = 2_000_000


def draw_array(rows: int, columns: int, in_memory_bytes: int | None = None) -> np.ndarray:
    """An uninitialised ``(rows, columns)`` float64 array: in memory up to ``in_memory_bytes`` (default
    :data:`IN_MEMORY_BYTES`), beyond it a memory map of an unnamed temporary file (:func:`tempfile.TemporaryFile`)."""
    limit = IN_MEMORY_BYTES if in_memory_bytes is None else int(in_memory_bytes)
    rows, columns = int(rows), int(columns)
    if rows * columns * 8 <= limit or rows * columns == 0:
        return np.empty((rows, columns))
    # the map holds its own handle to the file: the file goes when the last view of the array is freed
    with tempfile.TemporaryFile(prefix="spatial_privacy_draws_") as handle:
        return np.memmap(handle, dtype=np.float64, mode="w+", shape=(rows, columns))


def on_disk(array: np.ndarray) -> bool:
    """Whether ``array`` (or the array it is a view of) is memory-mapped from a file."""
    while array is not None:
        if isinstance(array, np.memmap) or type(array.base).__name__ == "mmap":
            return True
        array = array.base if isinstance(array.base, np.ndarray) else None
    return False


def row_blocks(rows: int, width: int, values: int = BLOCK_VALUES, minimum: int = 1) -> Iterator[slice]:
    """Consecutive slices over ``rows`` rows, each of about ``values // width`` rows (at least ``minimum``): the
    blocks in which an array of draws ``width`` values wide (or a product of that size) is computed or read."""
    step = max(int(minimum), int(values) // max(int(width), 1), 1)
    for start in range(0, int(rows), step):
        yield slice(start, min(start + step, int(rows)))
