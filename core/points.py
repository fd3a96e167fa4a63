"""Small facts about the coordinates of a point pattern, used by the fit and by the K-function alike."""

from __future__ import annotations

import numpy as np


def repeated_locations(x, y) -> int:
    """How many points stand at the location of an earlier point (exact coordinate equality)."""
    x = np.asarray(x, dtype=np.float64)
    return int(x.size - np.unique(np.column_stack([x, np.asarray(y, dtype=np.float64)]), axis=0).shape[0])
