"""Sparse symmetric positive-definite algebra through banded Cholesky factors, and sparse ones on large meshes.

SPDE precision matrices on a triangular mesh are sparse with a local pattern; after a reverse
Cuthill-McKee reordering their bandwidth grows like the square root of the number of nodes, so
LAPACK's banded Cholesky (``scipy.linalg.cholesky_banded``) factorises them in ``O(n b^2)`` with
``O(n b)`` memory: about a second and 60 MB for 20,000 nodes. It gives log-determinants, solves
and exact Gaussian draws, which is all the LGCP engine needs (no extra dependency such as CHOLMOD). On large
meshes the band's ``O(n^{3/2})`` fill costs more than a fill-reducing ordering's: :class:`SparseCholesky` (SciPy's
SuperLU, minimum-degree ordering, no pivoting) has the same interface, and :func:`cholesky` picks one of the two
by the number of rows (:data:`SPARSE_MIN_NODES`).
"""

from __future__ import annotations

import ctypes
from dataclasses import dataclass, field

import numpy as np
import scipy.linalg
import scipy.sparse as sp
import scipy.sparse.linalg as spla
from scipy.sparse.csgraph import reverse_cuthill_mckee

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
}


def _gil_free_lapack(name: str):
    """LAPACK's ``name`` from SciPy's own LAPACK (``scipy.linalg.cython_lapack``) called through ctypes, which
    releases the GIL during the call; ``None`` if SciPy does not expose it. SciPy's f2py wrappers
    (``cholesky_banded``, ``lapack.dtbtrs``) hold the GIL throughout: a factorisation of a large mesh held every
    other Python thread (the QGIS window, during a preview) for a tenth of a second and more. Same routine, same
    library: the same results."""
    try:
        from scipy.linalg import cython_lapack

        capsule = cython_lapack.__pyx_capi__[name]
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
    def factor(cls, matrix: sp.spmatrix, perm: np.ndarray | None = None) -> BandedCholesky:
        """Factorise ``matrix`` (SPD); raises ``np.linalg.LinAlgError`` if it is not positive definite."""
        matrix = sp.csr_matrix(matrix)
        n = matrix.shape[0]
        if perm is None:
            perm = rcm_permutation(matrix)
        permuted = sp.triu(matrix[perm][:, perm], format="coo")
        bw = int(np.max(permuted.col - permuted.row)) if permuted.nnz else 0
        banded = np.zeros((bw + 1, n), order="F")  # LAPACK's order: factorised in place
        banded[bw + permuted.row - permuted.col, permuted.col] = permuted.data
        upper = _cholesky_banded_upper(banded)
        return cls(upper, np.asarray(perm, dtype=np.int64))

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

        The columns of an ``(n, k)`` ``z`` are solved in blocks of about :data:`SOLVE_BLOCK_FLOPS` operations
        (LAPACK's triangular banded solve, ``dtbtrs``), calling ``progress(fraction, message)`` after each: a
        thousand draws on a mesh of 7,000 nodes are seconds of work in LAPACK, during which a Cancel would
        otherwise wait. Each column is solved by the same operations whatever the blocks."""
        z = np.asarray(z, dtype=np.float64)
        columns = z.reshape(z.shape[0], -1)
        upper = np.asfortranarray(self.upper)
        step = max(1, int(SOLVE_BLOCK_FLOPS // (2 * upper.size)))
        out = np.empty_like(columns)
        for start in range(0, columns.shape[1], step):
            block, info = _solve_upper_banded(upper, columns[:, start : start + step])
            if info != 0:
                raise np.linalg.LinAlgError(f"the banded factor is singular (LAPACK dtbtrs info {info})")
            out[self.perm, start : start + step] = block
            report(progress, min(start + step, columns.shape[1]) / columns.shape[1], message)
        return out.reshape(z.shape)


#: From this many rows on :func:`cholesky` factorises with :class:`SparseCholesky` rather than
#: :class:`BandedCholesky`. Measured on SPDE precisions (plus a diagonal, like the Hessian ``Q + B'DB``) of meshes
#: on a square, 2-core machine, factorisation banded / sparse: 16,000 nodes 0.12 / 0.15 s and 61 / 31 MB; 26,000
#: nodes 0.33 / 0.34 s and 130 / 57 MB; 42,500 nodes 0.56 / 0.62 s and 265 / 100 MB; 99,000 nodes 3.3 / 2.7 s and
#: 940 / 260 MB; solves and draws with the sparse factor 1.4-4.5 times faster from 26,000 nodes on. Below this the
#: banded factor is as fast or faster (LAPACK's blocked banded Cholesky has no ordering or bookkeeping to pay).
SPARSE_MIN_NODES = 25_000

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
    with a symmetric fill-reducing ordering (minimum degree on ``A + A'``) and no pivoting.

    SuperLU factorises ``P A P' = L U``; with the diagonal as pivot (``diag_pivot_thresh=0``, symmetric mode) and an
    SPD ``A`` the factorisation is unique and ``U = D L'``, so ``L D^{1/2}`` is the Cholesky factor of ``P A P'``.
    The banded factor's fill grows like ``n^{3/2}`` (``n`` rows times a bandwidth of ``sqrt n``); a minimum-degree
    ordering's fill grows like ``n log n`` on a planar mesh, so on large meshes this factor is faster and smaller.
    Same interface as :class:`BandedCholesky` (``factor``, ``n``, ``logdet``, ``solve``, ``whiten_inverse``), no new
    dependency.

    Attributes:
        lu: SciPy's ``SuperLU`` object of ``P A P'`` (the rows already in order: SuperLU permutes no further).
        perm: the permutation: row ``k`` of ``P A P'`` is row ``perm[k]`` of ``A``.
        diagonal: ``D``, the diagonal of ``U``.
    """

    lu: spla.SuperLU = field(repr=False)
    perm: np.ndarray
    diagonal: np.ndarray

    @classmethod
    def factor(cls, matrix: sp.spmatrix, perm: np.ndarray | None = None) -> SparseCholesky:
        """Factorise ``matrix`` (SPD); raises ``np.linalg.LinAlgError`` if it is not positive definite. ``perm`` is
        accepted for the interface of :meth:`BandedCholesky.factor` and ignored: the rows are ordered by minimum
        degree (SuperLU's ``MMD_AT_PLUS_A``), which reduces fill far more than a bandwidth-reducing ordering. The
        ordering of a sparsity pattern is kept (see :data:`_ORDERINGS`), so that the many factorisations of one
        pattern (Newton steps, hyperparameters) compute it once."""
        del perm
        matrix = sp.csc_matrix(matrix, dtype=np.float64)
        matrix.sort_indices()
        key = _pattern_key(matrix)
        order = _ORDERINGS.pop(key, None)
        if order is None:
            order = np.argsort(_superlu(matrix, "MMD_AT_PLUS_A").perm_c).astype(np.int64)
        _ORDERINGS[key] = order  # the most recently used last
        while len(_ORDERINGS) > KEPT_ORDERINGS:
            del _ORDERINGS[next(iter(_ORDERINGS))]
        lu = _superlu(sp.csc_matrix(matrix[order][:, order]), "NATURAL")
        diagonal = lu.U.diagonal()
        if not np.all(diagonal > 0):
            raise np.linalg.LinAlgError("not positive definite (a pivot is not positive)")
        return cls(lu, order, diagonal)

    @property
    def n(self) -> int:
        return self.diagonal.shape[0]

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
        lower = sp.csr_matrix(self.lu.L)  # unit lower triangular
        root = np.sqrt(self.diagonal)[:, None]
        step = max(1, int(SOLVE_BLOCK_FLOPS // (2 * (lower.nnz + self.nnz))))
        out = np.empty_like(columns)
        for start in range(0, columns.shape[1], step):
            stop = min(start + step, columns.shape[1])
            out[self.perm, start:stop] = self.lu.solve(lower @ (root * columns[:, start:stop]))
            report(progress, stop / columns.shape[1], message)
        return out.reshape(z.shape)


def cholesky(matrix: sp.spmatrix, perm: np.ndarray | None = None) -> BandedCholesky | SparseCholesky:
    """The Cholesky factorisation that pays for ``matrix``'s size: :class:`BandedCholesky` (with the
    bandwidth-reducing ``perm``) below :data:`SPARSE_MIN_NODES` rows, :class:`SparseCholesky` from there on."""
    if matrix.shape[0] >= SPARSE_MIN_NODES:
        return SparseCholesky.factor(matrix)
    return BandedCholesky.factor(matrix, perm)
