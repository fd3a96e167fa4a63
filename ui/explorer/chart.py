"""The preview chart: a matplotlib figure in a Qt widget (FigureCanvasQTAgg), one curve per series against ε."""

from __future__ import annotations

try:  # matplotlib >= 3.5 picks PyQt5 or PyQt6, whichever QGIS runs on
    from matplotlib.backends.backend_qtagg import FigureCanvasQTAgg
except ImportError:  # older matplotlib (PyQt5 only)
    from matplotlib.backends.backend_qt5agg import FigureCanvasQTAgg
from matplotlib.figure import Figure

from ...i18n import tr


class Chart(FigureCanvasQTAgg):
    """Draws a ``core.previews.Curve``: the first series on the left axis, the second on a right axis, ε on a log
    axis, the chosen ε marked by a vertical line and a dot on each curve. ``curve`` is the one drawn."""

    def __init__(self, parent=None):
        self.figure = Figure(figsize=(5.0, 3.4), dpi=100)
        super().__init__(self.figure)
        self.setParent(parent)
        self.setObjectName("explorerChart")
        self.setMinimumSize(460, 300)
        self.curve = None
        self.clear()

    def clear(self, message: str = "") -> None:
        self.curve = None
        self.figure.clear()
        axes = self.figure.add_subplot(111)
        axes.set_axis_off()
        if message:
            axes.text(0.5, 0.5, message, ha="center", va="center", wrap=True, transform=axes.transAxes)
        self.draw_idle()

    def show_curve(self, curve, labels: dict[str, str], axis_labels: dict[str, str]) -> None:
        """Plot ``curve``; ``labels`` maps series names to their translated legend entries, ``axis_labels`` to
        the label of the axis they are drawn on."""
        self.curve = curve
        self.figure.clear()
        axes = self.figure.add_subplot(111)
        self.figure.subplots_adjust(left=0.13, right=0.85, bottom=0.15, top=0.9)
        names = list(curve.series)
        colours = ("tab:blue", "tab:orange", "tab:green", "tab:red")
        right = None
        for i, name in enumerate(names):
            target = axes
            if i > 0 and _other_unit(names[0], name):
                right = right or axes.twinx()
                target = right
            colour = colours[i % len(colours)]
            target.plot(curve.x, curve.series[name], color=colour, label=labels.get(name, name))
            if name in curve.marked:
                target.plot([curve.marked_x], [curve.marked[name]], "o", color=colour)
            target.set_ylabel(axis_labels.get(name, labels.get(name, name)))
        axes.axvline(curve.marked_x, color="0.3", linestyle="--", linewidth=1)
        axes.set_xscale("log")
        axes.set_xlabel(tr("ε (epsilon)"))
        axes.set_title(tr("Computed from the confidential data: for the steward only."), fontsize=8)
        handles = [
            line for ax in (axes, right) if ax is not None for line in ax.get_lines() if line.get_label()[0] != "_"
        ]
        axes.legend(handles, [h.get_label() for h in handles], fontsize=8, loc="best")
        self.draw_idle()

    def save_png(self, path: str) -> None:
        self.figure.savefig(path, format="png", dpi=120)


def _other_unit(first: str, name: str) -> bool:
    """Series on a second axis: a count or a probability beside an error."""
    same = {"median", "p90", "mean", "delta_error"}
    return not (first in same and name in same)
