"""Posterior draws of an LGCP fit (:class:`Posterior`, from core.laplace_fit or core.mcmc) and its model
file: a compressed ``.npz`` of plain arrays and JSON metadata, read back without pickle, with a member that
labels it confidential.
"""

from __future__ import annotations

import json
import struct
import zipfile
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

import numpy as np
import scipy.sparse as sp

from . import draw_store
from .draw_store import row_blocks
from .errors import ParameterError
from .files import replaced_when_done
from .progress import Progress, report

if TYPE_CHECKING:
    from .lgcp import LGCPModel


#: What each array of a model file holds, in the words of a message about a damaged file.
_CONTENTS = {
    "beta": "draws of the coefficients",
    "w": "draws of the field",
    "log_range": "draws of the field's range",
    "log_sigma": "draws of the field's standard deviation",
    "nodes": "mesh nodes",
    "triangles": "mesh triangles",
    "int_weights": "integration weights",
    "x_int": "covariates at the integration points",
    "offset_int": "offsets at the integration points",
    "int_proj_data": "integration points' interpolation weights",
    "x_nodes": "covariates at the mesh nodes",
    "offset_nodes": "offsets at the mesh nodes",
    "window_xy": "study window's vertices",
    "window_lengths": "study window's rings",
}

#: The member of a model file (a zip of .npy arrays) that labels it, seen by ``unzip -l`` or any zip viewer.
MODEL_FILE_LABEL = "CONFIDENTIAL_not_for_publication"


@dataclass
class Posterior:
    """Posterior draws of an LGCP fit, with everything needed to evaluate the intensity.

    Attributes:
        method: ``"laplace"`` (fast) or ``"mcmc"``.
        names: coefficient names (``beta`` columns).
        beta: ``(L, p)`` draws; w: ``(L, n)`` draws of the mesh weights;
        log_range, log_sigma: ``(L,)`` draws of ``theta``.
        nodes, triangles: the mesh; int_proj, int_weights, x_int, offset_int: the integration design.
        diagnostics: method-specific facts (grid, effective sample sizes, timings).
    """

    method: str
    names: tuple[str, ...]
    beta: np.ndarray
    w: np.ndarray
    log_range: np.ndarray
    log_sigma: np.ndarray
    nodes: np.ndarray
    triangles: np.ndarray
    int_proj: sp.csr_matrix
    int_weights: np.ndarray
    x_int: np.ndarray
    offset_int: np.ndarray
    diagnostics: dict = field(default_factory=dict)
    x_nodes: np.ndarray | None = None  # (n, p) covariates at the mesh nodes, for synthesis (optional)
    offset_nodes: np.ndarray | None = None  # (n,) log offset at the mesh nodes (optional)
    window_xy: np.ndarray | None = None  # (k, 2) vertices of the study window's rings, concatenated (optional)
    window_lengths: np.ndarray | None = None  # vertices per ring (optional)

    @property
    def n_draws(self) -> int:
        return self.beta.shape[0]

    # -- what the model was fitted to (for the synthesis tools' checks) ---------------------------

    def record_source(self, x, y, window, crs: str = "") -> None:
        """Store the study window and a fingerprint of the confidential points (count, SHA-256 of the
        sorted coordinates, CRS), so a tool given this model and a point layer can tell whether the
        layer is the one the model was fitted to. The fingerprint is no safer than the model file itself:
        both are confidential."""
        self.diagnostics["source"] = {"n_points": int(np.size(x)), "digest": points_digest(x, y), "crs": str(crs)}
        self.window_xy = np.concatenate([np.asarray(r, dtype=np.float64) for r in window.rings])
        self.window_lengths = np.array([len(r) for r in window.rings], dtype=np.int64)

    def check_source(self, x, y, crs: str = "") -> None:
        """Refuse points that are not the ones the model was fitted to (see :meth:`record_source`)."""
        source = self.diagnostics.get("source")
        if source is None:
            raise ParameterError("model", "the model file does not record its points: refit it with this version")
        n = int(np.size(x))
        if source["n_points"] != n:
            raise ParameterError(
                "model", f"the model was fitted to {source['n_points']} points, but the point layer has {n}"
            )
        refit = (
            "points reprojected (or rounded) count as different points, even at the same places: fit the model on "
            "the layer as it is given here, in the same CRS and working CRS (WORK_CRS)"
        )
        if source.get("crs", "") != str(crs):
            raise ParameterError(
                "model",
                f"the model was fitted in CRS {source.get('crs') or 'none'!r}, the points are in {crs or 'none'!r}; "
                f"{refit}",
            )
        if source["digest"] != points_digest(x, y):
            raise ParameterError(
                "model", f"the model was fitted to other points (same count, different locations); {refit}"
            )

    def window(self):
        """The study window stored by :meth:`record_source` (a :class:`core.window.Window`), or None."""
        if self.window_xy is None:
            return None
        from .window import Window

        ends = np.cumsum(self.window_lengths)
        return Window(tuple(self.window_xy[e - k : e] for e, k in zip(ends, self.window_lengths)))

    @property
    def range(self) -> np.ndarray:
        """Effective range ``rho`` per draw (distance units)."""
        return np.exp(self.log_range)

    @property
    def sigma(self) -> np.ndarray:
        """Marginal standard deviation of the field per draw."""
        return np.exp(self.log_sigma)

    def summary(self) -> list[tuple[str, float, float, float, float]]:
        """Rows ``(name, mean, sd, 2.5%, 97.5%)`` for the coefficients, the effective range and the
        marginal variance of the field."""
        columns = [(name, self.beta[:, j]) for j, name in enumerate(self.names)]
        columns += [("range", self.range), ("variance", self.sigma**2)]
        return [
            (
                name,
                float(np.mean(v)),
                float(np.std(v, ddof=1)),
                float(np.quantile(v, 0.025)),
                float(np.quantile(v, 0.975)),
            )
            for name, v in columns
        ]

    def linear_predictor(self, proj: sp.spmatrix, x: np.ndarray, offset: np.ndarray | None = None) -> np.ndarray:
        """``(L, k)`` draws of ``log lambda`` at k locations with projection ``proj`` and covariates ``x``."""
        eta = self.beta @ np.asarray(x, dtype=np.float64).T + (proj @ self.w.T).T
        return eta if offset is None else eta + offset

    def log_intensity_blocks(
        self, proj: sp.spmatrix, x: np.ndarray, offset: np.ndarray | None = None
    ) -> Iterator[tuple[slice, np.ndarray]]:
        """The draws of ``log lambda`` at k locations (projection ``proj``, covariates ``x``, log offset ``offset``) in
        blocks of draws: ``(rows, eta)`` with ``eta`` of shape ``(k, rows' draws)``, about
        :data:`.draw_store.BLOCK_VALUES` values (or one mesh's worth of draws) a block. The draws are read once, a
        block at a time, so a summary over them needs memory for a block, not for draws times locations."""
        proj = sp.csr_matrix(proj)
        x = np.asarray(x, dtype=np.float64)
        off = None if offset is None else np.asarray(offset, dtype=np.float64)[:, None]
        for rows in row_blocks(self.n_draws, max(proj.shape[0], self.w.shape[1])):
            eta = np.asarray(proj @ np.array(self.w[rows]).T)  # a copy: the draws may be mapped from a file
            eta += x @ self.beta[rows].T
            if off is not None:
                eta += off
            yield rows, eta

    def intensity_summary(
        self, proj: sp.spmatrix, x: np.ndarray, offset: np.ndarray | None = None, progress: Progress = None
    ) -> tuple[np.ndarray, np.ndarray]:
        """Posterior mean and sd of ``lambda`` at k locations, from :meth:`log_intensity_blocks`: each block's mean
        and sum of squared deviations merged into the running ones (Chan, Golub & LeVeque 1983). ``progress``
        (which may raise to cancel) is called after each block."""
        k = proj.shape[0]
        mean, squares, seen = np.zeros(k), np.zeros(k), 0
        for rows, eta in self.log_intensity_blocks(proj, x, offset):
            report(progress, rows.start / self.n_draws, "Posterior intensity")
            lam = np.exp(eta, out=eta)
            count = lam.shape[1]
            block_mean = lam.mean(axis=1)
            lam -= block_mean[:, None]
            delta = block_mean - mean
            mean += delta * (count / (seen + count))
            squares += np.einsum("ij,ij->i", lam, lam) + delta**2 * (seen * count / (seen + count))
            seen += count
        sd = np.sqrt(squares / (seen - 1)) if seen > 1 else np.full(k, np.nan)
        return mean, sd

    def integrated_intensity(self) -> np.ndarray:
        """``int_W lambda`` per draw by the dual-mesh quadrature (Walder eq. 30), from
        :meth:`log_intensity_blocks`."""
        out = np.empty(self.n_draws)
        for rows, eta in self.log_intensity_blocks(self.int_proj, self.x_int, self.offset_int):
            out[rows] = self.int_weights @ np.exp(eta, out=eta)
        return out

    @classmethod
    def from_model(
        cls, model: LGCPModel, method: str, beta: np.ndarray, w: np.ndarray, theta: np.ndarray, diagnostics: dict
    ) -> Posterior:
        """Draws of ``(beta, w, theta)`` together with the model's mesh and integration design, as every
        fitting method returns them. The field maps theta to (log range, log sigma): for the SPDE prior
        theta is exactly that; for a knot covariance the "range" is its length scale ``l``."""
        d = model.design
        mesh = model.mesh
        log_range, log_sigma = model.spde.range_sigma(theta)
        diagnostics = {"field": type(model.spde).__name__, **diagnostics}
        return cls(
            method=method,
            names=d.names,
            beta=beta,
            w=w,
            log_range=log_range,
            log_sigma=log_sigma,
            nodes=np.asarray(mesh.nodes) if mesh is not None else np.empty((0, 2)),
            triangles=np.asarray(mesh.triangles) if mesh is not None else np.empty((0, 3), dtype=np.int64),
            int_proj=d.int_proj,
            int_weights=d.int_weights,
            x_int=d.x_int,
            offset_int=d.offset_int,
            diagnostics=diagnostics,
        )

    _ARRAYS = ("beta", "w", "log_range", "log_sigma", "nodes", "triangles", "int_weights", "x_int", "offset_int")

    def save(self, path: str) -> None:
        """Write to a compressed ``.npz`` file that :meth:`load` reads back."""
        arrays = {k: getattr(self, k) for k in self._ARRAYS}
        if self.x_nodes is not None:
            arrays.update(x_nodes=self.x_nodes, offset_nodes=self.offset_nodes)
        if self.window_xy is not None:
            arrays.update(window_xy=self.window_xy, window_lengths=self.window_lengths)
        proj = sp.csr_matrix(self.int_proj)
        arrays.update(
            int_proj_data=proj.data,
            int_proj_indices=proj.indices,
            int_proj_indptr=proj.indptr,
            int_proj_shape=np.array(proj.shape),
        )
        meta = json.dumps(
            {
                "method": self.method,
                "names": list(self.names),
                "diagnostics": self.diagnostics,
                "format": "spatial_privacy.lgcp.Posterior/1",
            },
            default=float,
        )
        # written beside the target and moved onto it when complete: a failed write (a full disk) must not
        # leave a truncated model where a good one was
        # the file holds the confidential points' posterior: a member named so says it to anyone who lists it
        label = {MODEL_FILE_LABEL: np.array("fitted to confidential points; not for publication")}
        members = {"meta": np.array(meta), **label, **arrays}
        with replaced_when_done(path) as partial, open(partial, "wb") as handle:
            with zipfile.ZipFile(handle, "w", allowZip64=True) as archive:
                for name, value in members.items():
                    _write_member(archive, handle, name, np.asanyarray(value), stored=name in _STORED)

    @classmethod
    def load(cls, path: str) -> Posterior:
        with np.load(path, allow_pickle=False) as data:
            meta = json.loads(str(data["meta"]))
            if meta.get("format") != "spatial_privacy.lgcp.Posterior/1":
                raise ParameterError("model", f"{path} is not a Spatial Privacy LGCP model file")
            info = data.zip.getinfo("w.npy") if "w.npy" in data.zip.namelist() else None
            mapped = info is not None and info.compress_type == zipfile.ZIP_STORED
            mapped = mapped and info.file_size > draw_store.IN_MEMORY_BYTES
            arrays = {k: _mapped(path, info) if k == "w" and mapped else data[k] for k in cls._ARRAYS}
            if "x_nodes" in data.files:
                arrays.update(x_nodes=data["x_nodes"], offset_nodes=data["offset_nodes"])
            if "window_xy" in data.files:
                arrays.update(window_xy=data["window_xy"], window_lengths=data["window_lengths"])
            arrays["int_proj_data"] = data["int_proj_data"]
            for name, values in arrays.items():
                if values.dtype.kind not in "biuf" or not _all_finite(values):
                    raise ParameterError(
                        "model",
                        f"{path} is damaged: its {_CONTENTS.get(name, name)} hold values that are not finite numbers "
                        "(NaN or infinite); fit the model again with spatialprivacy:fitlgcp",
                    )
            proj = sp.csr_matrix(
                (arrays.pop("int_proj_data"), data["int_proj_indices"], data["int_proj_indptr"]),
                shape=tuple(data["int_proj_shape"]),
            )
        return cls(
            method=meta["method"], names=tuple(meta["names"]), diagnostics=meta["diagnostics"], int_proj=proj, **arrays
        )


#: Members of a model file stored uncompressed, so that :meth:`Posterior.load` can map them: the draws of the field
#: (random doubles, which compress by a few per cent).
_STORED = ("w",)

#: The header id of the zip "extra field" that pads a stored member so that its array starts on a 64-byte boundary.
_PADDING_ID = 0x5350


def _write_member(archive: zipfile.ZipFile, handle, name: str, value: np.ndarray, stored: bool) -> None:
    """Write ``value`` as ``name.npy`` into ``archive`` (open on ``handle``), streaming it in blocks (numpy's
    ``write_array`` does so for a file that is not a plain file), as ``numpy.savez`` would. A stored member is
    padded (:data:`_PADDING_ID`) so that its data start on a 64-byte boundary: numpy's header keeps that alignment,
    so the mapped array of :func:`_mapped` is aligned."""
    info = zipfile.ZipInfo(name + ".npy", date_time=(1980, 1, 1, 0, 0, 0))
    info.compress_type = zipfile.ZIP_STORED if stored else zipfile.ZIP_DEFLATED
    if stored:  # a local header is 30 bytes, the name, the extra fields and (forced) zip64 sizes of 20 bytes
        start = handle.tell() + 30 + len(info.filename.encode()) + 4 + 20
        info.extra = struct.pack("<HH", _PADDING_ID, -start % 64) + bytes(-start % 64)
    with archive.open(info, "w", force_zip64=True) as member:
        np.lib.format.write_array(member, value, allow_pickle=False)


def _all_finite(values: np.ndarray) -> bool:
    """Whether every value is finite, checked in blocks of rows (a mapped array is read, not copied, whole)."""
    if values.ndim == 0:
        return bool(np.isfinite(values))
    width = values.size // max(len(values), 1)
    return all(np.all(np.isfinite(values[rows])) for rows in row_blocks(len(values), width))


def _mapped(path: str, info: zipfile.ZipInfo) -> np.ndarray:
    """The array of the uncompressed member ``info`` of the model file ``path``, mapped read-only from the file."""
    with open(path, "rb") as handle:
        handle.seek(info.header_offset)
        header = handle.read(30)
        if len(header) < 30 or header[:4] != b"PK\x03\x04":
            raise ValueError(f"a damaged zip entry {info.filename}")
        name_length, extra_length = struct.unpack("<HH", header[26:30])
        handle.seek(info.header_offset + 30 + name_length + extra_length)
        version = np.lib.format.read_magic(handle)
        read_header = np.lib.format.read_array_header_1_0 if version == (1, 0) else np.lib.format.read_array_header_2_0
        shape, fortran, dtype = read_header(handle)
        offset = handle.tell()
    if dtype.hasobject or offset + dtype.itemsize * int(np.prod(shape)) > info.header_offset + 30 + name_length + (
        extra_length + info.file_size
    ):
        raise ValueError(f"a damaged array {info.filename}")
    return np.memmap(path, dtype=dtype, mode="r", offset=offset, shape=shape, order="F" if fortran else "C")


def points_digest(x, y) -> str:
    """SHA-256 of the points' coordinates (float64), sorted so the order of the features does not matter."""
    import hashlib

    xy = np.column_stack([np.asarray(x, dtype=np.float64).ravel(), np.asarray(y, dtype=np.float64).ravel()])
    xy = xy[np.lexsort((xy[:, 1], xy[:, 0]))]
    return hashlib.sha256(np.ascontiguousarray(xy).tobytes()).hexdigest()
