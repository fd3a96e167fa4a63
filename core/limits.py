"""Limits on parameters that the core enforces and the Processing dialogs show (no numpy: the dialogs read them
when they are built)."""

from __future__ import annotations

MIN_EPSILON = 1e-9
"""The smallest epsilon any tool accepts. Below about 1e-12, the grid Laplace noise of
:func:`.mechanisms.grid_laplace` (``GRID_STEPS + 1`` grid steps per 1/epsilon) no longer fits the 2**52
integers a double holds exactly; below about 1e-16, numpy's geometric draws saturate at an int64 limit, where
two draws cancel and no noise at all was added (the true values were published). 1e-9 leaves a margin of
1,000 above the first limit and is far below any epsilon whose guarantee means something."""

MAX_EPSILON = 700.0
"""The largest epsilon the Pufferfish grid and the DP counts accept: e^epsilon (in the grid's delta bound and in
the counts' priors) must stay a finite double (e^709.8 is the largest)."""

#: Largest exact sampler of core.counts_sampler (probabilities stored over all tree levels): 1.6 GB; building it takes
#: about twice that at its peak. 50,000 groups took 0.7 GB in a test.
MAX_SAMPLER_VALUES = 200_000_000

#: The default study window, when none is given, is the points' bounding box enlarged on each side by this
#: fraction of its larger side (:meth:`.window.Window.around_points`); the algorithms' help calls it "5%".
WINDOW_MARGIN = 0.05

MAX_KERNEL_DRAWS = 1e9
"""The most candidate draws the kernel synthesizer's rejection sampling may be expected to need (window and bandwidth
are public, so a refusal says nothing of the points). A kernel far wider than the window keeps only about
area / (2 pi h^2) of its mass inside it, and each synthetic point takes the inverse of that in draws: a bandwidth of
1e9 on a 2 km window needs about 1.6e12 draws per point. Rejection runs at some millions of draws a second, so 1e9
draws take minutes; far beyond it a run would look hung. Such a kernel is flat over the window anyway: a bandwidth
within the limit spreads the points just as evenly."""

MAX_TOTAL_COUNT = 2**53
"""The largest total of the confidential counts the DP counts accept: a double holds every whole number up to 2**53
exactly (above it, "is a whole number" cannot be checked, and the sum of the counts is no longer exact)."""
