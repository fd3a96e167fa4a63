"""The HTML report every algorithm can write: a self-contained page of paragraphs, tables and PNG figures drawn
without pyplot."""

from __future__ import annotations

import html

from ...core.files import replaced_when_done


def write_html_report(path: str, title: str, sections: list[tuple[str, object]]) -> None:
    """Write a small self-contained HTML report.

    ``sections`` is a list of ``(heading, body)``; a body is a string (a paragraph) or a list of
    ``(label, value)`` rows (a table). Text is escaped.
    """
    parts = [
        "<!DOCTYPE html><html><head><meta charset='utf-8'>",
        f"<title>{html.escape(title)}</title>",
        "<style>body{font-family:sans-serif;max-width:60em;margin:2em}"
        "td,th{border-bottom:1px solid #ccc;padding:.2em .8em;text-align:left}</style>",
        f"</head><body><h1>{html.escape(title)}</h1>",
    ]
    for heading, body in sections:
        parts.append(f"<h2>{html.escape(heading)}</h2>")
        if isinstance(body, str) and body.startswith("data:image/png;base64,"):
            parts.append(f"<p><img alt='{html.escape(heading)}' src='{body}'></p>")
        elif isinstance(body, str):
            parts.append(f"<p>{html.escape(body)}</p>")
        else:
            rows = "".join(f"<tr><th>{html.escape(str(k))}</th><td>{html.escape(str(v))}</td></tr>" for k, v in body)
            parts.append(f"<table>{rows}</table>")
    parts.append("</body></html>")
    with replaced_when_done(path) as partial, open(partial, "w", encoding="utf-8") as handle:
        handle.write("\n".join(parts))


def report_figure(nrows: int = 1, ncols: int = 1, *, figsize: tuple[float, float], **kwargs):
    """A matplotlib figure for a report and its axes (as ``Figure.subplots`` returns them), drawn on its own Agg
    canvas without pyplot: a run leaves matplotlib's global state alone (``matplotlib.use`` would switch the
    backend of the QGIS session and close the user's open figures, from a worker thread in a background task)."""
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure

    fig = Figure(figsize=figsize, dpi=90)
    FigureCanvasAgg(fig)
    return fig, fig.subplots(nrows, ncols, **kwargs)


def figure_data_uri(fig) -> str:
    """A figure from :func:`report_figure` as a PNG ``data:`` URI for :func:`write_html_report`."""
    import base64
    import io

    buffer = io.BytesIO()
    fig.savefig(buffer, format="png", bbox_inches="tight")
    return "data:image/png;base64," + base64.b64encode(buffer.getvalue()).decode("ascii")
