"""Issue 34: posterior draws that do not fit in memory, kept on disk through the fit, the model file and its summaries.

Each row is a fresh process that fits the LGCP of 5,000 uniform points in a 1000 x 1000 square (as
bench_large_mesh.py) with the CCD integration and the given number of draws, then does what the fitlgcp algorithm
does after the fit: the posterior intensity raster (pixels of half the mesh edge), the points' CPOs, and the model
file; and then loads that file again. ``where``: ``memory`` holds the draws in memory however large they are;
``disk`` holds them in an unnamed temporary file from :data:`core.draw_store.IN_MEMORY_BYTES` (1 GiB) on, as the
plugin does, and maps them from the model file on loading. Columns: draws, the draws' size in MB (draws x nodes x
8), where, seconds of the fit (mesh included), of the raster and CPOs, of writing the model file and of loading it,
the model file's size, the peak resident memory (``VmHWM``: it counts the pages of a mapped file that happen to be
in memory, which the system can drop at any time) and the peak anonymous memory (``RssAnon`` sampled every 20 ms:
what the process cannot give back, the figure that must fit in the machine's memory) from the start to the model
file written, and from there (the fit's arrays freed) through loading the file and integrating its intensity draws.

Run:
    .venv/bin/python tests/benchmarks/bench_draw_store.py [--nodes 20000] [--draws 1000,10000] [--limit-mb M] [--smoke]

``--limit-mb``: each child's private memory is limited to M MB (``RLIMIT_DATA``, as ``ulimit -d``), as on a machine
with less memory than the draws need; a row that runs out says so.

``--smoke``: a few seconds through the same code (a 600-node mesh, 100 and 400 draws, the limit set to 1 MB).
"""

from __future__ import annotations

import argparse
import gc
import json
import math
import os
import resource
import subprocess
import sys
import tempfile
import threading
import time

from bench_large_mesh import fit_square

FULL = {"nodes": 20000, "draws": "1000,10000", "uniform": 5000, "limit": None}
SMOKE = {"nodes": 600, "draws": "100,400", "uniform": 300, "limit": 1 << 20}


def status(field: str) -> float:
    """A ``/proc/self/status`` figure in MB."""
    with open("/proc/self/status") as handle:
        for line in handle:
            if line.startswith(field + ":"):
                return int(line.split()[1]) / 1024
    return math.nan


def child(nodes: int, draws: int, where: str, size: dict, limit_mb: int) -> dict:
    import numpy as np

    if limit_mb:  # counts the process's private memory, not a file it maps shared (the draws on disk)
        resource.setrlimit(resource.RLIMIT_DATA, (limit_mb << 20, limit_mb << 20))

    from spatial_privacy.core import draw_store, lgcp_setup
    from spatial_privacy.core.metrics.cpo import posterior_cpo
    from spatial_privacy.core.posterior import Posterior

    if where == "memory":
        draw_store.IN_MEMORY_BYTES = 1 << 62
    elif size["limit"] is not None:
        draw_store.IN_MEMORY_BYTES = size["limit"]
    peak = [0.0]
    done = threading.Event()

    def sample():
        while not done.wait(0.02):
            peak[0] = max(peak[0], status("RssAnon"))

    threading.Thread(target=sample, daemon=True).start()
    t0 = time.perf_counter()
    fit = fit_square(nodes, "uniform", "ccd", draws, size)[1]
    t1 = time.perf_counter()
    posterior = fit.posterior
    lgcp_setup.intensity_raster(posterior, fit.setup, None, (), None)
    cpo = posterior_cpo(posterior, fit.setup.model.design)
    t2 = time.perf_counter()
    on_disk = draw_store.on_disk(posterior.w)
    nodes, lpml = posterior.w.shape[1], float(np.sum(cpo[1]))
    with tempfile.TemporaryDirectory() as folder:
        path = os.path.join(folder, "model.npz")
        posterior.save(path)
        t3 = time.perf_counter()
        del fit, posterior, cpo
        gc.collect()
        fit_peak, peak[0] = max(peak[0], status("RssAnon")), status("RssAnon")
        again = Posterior.load(path)
        total = float(again.integrated_intensity().mean())
        t4 = time.perf_counter()
        file_mb = os.path.getsize(path) / 2**20
        mapped = draw_store.on_disk(again.w)
        load_peak = max(peak[0], status("RssAnon"))
        del again
    done.set()
    return {
        "nodes": nodes,
        "on_disk": on_disk,
        "mapped": mapped,
        "fit": t1 - t0,
        "summaries": t2 - t1,
        "save": t3 - t2,
        "load": t4 - t3,
        "file_mb": file_mb,
        "peak_mb": status("VmHWM"),
        "fit_anon_mb": fit_peak,
        "load_anon_mb": load_peak,
        "lpml": lpml,
        "total": total,
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--nodes", type=int)
    parser.add_argument("--draws")
    parser.add_argument("--limit-mb", type=int, default=0)
    parser.add_argument("--smoke", action="store_true")
    parser.add_argument("--child", nargs=3, help=argparse.SUPPRESS)
    args = parser.parse_args()
    size = dict(SMOKE if args.smoke else FULL)
    if args.child:
        print(json.dumps(child(int(args.child[0]), int(args.child[1]), args.child[2], size, args.limit_mb)))
        return 0
    nodes = args.nodes or size["nodes"]
    columns = ["draws", "draws MB", "where", "nodes", "fit s", "raster+CPO s", "save s", "load s", "file MB"]
    columns += ["peak RSS MB", "peak anon MB fit", "peak anon MB load", "LPML"]
    print("| " + " | ".join(columns) + " |")
    print("|" + "---|" * len(columns))
    for draws in [int(d) for d in (args.draws or size["draws"]).split(",")]:
        for where in ("memory", "disk"):
            command = [sys.executable, __file__, "--child", str(nodes), str(draws), where]
            command += ["--limit-mb", str(args.limit_mb)]
            run = subprocess.run(command + (["--smoke"] if args.smoke else []), capture_output=True, text=True)
            if run.returncode != 0 and "MemoryError" in run.stderr:
                print(f"| {draws} | | {where} | {nodes} | out of memory (--limit-mb {args.limit_mb}) |", flush=True)
                continue
            if run.returncode != 0:
                print(run.stderr[-2000:], file=sys.stderr)
                return 1
            r = json.loads(run.stdout.strip().splitlines()[-1])
            label = ("disk" if r["on_disk"] else "memory") + (", mapped on loading" if r["mapped"] else "")
            row = [draws, f"{draws * r['nodes'] * 8 / 2**20:.0f}", label, r["nodes"], f"{r['fit']:.1f}"]
            row += [f"{r['summaries']:.1f}", f"{r['save']:.1f}", f"{r['load']:.1f}", f"{r['file_mb']:.0f}"]
            row += [f"{r['peak_mb']:.0f}", f"{r['fit_anon_mb']:.0f}", f"{r['load_anon_mb']:.0f}", f"{r['lpml']:.6f}"]
            print("| " + " | ".join(str(v) for v in row) + " |", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
