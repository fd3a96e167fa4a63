"""numba kernels of :mod:`.distances`: Dijkstra's algorithm from network locations, stopped at a limit.

A search starts from one location on an edge: both end vertices of its edge are seeds, at the distances along
the edge to them, so one search per location (not per vertex) gives its distances to everything. A binary heap
with lazy deletion holds the frontier; each directed edge is relaxed at most once, so the heap never holds more
than ``2 E + 2`` entries. A search touches only the vertices within the limit, and its scratch distances are
reset through the list of touched vertices, so a search of small radius costs only what it reaches.
"""

from __future__ import annotations

import numpy as np

from ..jit import njit


@njit(cache=True)
def _push(keys, values, size, key, value):
    i = size
    keys[i] = key
    values[i] = value
    while i > 0:
        parent = (i - 1) // 2
        if keys[parent] <= keys[i]:
            break
        keys[parent], keys[i] = keys[i], keys[parent]
        values[parent], values[i] = values[i], values[parent]
        i = parent
    return size + 1


@njit(cache=True)
def _pop(keys, values, size):
    key, value = keys[0], values[0]
    size -= 1
    keys[0], values[0] = keys[size], values[size]
    i = 0
    while True:
        child = 2 * i + 1
        if child >= size:
            break
        if child + 1 < size and keys[child + 1] < keys[child]:
            child += 1
        if keys[i] <= keys[child]:
            break
        keys[child], keys[i] = keys[i], keys[child]
        values[child], values[i] = values[i], values[child]
        i = child
    return key, value, size


@njit(cache=True)
def search(indptr, neighbour, weight, seed0, start0, seed1, start1, limit, distance, touched, keys, values):
    """Distances from two seeds (vertex, starting distance) to every vertex within ``limit``.

    ``distance`` (V,) must hold ``inf`` everywhere on entry; on return it holds the distances of the vertices
    listed in ``touched[:count]`` (the returned count), and the caller resets those to ``inf``.
    """
    count = 0
    size = 0
    for which in range(2):
        seed = seed0 if which == 0 else seed1
        start = start0 if which == 0 else start1
        if start <= limit and start < distance[seed]:
            if distance[seed] == np.inf:
                touched[count] = seed
                count += 1
            distance[seed] = start
            size = _push(keys, values, size, start, seed)
    while size > 0:
        d, v, size = _pop(keys, values, size)
        if d > distance[v]:
            continue
        for p in range(indptr[v], indptr[v + 1]):
            u = neighbour[p]
            candidate = d + weight[p]
            if candidate <= limit and candidate < distance[u]:
                if distance[u] == np.inf:
                    touched[count] = u
                    count += 1
                distance[u] = candidate
                size = _push(keys, values, size, candidate, u)
    return count


@njit(cache=True)
def vertex_rows(indptr, neighbour, weight, seed0, start0, seed1, start1, limit, out):
    """out[i] (prefilled with inf): distances from location i (seeds 0 and 1) to every vertex."""
    n_vertices = indptr.size - 1
    touched = np.empty(n_vertices, dtype=np.int64)
    keys = np.empty(weight.size + 2)
    values = np.empty(weight.size + 2, dtype=np.int64)
    for i in range(seed0.size):
        search(
            indptr, neighbour, weight, seed0[i], start0[i], seed1[i], start1[i], limit, out[i], touched, keys, values
        )


@njit(cache=True)
def point_rows(indptr, neighbour, weight, seed0, start0, seed1, start1, limit, end0, to_end0, end1, to_end1, out):
    """out[i, j]: distance from location i to location j through the ends of j's edge (no same-edge path)."""
    n_vertices = indptr.size - 1
    distance = np.full(n_vertices, np.inf)
    touched = np.empty(n_vertices, dtype=np.int64)
    keys = np.empty(weight.size + 2)
    values = np.empty(weight.size + 2, dtype=np.int64)
    for i in range(seed0.size):
        count = search(
            indptr, neighbour, weight, seed0[i], start0[i], seed1[i], start1[i], limit, distance, touched, keys, values
        )
        for j in range(end0.size):
            out[i, j] = min(distance[end0[j]] + to_end0[j], distance[end1[j]] + to_end1[j])
        for k in range(count):
            distance[touched[k]] = np.inf


@njit(cache=True)
def pairs_within(
    indptr,
    neighbour,
    weight,
    seed0,
    start0,
    seed1,
    start1,
    limit,
    a_edge,
    a_t,
    edges,
    lengths,
    incident_ptr,
    incident_edge,
    b_ptr,
    b_index,
    b_t,
):
    """All (i, j, d) with d = d(a_i, b_j) <= limit; b's locations listed by edge (b_ptr, b_index)."""
    n_vertices = indptr.size - 1
    distance = np.full(n_vertices, np.inf)
    touched = np.empty(n_vertices, dtype=np.int64)
    keys = np.empty(weight.size + 2)
    values = np.empty(weight.size + 2, dtype=np.int64)
    n_b = b_t.size
    best = np.full(n_b, np.inf)
    reached = np.empty(n_b, dtype=np.int64)
    capacity = 1024
    out_i = np.empty(capacity, dtype=np.int64)
    out_j = np.empty(capacity, dtype=np.int64)
    out_d = np.empty(capacity)
    n_out = 0
    for i in range(seed0.size):
        count = search(
            indptr, neighbour, weight, seed0[i], start0[i], seed1[i], start1[i], limit, distance, touched, keys, values
        )
        n_reached = 0
        # the same edge, directly along it
        e = a_edge[i]
        for p in range(b_ptr[e], b_ptr[e + 1]):
            j = b_index[p]
            d = abs(a_t[i] - b_t[j]) * lengths[e]
            if d <= limit:
                if best[j] == np.inf:
                    reached[n_reached] = j
                    n_reached += 1
                best[j] = min(best[j], d)
        # through a vertex reached, along one of its edges
        for k in range(count):
            w = touched[k]
            dw = distance[w]
            for q in range(incident_ptr[w], incident_ptr[w + 1]):
                e = incident_edge[q]
                at_start = edges[e, 0] == w
                for p in range(b_ptr[e], b_ptr[e + 1]):
                    j = b_index[p]
                    along = b_t[j] * lengths[e] if at_start else (1.0 - b_t[j]) * lengths[e]
                    d = dw + along
                    if d <= limit and d < best[j]:
                        if best[j] == np.inf:
                            reached[n_reached] = j
                            n_reached += 1
                        best[j] = d
            distance[w] = np.inf
        if n_out + n_reached > capacity:
            capacity = max(2 * capacity, n_out + n_reached)
            out_i = np.concatenate((out_i, np.empty(capacity - out_i.size, dtype=np.int64)))
            out_j = np.concatenate((out_j, np.empty(capacity - out_j.size, dtype=np.int64)))
            out_d = np.concatenate((out_d, np.empty(capacity - out_d.size)))
        for k in range(n_reached):
            j = reached[k]
            out_i[n_out] = i
            out_j[n_out] = j
            out_d[n_out] = best[j]
            n_out += 1
            best[j] = np.inf
    return out_i[:n_out], out_j[:n_out], out_d[:n_out]
