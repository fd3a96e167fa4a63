"""Writing files so that a failure leaves nothing half-written (no qgis, no Qt)."""

from __future__ import annotations

import os
from contextlib import contextmanager


@contextmanager
def replaced_when_done(path: str):
    """A temporary path beside ``path`` (same extension, so format-by-extension writers still work) that is
    moved onto ``path`` when the block ends without error and removed otherwise: a failed write (a full disk)
    neither leaves a truncated file nor destroys the file that was there."""
    folder, name = os.path.split(os.path.abspath(path))
    stem, ext = os.path.splitext(name)
    partial = os.path.join(folder, f".{stem}.partial-{os.getpid()}{ext}")
    try:
        yield partial
        os.replace(partial, path)
    finally:
        if os.path.exists(partial):
            os.remove(partial)
