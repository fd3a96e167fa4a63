"""Sparse symmetric positive-definite algebra through banded Cholesky factors, and sparse ones on large meshes.

SPDE precision matrices on a triangular mesh are sparse with a local pattern; after a reverse
Cuthill-McKee reordering their bandwidth grows like the square root of the number of nodes, so
LAPACK's banded Cholesky (``scipy.linalg.cholesky_banded``) factorises them in ``O(n b^2)`` with
``O(n b)`` memory: about a second and 60 MB for 20,000 nodes. It gives log-determinants, solves
and exact Gaussian draws, which is all the LGCP engine needs (no extra dependency such as CHOLMOD). On large
meshes the band's ``O(n^{3/2})`` fill costs more than a fill-reducing ordering's: :class:`SparseCholesky` (SciPy's
SuperLU, nested-dissection ordering, no pivoting) has the same interface, and :func:`cholesky` picks one of the two
by the number of rows (:data:`SPARSE_MIN_NODES`).
"""

from __future__ import annotations

import ctypes
import functools
import threading
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import scipy.linalg
import scipy.sparse as sp
import scipy.sparse.linalg as spla
from scipy.sparse.csgraph import reverse_cuthill_mckee

from .ordering import nested_dissection
from .progress import Progress, report


def sum_log(values) -> float:
    """``sum(log(values))`` of the diagonal of a factor (``np.diag(chol)``, the last row of a banded factor), taken
    from a contiguous copy so that the result does not depend on where NumPy puts its output.

    NumPy (1.24, on CPUs with AVX-512) takes its SIMD ``log`` only when the output does not overlap the input's span,
    which for a strided view is ``stride x length`` bytes and so runs past the view's last element; when the output
    happens to be allocated there, the scalar ``log`` runs instead and some results differ in their last bit. Seeded
    runs then differed now and then (1 in about 1,000 Laplace fits on the tiny test model; the hyperparameter search
    and an MCMC chain magnify it). A contiguous input's span is exactly its own memory."""
    return float(np.sum(np.log(np.ascontiguousarray(values, dtype=np.float64))))


#: Work (multiply-adds) per block of columns that :meth:`BandedCholesky.whiten_inverse` solves between progress
#: calls: about a tenth of a second.
SOLVE_BLOCK_FLOPS = 1e8


_INT, _PTR = ctypes.POINTER(ctypes.c_int), ctypes.c_void_p
_SIGNATURES = {  # scipy.linalg.cython_lapack's C signatures (LP64 ints), as its __pyx_capi__ declares them
    "dpbtrf": (ctypes.c_char_p, _INT, _INT, _PTR, _INT, _INT),
    "dtbtrs": (ctypes.c_char_p, ctypes.c_char_p, ctypes.c_char_p, _INT, _INT, _INT, _PTR, _INT, _PTR, _INT, _INT),
    # scipy.linalg.cython_blas
    "dtrsm": (ctypes.c_char_p,) * 4 + (_INT, _INT, ctypes.POINTER(ctypes.c_double), _PTR, _INT, _PTR, _INT),
}


def _gil_free_lapack(name: str, module: str = "cython_lapack"):
    """LAPACK's ``name`` from SciPy's own LAPACK (``scipy.linalg.cython_lapack``) called through ctypes, which
    releases the GIL during the call; ``None`` if SciPy does not expose it. SciPy's f2py wrappers
    (``cholesky_banded``, ``lapack.dtbtrs``) hold the GIL throughout: a factorisation of a large mesh held every
    other Python thread (the QGIS window, during a preview) for a tenth of a second and more. Same routine, same
    library: the same results."""
    try:
        import importlib

        capsule = importlib.import_module(f"scipy.linalg.{module}").__pyx_capi__[name]
        get_name = ctypes.pythonapi.PyCapsule_GetName
        get_name.restype, get_name.argtypes = ctypes.c_char_p, [ctypes.py_object]
        get_pointer = ctypes.pythonapi.PyCapsule_GetPointer
        get_pointer.restype, get_pointer.argtypes = ctypes.c_void_p, [ctypes.py_object, ctypes.c_char_p]
        address = get_pointer(capsule, get_name(capsule))
    except (ImportError, KeyError, AttributeError, ValueError):  # pragma: no cover (an unusual SciPy build)
        return None
    if not address or "int *" not in str(capsule):
        return None
    return ctypes.CFUNCTYPE(None, *_SIGNATURES[name])(address)


_DPBTRF = _gil_free_lapack("dpbtrf")
_DTBTRS = _gil_free_lapack("dtbtrs")
_DTRSM = _gil_free_lapack("dtrsm", "cython_blas")


def _int(value: int):
    return ctypes.byref(ctypes.c_int(int(value)))


def _cholesky_banded_upper(banded: np.ndarray) -> np.ndarray:
    """``scipy.linalg.cholesky_banded(banded, lower=False)`` (LAPACK ``dpbtrf``), without holding the GIL. A
    Fortran-ordered float64 ``banded`` is factorised in place (no copy: on a large mesh the copy took a fifth of the
    time of the factorisation)."""
    if _DPBTRF is None:  # pragma: no cover
        return scipy.linalg.cholesky_banded(banded, lower=False, check_finite=False)
    ab = np.asfortranarray(banded, dtype=np.float64)
    info = ctypes.c_int(0)
    _DPBTRF(b"U", _int(ab.shape[1]), _int(ab.shape[0] - 1), ab.ctypes.data, _int(ab.shape[0]), ctypes.byref(info))
    if info.value > 0:
        raise np.linalg.LinAlgError(f"{info.value}-th leading minor not positive definite")
    if info.value < 0:
        raise ValueError(f"illegal value in {-info.value}-th argument of internal pbtrf")
    return ab


def _solve_upper_banded(upper: np.ndarray, rhs: np.ndarray) -> tuple[np.ndarray, int]:
    """``U^{-1} rhs`` for ``U`` in upper banded storage (Fortran order), as ``scipy.linalg.lapack.dtbtrs(upper,
    rhs, uplo="U")`` returns it (solution, info), without holding the GIL."""
    if _DTBTRS is None:  # pragma: no cover
        return scipy.linalg.lapack.dtbtrs(upper, rhs, uplo="U")
    b = np.array(rhs, dtype=np.float64, order="F", ndmin=2)
    info = ctypes.c_int(0)
    kd1, n = upper.shape
    _DTBTRS(b"U", b"N", b"N", _int(n), _int(kd1 - 1), _int(b.shape[1]), upper.ctypes.data, _int(kd1), b.ctypes.data,
            _int(max(n, 1)), ctypes.byref(info))  # fmt: skip
    return b, info.value


#: Where the entries of a sparsity pattern go in the band of ``P A P'`` (see :func:`_band_placement`), for the
#: patterns factorised last: a fit factorises the same pattern hundreds of times.
_PLACEMENTS: dict[tuple, tuple[np.ndarray, np.ndarray, int]] = {}
KEPT_PLACEMENTS = 4


def _band_placement(matrix: sp.csr_matrix, perm: np.ndarray) -> tuple[np.ndarray, np.ndarray, int]:
    """For a canonical CSR ``matrix`` and ``perm``: the indices into ``matrix.data`` of the entries in the upper
    triangle of ``P A P'``, their positions in the Fortran-ordered LAPACK upper band of ``P A P'``, and its bandwidth.
    Building the band by permuting the matrix each time took a fifth of a factorisation on a 20,000-node mesh."""
    return _kept(
        _PLACEMENTS, (*_pattern_key(matrix), hash(perm.tobytes())), KEPT_PLACEMENTS, lambda: _placed(matrix, perm)
    )


def _placed(matrix: sp.csr_matrix, perm: np.ndarray) -> tuple[np.ndarray, np.ndarray, int]:
    n = matrix.shape[0]
    inverse = np.empty(n, dtype=np.int64)
    inverse[perm] = np.arange(n)
    rows = inverse[np.repeat(np.arange(n), np.diff(matrix.indptr))]
    cols = inverse[matrix.indices]
    source = np.flatnonzero(rows <= cols)
    rows, cols = rows[source], cols[source]
    bw = int(np.max(cols - rows)) if source.size else 0
    return source, bw + rows - cols + cols * (bw + 1), bw


_KEPT_LOCK = threading.Lock()


def _kept(cache: dict, key: tuple, limit: int, compute: Callable[[], Any]):
    """``cache[key]``, computed by ``compute()`` if missing; the ``limit`` most recently used entries are kept. Safe
    when preview tasks factorise in several threads at once (a missing entry may then be computed twice)."""
    with _KEPT_LOCK:
        value = cache.pop(key, None)
        if value is not None:
            cache[key] = value  # the most recently used last
            return value
    value = compute()
    with _KEPT_LOCK:
        cache[key] = value
        while len(cache) > limit:
            del cache[next(iter(cache))]
    return value


#: Bandwidths from which :meth:`BandedCholesky.whiten_inverse` solves by dense blocks (:class:`_BlockedUpper`)
#: rather than LAPACK's banded ``dtbtrs``, and the least number of columns it solves at once that way.
BLOCKED_MIN_BAND = 32
BLOCKED_MIN_COLUMNS = 256


@functools.lru_cache(maxsize=8)
def _block_places(m: int, w: int, kd: int, shift: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The entries ``(i, j)`` of an ``m x w`` block of a banded upper ``U`` (bandwidth ``kd``) whose columns start
    ``shift`` after its rows (0: a diagonal block, upper triangle; ``m``: the block to its right): their flat
    Fortran-order positions in the block, and their row (``kd - (shift + j - i)``) and column ``j`` in the band."""
    i, j = (a.ravel(order="F") for a in np.meshgrid(np.arange(m), np.arange(w), indexing="ij"))
    lag = shift + j - i
    keep = np.flatnonzero((lag >= 0) & (lag <= kd))
    return keep, kd - lag[keep], j[keep]


class _BlockedUpper:
    """A banded upper triangular ``U`` (bandwidth ``kd``) as dense blocks of ``b = max(kd, 64)`` rows, for solving
    ``U X = Z`` with many columns by level-3 BLAS.

    ``U`` is block upper bidiagonal: diagonal blocks ``U_II`` (upper triangular) and, since ``b >= kd``, blocks
    ``U_I,I+1`` of ``b`` rows and ``min(kd, n - end of I)`` columns (the entries within the band). Back substitution
    ``X_I = U_II^{-1} (Z_I - U_I,I+1 X_I+1)`` is one matrix product and one triangular solve with many right-hand
    sides (``dtrsm``) per block. LAPACK's ``dtbtrs`` solves one column at a time (level 2); on a 20,000-node
    mesh (kd 141) a thousand columns took 0.68 s with it and 0.18-0.28 s by blocks. The blocks take about twice the
    band's memory."""

    def __init__(self, upper: np.ndarray):
        kd, n = upper.shape[0] - 1, upper.shape[1]
        self.n = n
        b = max(kd, 64)
        self.blocks = []  # (start, end, U_II in Fortran order, U_I,I+1 or None)
        for r0 in range(0, n, b):
            r1 = min(r0 + b, n)
            m = r1 - r0
            flat, row, col = _block_places(m, m, kd, 0)
            diag = np.zeros((m, m), order="F")
            diag.reshape(-1, order="F")[flat] = upper[row, r0 + col]
            off = None
            if r1 < n:
                w = min(kd, n - r1)
                flat, row, col = _block_places(m, w, kd, m)
                off = np.zeros((m, w), order="F")
                off.reshape(-1, order="F")[flat] = upper[row, r1 + col]
            self.blocks.append((r0, r1, diag, off))

    def solve(self, rhs: np.ndarray) -> np.ndarray:
        """``U^{-1} rhs`` for an ``(n, k)`` ``rhs``; each block's triangular solve runs without the GIL."""
        x = np.array(rhs, dtype=np.float64, order="C")  # rows of a block are contiguous: B' in Fortran terms
        cols = x.shape[1]
        one = ctypes.c_double(1.0)
        for r0, r1, diag, off in reversed(self.blocks):
            if off is not None:
                x[r0:r1] -= off @ x[r1 : r1 + off.shape[1]]
            m = r1 - r0
            part = x[r0:r1]
            if _DTRSM is None:  # pragma: no cover (an unusual SciPy build)
                x[r0:r1] = scipy.linalg.solve_triangular(diag, part, lower=False, check_finite=False)
                continue
            # X_I' := X_I' U_II^{-T}: side R, upper, transposed, in Fortran order X_I' is (cols, m) with ld cols
            _DTRSM(b"R", b"U", b"T", b"N", _int(cols), _int(m), ctypes.byref(one), diag.ctypes.data, _int(m),
                   part.ctypes.data, _int(max(cols, 1)))  # fmt: skip
        return x


def rcm_permutation(pattern: sp.spmatrix) -> np.ndarray:
    """Fill-reducing (bandwidth-reducing) ordering of a symmetric sparsity pattern."""
    return np.asarray(reverse_cuthill_mckee(sp.csr_matrix(pattern), symmetric_mode=True), dtype=np.int64)


def bandwidth(matrix: sp.spmatrix) -> int:
    """Largest ``|i - j|`` over the stored entries."""
    coo = sp.coo_matrix(matrix)
    return int(np.max(np.abs(coo.row - coo.col))) if coo.nnz else 0


@dataclass(frozen=True)
class BandedCholesky:
    """``P A P' = U' U`` for a sparse SPD ``A`` and a fixed permutation ``P`` (``perm``).

    Attributes:
        upper: ``U`` in LAPACK upper banded storage, shape ``(bw + 1, n)``.
        perm: the permutation: row ``k`` of ``P A P'`` is row ``perm[k]`` of ``A``.
    """

    upper: np.ndarray
    perm: np.ndarray

    @classmethod
    def factor(
        cls, matrix: sp.spmatrix, perm: np.ndarray | None = None, reuse: BandedCholesky | None = None
    ) -> BandedCholesky:
        """Factorise ``matrix`` (SPD); raises ``np.linalg.LinAlgError`` if it is not positive definite. ``reuse``: a
        factor the caller no longer needs, of the same shape, whose memory is overwritten (a fresh band of a
        20,000-node mesh is 40 MB of new pages: 15 ms of page faults here, a tenth of a factorisation)."""
        matrix = sp.csr_matrix(matrix)
        if not matrix.has_canonical_format:
            matrix = matrix.copy()
            matrix.sum_duplicates()
        n = matrix.shape[0]
        if perm is None:
            perm = rcm_permutation(matrix)
        perm = np.asarray(perm, dtype=np.int64)
        source, target, bw = _band_placement(matrix, perm)
        if reuse is not None and reuse.upper.shape == (bw + 1, n) and reuse.upper.flags.f_contiguous:
            banded = reuse.upper
            banded.fill(0.0)
        else:
            banded = np.zeros((bw + 1, n), order="F")  # LAPACK's order: factorised in place
        banded.reshape(-1, order="F")[target] = matrix.data[source]
        upper = _cholesky_banded_upper(banded)
        return cls(upper, perm)

    @property
    def n(self) -> int:
        return self.upper.shape[1]

    @property
    def logdet(self) -> float:
        """``log |A|``."""
        return 2.0 * sum_log(self.upper[-1])

    def solve(self, rhs: np.ndarray) -> np.ndarray:
        """``A^{-1} rhs`` for a vector or an ``(n, k)`` matrix."""
        out = np.empty_like(rhs, dtype=np.float64)
        out[self.perm] = scipy.linalg.cho_solve_banded((self.upper, False), rhs[self.perm], check_finite=False)
        return out

    def whiten_inverse(self, z: np.ndarray, progress: Progress = None, message: str = "") -> np.ndarray:
        """``x`` with ``x ~ N(0, A^{-1})`` when ``z ~ N(0, I)``: ``x = P' U^{-1} z``.

        The columns of an ``(n, k)`` ``z`` are solved in groups of about :data:`SOLVE_BLOCK_FLOPS` operations,
        calling ``progress(fraction, message)`` after each: a thousand draws on a mesh of 7,000 nodes are seconds
        of work, during which a Cancel would otherwise wait. From a bandwidth of :data:`BLOCKED_MIN_BAND` on, by
        dense blocks (:class:`_BlockedUpper`, at least :data:`BLOCKED_MIN_COLUMNS` columns a group), below by
        LAPACK's triangular banded solve ``dtbtrs``. A call's groups depend only on the shapes, so the same ``z``
        gives the same ``x``; groups of other sizes agree to rounding."""
        z = np.asarray(z, dtype=np.float64)
        columns = z.reshape(z.shape[0], -1)
        upper = np.asfortranarray(self.upper)
        step = max(1, int(SOLVE_BLOCK_FLOPS // (2 * upper.size)))
        blocked = None
        if upper.shape[0] - 1 >= BLOCKED_MIN_BAND:
            if not np.all(upper[-1] != 0):
                raise np.linalg.LinAlgError("the banded factor is singular (a zero on its diagonal)")
            blocked = _BlockedUpper(upper)
            step = max(step, BLOCKED_MIN_COLUMNS)
        out = np.empty_like(columns)
        for start in range(0, columns.shape[1], step):
            if blocked is not None:
                block = blocked.solve(columns[:, start : start + step])
            else:
                block, info = _solve_upper_banded(upper, columns[:, start : start + step])
                if info != 0:
                    raise np.linalg.LinAlgError(f"the banded factor is singular (LAPACK dtbtrs info {info})")
            out[self.perm, start : start + step] = block
            report(progress, min(start + step, columns.shape[1]) / columns.shape[1], message)
        return out.reshape(z.shape)


#: From this many rows on :func:`cholesky` factorises with :class:`SparseCholesky` rather than
#: :class:`BandedCholesky`: from where the band's memory (``n`` times a bandwidth that grows like ``sqrt n``) would
#: take a fit past 4 GB. Measured on SPDE precisions (plus a diagonal, like the Hessian ``Q + B'DB``) of meshes on a
#: square, 2-core machine, factorisation banded / sparse: 16,000 nodes 0.12 / 0.15 s and 61 / 31 MB; 26,000 nodes
#: 0.33 / 0.34 s and 130 / 57 MB; 50,223 nodes (bandwidth 844) 0.54-0.8 / 0.69 s (2.3 s the first time, with its
#: ordering) and 340 / 100 MB, 256 draws 0.83 / 5.7 s (the banded factor solves by dense blocks); 99,000 nodes 3.3 /
#: 2.7 s and 940 / 260 MB. A fit holds about five bands at once while it draws (the last Newton step's, the fit's,
#: the draws' blocks): 1.7 GB at 50,000 nodes, 4.7 GB at 99,000. Those sparse figures are SuperLU's minimum-degree
#: ordering's; under nested dissection (core.ordering) the LGCP Hessian of clustered points, best of three
#: (tests/benchmarks/bench_factor.py, banded / sparse): 20,128 nodes 0.17 / 0.18 s, 50,223 nodes 0.64 / 0.59 s,
#: 100,198 nodes 1.76 / 1.11 s (minimum degree 2.09 s), and the sparse factor a third of the band's entries at
#: 50,223 nodes and a quarter at 100,198.
SPARSE_MIN_NODES = 60_000

#: :meth:`SparseCholesky.whiten_inverse` solves at least this many columns at a time: SuperLU's solve with several
#: right-hand sides works by dense blocks, 18 ms a column from 8 columns on against 35 ms one at a time (100,198
#: nodes, 40 million entries in ``L`` and ``U``).
SPARSE_SOLVE_COLUMNS = 16

#: Fill-reducing orderings of the sparsity patterns factorised last (pattern key -> ordering), at most
#: :data:`KEPT_ORDERINGS`: a fit factorises the same pattern hundreds of times.
_ORDERINGS: dict[tuple, np.ndarray] = {}
KEPT_ORDERINGS = 4


def _pattern_key(matrix: sp.csc_matrix) -> tuple:
    """A key of a CSC matrix's sparsity pattern (sorted indices): equal patterns, equal keys."""
    return matrix.shape[0], matrix.nnz, hash(matrix.indptr.tobytes()), hash(matrix.indices.tobytes())


def _superlu(matrix: sp.csc_matrix, permc_spec: str) -> spla.SuperLU:
    """SuperLU's ``P A P' = L U`` with the diagonal as pivot (symmetric mode, ``diag_pivot_thresh=0``)."""
    try:
        lu = spla.splu(matrix, permc_spec=permc_spec, diag_pivot_thresh=0.0, options={"SymmetricMode": True})
    except RuntimeError as error:  # SuperLU: "Factor is exactly singular"
        raise np.linalg.LinAlgError(f"not positive definite ({error})") from error
    if not np.array_equal(lu.perm_r, lu.perm_c):
        raise np.linalg.LinAlgError("not positive definite (SuperLU pivoted off the diagonal)")
    return lu


@dataclass(frozen=True)
class SparseCholesky:
    """``P A P' = L D L'`` (``L`` unit lower triangular, ``D`` diagonal) for a sparse SPD ``A``, from SciPy's SuperLU
    with a symmetric fill-reducing ordering (nested dissection, core.ordering) and no pivoting.

    SuperLU factorises ``P A P' = L U``; with the diagonal as pivot (``diag_pivot_thresh=0``, symmetric mode) and an
    SPD ``A`` the factorisation is unique and ``U = D L'``, so ``L D^{1/2}`` is the Cholesky factor of ``P A P'``.
    The banded factor's fill grows like ``n^{3/2}`` (``n`` rows times a bandwidth of ``sqrt n``); a nested-dissection
    ordering's fill grows like ``n log n`` on a planar mesh, so on large meshes this factor is faster and smaller.
    Same interface as :class:`BandedCholesky` (``factor``, ``n``, ``logdet``, ``solve``, ``whiten_inverse``), no new
    dependency.

    Attributes:
        lu: SciPy's ``SuperLU`` object of ``P A P'`` (the rows already in order: SuperLU permutes no further).
        perm: the permutation: row ``k`` of ``P A P'`` is row ``perm[k]`` of ``A``.
    """

    lu: spla.SuperLU = field(repr=False)
    perm: np.ndarray

    @classmethod
    def factor(cls, matrix: sp.spmatrix, perm: np.ndarray | None = None) -> SparseCholesky:
        """Factorise ``matrix`` (SPD); raises ``np.linalg.LinAlgError`` at a zero pivot here, and at a negative one
        when the diagonal is first needed (:attr:`diagonal`: log-determinant, draws). ``perm`` is
        accepted for the interface of :meth:`BandedCholesky.factor` and ignored: the rows are ordered by nested
        dissection (core.ordering), which reduces fill far more than a bandwidth-reducing ordering. The
        ordering of a sparsity pattern is kept (see :data:`_ORDERINGS`), so that the many factorisations of one
        pattern (Newton steps, hyperparameters) compute it once."""
        del perm
        matrix = sp.csc_matrix(matrix, dtype=np.float64)
        matrix.sort_indices()
        key = _pattern_key(matrix)
        order = _kept(_ORDERINGS, key, KEPT_ORDERINGS, lambda: nested_dissection(matrix))
        return cls(_superlu(sp.csc_matrix(matrix[order][:, order]), "NATURAL"), order)

    @functools.cached_property
    def diagonal(self) -> np.ndarray:
        """``D``, the diagonal of ``U``; raises ``np.linalg.LinAlgError`` if a pivot is not positive (``A`` is not
        positive definite). Computed when first needed (log-determinant, draws): SciPy copies all of ``L`` and ``U``
        out of SuperLU for it, up to 1 s at 100,000 nodes (40 million entries under minimum degree, 31 million under
        nested dissection), which a Newton step's solve does not need (a fit needs the log-determinant only at its
        last factorisation)."""
        diagonal = self.lu.U.diagonal()
        if not np.all(diagonal > 0):
            raise np.linalg.LinAlgError("not positive definite (a pivot is not positive)")
        return diagonal

    @property
    def n(self) -> int:
        return self.lu.shape[0]

    @property
    def logdet(self) -> float:
        """``log |A|``."""
        return sum_log(self.diagonal)

    @property
    def nnz(self) -> int:
        """Entries stored in ``L`` and ``U``."""
        return int(self.lu.nnz)

    def solve(self, rhs: np.ndarray) -> np.ndarray:
        """``A^{-1} rhs`` for a vector or an ``(n, k)`` matrix."""
        rhs = np.asarray(rhs, dtype=np.float64)
        out = np.empty_like(rhs)
        out[self.perm] = self.lu.solve(rhs[self.perm])
        return out

    def whiten_inverse(self, z: np.ndarray, progress: Progress = None, message: str = "") -> np.ndarray:
        """``x`` with ``x ~ N(0, A^{-1})`` when ``z ~ N(0, I)``: ``x = P' L^{-T} D^{-1/2} z``.

        Computed as ``P x = (P A P')^{-1} L D^{1/2} z`` (one product with ``L`` and SuperLU's two triangular solves,
        all in compiled code): ``L^{-T} D^{-1/2} = (L D L')^{-1} L D^{1/2}``. The columns of an ``(n, k)`` ``z`` are
        done in blocks of about :data:`SOLVE_BLOCK_FLOPS` operations, calling ``progress(fraction, message)`` after
        each, as :meth:`BandedCholesky.whiten_inverse`."""
        z = np.asarray(z, dtype=np.float64)
        columns = z.reshape(z.shape[0], -1)
        lower = self.lu.L  # unit lower triangular, CSC (a CSR copy took 0.7 s at 100,000 nodes; products as fast)
        root = np.sqrt(self.diagonal)[:, None]
        step = max(SPARSE_SOLVE_COLUMNS, int(SOLVE_BLOCK_FLOPS // (2 * (lower.nnz + self.nnz))))
        out = np.empty_like(columns)
        for start in range(0, columns.shape[1], step):
            stop = min(start + step, columns.shape[1])
            out[self.perm, start:stop] = self.lu.solve(lower @ (root * columns[:, start:stop]))
            report(progress, stop / columns.shape[1], message)
        return out.reshape(z.shape)


def cholesky(matrix: sp.spmatrix, perm: np.ndarray | None = None, reuse=None) -> BandedCholesky | SparseCholesky:
    """The Cholesky factorisation that pays for ``matrix``'s size: :class:`BandedCholesky` (with the
    bandwidth-reducing ``perm``) below :data:`SPARSE_MIN_NODES` rows, :class:`SparseCholesky` from there on.
    ``reuse``: a factor no longer needed, whose memory a banded factor may overwrite."""
    if matrix.shape[0] >= SPARSE_MIN_NODES:
        return SparseCholesky.factor(matrix)
    return BandedCholesky.factor(matrix, perm, reuse=reuse if isinstance(reuse, BandedCholesky) else None)
