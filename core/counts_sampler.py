"""Exact sampler of the DP synthetic counts mechanism (core.counts): draws from ``prod_i f_i(z_i)`` on
``{sum z = T, L <= z <= U}`` with ``f_i(z) ∝ Gamma(z + A_i) / z! * q_i^z`` (eqs. 4 and 10 of
Quick (2021), "Improving the utility of Poisson-distributed, differentially private synthetic data via
prior predictive truncation with an application to CDC WONDER").

Sampling. The conditioned product distribution is drawn exactly by divide and conquer: the groups are
the leaves of a balanced binary tree; each node stores the distribution of the sum of its leaves
(direct convolutions, restricted to ``[0, T]``); the root total is ``T`` and each node's total is split
between its children by the inverse CDF of ``p_left(s) p_right(t - s)``. An exponential tilt
``theta^z_i`` (which leaves the conditional distribution unchanged, since ``prod theta^z_i = theta^T``)
centres the node distributions on ``T``. Node tails below ``1e-300`` of a node's largest probability are
dropped: they are not representable in double precision relative to the probabilities that are kept.
"Exactly" means up to double rounding: where the cut falls depends on the counts, and the inverse CDF uses
53-bit uniforms, a delta of the order of 1e-16 that the stated guarantee does not count (see
:mod:`.mechanisms`).
"""

from __future__ import annotations

import math

import numpy as np

from .errors import ParameterError
from .jit import njit
from .limits import MAX_SAMPLER_VALUES
from .progress import Progress, report

#: Node probabilities below this fraction of the node's largest are dropped (not representable).
_TAIL_CUT = 1e-300
_LOG_TAIL_CUT = math.log(_TAIL_CUT)
#: Multiply-adds of tree convolution between progress calls (:func:`_convolve_level`): a few hundredths of a second.
_CONVOLVE_BLOCK = 50_000_000


@njit(cache=True)
def _leaves(shapes, log_q, box_lo, box_hi, log_cut):
    """Support (trimmed to ``log_cut`` below the mode) and normalised weights of each tilted leaf."""
    m = shapes.size
    lo = np.empty(m, np.int64)
    hi = np.empty(m, np.int64)
    modes = np.empty(m, np.int64)
    for i in range(m):
        a, lq = shapes[i], log_q[i]
        qq = math.exp(lq)
        mode = 0
        if a > 1.0 and qq < 1.0:
            mode = int(math.floor((a - 1.0) * qq / (1.0 - qq)))
        elif qq >= 1.0:
            mode = box_hi[i]
        mode = min(max(mode, box_lo[i]), box_hi[i])
        # the log-pmf ratio (k + a) q / (k + 1) is monotone in k, so the pmf is unimodal: refine the mode
        while mode < box_hi[i] and math.log(mode + a) - math.log(mode + 1.0) + lq > 0.0:
            mode += 1
        while mode > box_lo[i] and math.log(mode - 1.0 + a) - math.log(mode) + lq < 0.0:
            mode -= 1
        top = math.lgamma(mode + a) - math.lgamma(mode + 1.0) + mode * lq
        k = mode
        while k < box_hi[i] and math.lgamma(k + 1 + a) - math.lgamma(k + 2.0) + (k + 1) * lq - top >= log_cut:
            k += 1
        hi[i] = k
        k = mode
        while k > box_lo[i] and math.lgamma(k - 1 + a) - math.lgamma(k + 0.0) + (k - 1) * lq - top >= log_cut:
            k -= 1
        lo[i] = k
        modes[i] = mode
    offsets = np.zeros(m + 1, np.int64)
    for i in range(m):
        offsets[i + 1] = offsets[i] + hi[i] - lo[i] + 1
    values = np.empty(offsets[m], np.float64)
    for i in range(m):
        a, lq = shapes[i], log_q[i]
        top = math.lgamma(modes[i] + a) - math.lgamma(modes[i] + 1.0) + modes[i] * lq
        for k in range(lo[i], hi[i] + 1):
            values[offsets[i] + k - lo[i]] = math.exp(math.lgamma(k + a) - math.lgamma(k + 1.0) + k * lq - top)
    return lo, hi, offsets, values


@njit(cache=True)
def _accumulate_pairs(left, right, lo, hi, offsets, values, cap, out_values, out_off, j0, j1, s0, s1):
    """Add the terms ``s0 <= s < s1`` (index into the left node's values) of the convolutions of the node pairs
    ``(left[j], right[j])``, ``j0 <= j < j1``, into ``out_values`` (zeroed by the caller). Consecutive ranges
    of ``s`` add the same terms in the same order as one call over all of them."""
    for j in range(j0, j1):
        lft, r = left[j], right[j]
        lo_new = lo[lft] + lo[r]
        hi_new = min(hi[lft] + hi[r], cap)
        base = out_off[j]
        for s in range(s0, min(s1, hi[lft] - lo[lft] + 1)):
            vl = values[offsets[lft] + s]
            if vl == 0.0:
                continue
            top = min(hi[r] - lo[r], hi_new - lo_new - s)
            for t in range(top + 1):
                out_values[base + s + t] += vl * values[offsets[r] + t]


@njit(cache=True)
def _trim_level(left, right, lo, hi, cap, cut, out_values, out_off, out_lo, out_hi, out_len):
    """Normalise each new node's values (from :func:`_accumulate_pairs`) to max 1, trim them to ``cut`` and move
    them to the start of the node's segment."""
    for j in range(left.size):
        lft, r = left[j], right[j]
        lo_new = lo[lft] + lo[r]
        hi_new = min(hi[lft] + hi[r], cap)
        width = hi_new - lo_new + 1
        base = out_off[j]
        biggest = 0.0
        for k in range(width):
            biggest = max(biggest, out_values[base + k])
        first, last = 0, width - 1
        while first < last and out_values[base + first] < cut * biggest:
            first += 1
        while last > first and out_values[base + last] < cut * biggest:
            last -= 1
        for k in range(last - first + 1):
            out_values[base + k] = out_values[base + first + k] / biggest
        out_lo[j] = lo_new + first
        out_hi[j] = lo_new + last
        out_len[j] = last - first + 1


def _convolve_level(left, right, lo, hi, offsets, values, cap, tick):
    """The new nodes of one tree level: the convolution of each node pair ``(left[j], right[j])``, normalised to
    max 1 and trimmed to :data:`_TAIL_CUT`. Returns ``(out_lo, out_hi, kept values, their lengths)``.

    The work (``width_left * width_right`` multiply-adds per pair) is done in blocks of about
    :data:`_CONVOLVE_BLOCK`, a pair too wide for one block in ranges of its left values, and ``tick(fraction
    of the level done)`` is called after each block: the top levels of 50,000 groups are seconds of work each,
    during which a Cancel would otherwise wait."""
    pairs = left.size
    width = np.maximum(np.minimum(hi[left] + hi[right], cap) - (lo[left] + lo[right]) + 1, 1)
    out_off = np.concatenate([[0], np.cumsum(width)[:-1]]).astype(np.int64)
    out_vals = np.zeros(int(width.sum()))
    left_width = hi[left] - lo[left] + 1
    work = left_width * (hi[right] - lo[right] + 1)
    done = np.cumsum(work)
    total = max(int(done[-1]), 1)
    j = 0
    while j < pairs:
        before = int(done[j - 1]) if j else 0
        if work[j] > _CONVOLVE_BLOCK:  # one wide pair: in ranges of its left node's values
            step = max(1, int(_CONVOLVE_BLOCK // max(1, work[j] // left_width[j])))
            for s0 in range(0, int(left_width[j]), step):
                _accumulate_pairs(left, right, lo, hi, offsets, values, cap, out_vals, out_off, j, j + 1, s0, s0 + step)
                tick((before + work[j] * min(1.0, (s0 + step) / left_width[j])) / total)
            j += 1
            continue
        stop = max(j + 1, int(np.searchsorted(done, before + _CONVOLVE_BLOCK, side="right")))
        _accumulate_pairs(left, right, lo, hi, offsets, values, cap, out_vals, out_off, j, stop, 0, cap + 1)
        tick(done[stop - 1] / total)
        j = stop
    out_lo = np.empty(pairs, np.int64)
    out_hi = np.empty(pairs, np.int64)
    out_len = np.empty(pairs, np.int64)
    _trim_level(left, right, lo, hi, cap, _TAIL_CUT, out_vals, out_off, out_lo, out_hi, out_len)
    if np.any(out_len < 1):
        raise ParameterError("counts", "the public box cannot hold the total")
    first = np.cumsum(out_len) - out_len
    kept = out_vals[np.arange(int(out_len.sum())) + np.repeat(out_off - first, out_len)]
    return out_lo, out_hi, kept, out_len


@njit(cache=True)
def _sample_sets(total, leaves, left, right, lo, hi, offsets, values, uniforms, out):
    """Split the root total down the tree, one uniform per internal node per set (inverse CDF)."""
    nodes = lo.size
    root = nodes - 1
    sums = np.empty(nodes, np.int64)
    weights = np.empty(np.max(hi - lo) + 1, np.float64)  # a split's choices: at most its left child's range
    for row in range(uniforms.shape[0]):
        sums[root] = total
        for node in range(root, leaves - 1, -1):
            s = sums[node]
            lft, r = left[node - leaves], right[node - leaves]
            first = max(lo[lft], s - hi[r])
            last = min(hi[lft], s - lo[r])
            acc = 0.0
            for k in range(first, last + 1):
                acc += values[offsets[lft] + k - lo[lft]] * values[offsets[r] + s - k - lo[r]]
                weights[k - first] = acc
            if last < first or acc <= 0.0:
                raise ValueError("the synthetic total fell outside the computed support")
            target = uniforms[row, node - leaves] * acc
            width = last - first + 1
            # binary search of the cumulative weights
            a_, b_ = 0, width - 1
            while a_ < b_:
                mid = (a_ + b_) // 2
                if weights[mid] > target:
                    b_ = mid
                else:
                    a_ = mid + 1
            pick = first + a_
            sums[lft] = pick
            sums[r] = s - pick
        for i in range(leaves):
            out[row, i] = sums[i]


class ExactSampler:
    """Exact draws from ``prod_i f_i(z_i)`` on ``{sum z = T, box_lo <= z <= box_hi}`` with
    ``f_i(z) ∝ Gamma(z + A_i) / z! * q_i^z`` (eq. 4/10), by the divide-and-conquer tree of the module docstring.
    """

    def __init__(self, shapes, q, box_lo, box_hi, total: int, progress: Progress = None):
        """``progress(fraction, message)`` is called once per level of the tree (about log2 of the number of
        groups levels; the widest, slowest ones come last) and may raise to cancel."""
        shapes = np.asarray(shapes, dtype=np.float64)
        q = np.asarray(q, dtype=np.float64)
        box_lo = np.asarray(box_lo, dtype=np.int64)
        box_hi = np.minimum(np.asarray(box_hi, dtype=np.int64), total)
        self.total = int(total)
        self.leaves = shapes.size
        log_q = np.log(q) + self._tilt(shapes, q, box_lo, box_hi, total)
        lo, hi, offsets, values = _leaves(shapes, log_q, box_lo, box_hi, _LOG_TAIL_CUT)
        level = np.arange(self.leaves)
        count = self.leaves
        lefts, rights = [], []
        all_lo, all_hi, all_off, all_vals = lo, hi, offsets[:-1], values
        levels = max(1, int(np.ceil(np.log2(self.leaves))))
        done = 0
        while level.size > 1:
            message = f"Building the exact sampler: level {done + 1} of {levels}"
            report(progress, done / levels, message)
            pairs = level.size // 2
            left, right = level[0 : 2 * pairs : 2], level[1 : 2 * pairs : 2]
            needed = all_vals.size + int(
                np.sum(np.minimum(all_hi[left] + all_hi[right], total) - (all_lo[left] + all_lo[right]) + 1)
            )
            if needed > MAX_SAMPLER_VALUES:
                raise ParameterError(
                    "groups",
                    f"{self.leaves:,} groups with these counts and priors need an exact sampler larger than the "
                    f"{MAX_SAMPLER_VALUES * 8 / 1e9:.1f} GB one run may use (it passed that at level {done + 1} of "
                    f"{levels}): release the areas in parts (by region, say; each part's total is then published "
                    "too)",
                )
            out_lo, out_hi, keep, out_len = _convolve_level(
                left, right, all_lo, all_hi, all_off, all_vals, total,
                lambda fraction, done=done, message=message: report(progress, (done + fraction) / levels, message),
            )  # fmt: skip
            done += 1
            new_off = all_vals.size + np.cumsum(out_len) - out_len
            # one array per quantity, extended level by level (a list of the levels beside their concatenation
            # had held every value twice)
            all_lo = np.concatenate([all_lo, out_lo])
            all_hi = np.concatenate([all_hi, out_hi])
            all_off = np.concatenate([all_off, new_off])
            all_vals = np.concatenate([all_vals, keep])
            del keep
            lefts.append(left)
            rights.append(right)
            new_ids = np.arange(count, count + pairs)
            count += pairs
            level = np.concatenate([new_ids, level[2 * pairs :]])
        self.lo, self.hi, self.offsets, self.values = all_lo, all_hi, all_off, all_vals
        self.left = np.concatenate(lefts) if lefts else np.empty(0, np.int64)
        self.right = np.concatenate(rights) if rights else np.empty(0, np.int64)
        root = count - 1
        if not (self.lo[root] <= total <= self.hi[root]):
            raise ParameterError("counts", "the public box cannot hold the total")

    @staticmethod
    def _tilt(shapes, q, box_lo, box_hi, total) -> float:
        """``log theta`` so that the tilted (untruncated, then clamped) means add up to ``T``."""

        def excess(log_theta):
            qq = q * math.exp(log_theta)
            mean = shapes * qq / (1.0 - qq)
            return np.clip(mean, box_lo, box_hi).sum() - total

        high = -math.log(q.max()) - 1e-12
        low = high - 50.0
        if excess(low) > 0:
            return low
        for _ in range(200):
            mid = 0.5 * (low + high)
            if excess(mid) > 0:
                high = mid
            else:
                low = mid
        return 0.5 * (low + high)

    @property
    def internal_nodes(self) -> int:
        return self.leaves - 1

    def sample(self, uniforms: np.ndarray) -> np.ndarray:
        """``(m, I)`` synthetic count vectors from ``(m, I - 1)`` uniforms."""
        uniforms = np.ascontiguousarray(uniforms, dtype=np.float64)
        out = np.empty((uniforms.shape[0], self.leaves), np.int64)
        _sample_sets(self.total, self.leaves, self.left, self.right, self.lo, self.hi, self.offsets, self.values,
                     uniforms, out)  # fmt: skip
        return out
