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
        self.sweep = None  # the LGCP sweep drawn: points, threshold, baseline_max, recommended, finished
        self._sweep_axes, self._sweep_lines = None, {}
        self.clear()

    def clear(self, message: str = "") -> None:
        self.curve = None
        self.sweep = None
        self._sweep_axes = None
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
        self.sweep = self._sweep_axes = None
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

    def show_sweep(self, points, threshold: float, baseline_max=None, recommended=None, finished=False) -> None:
        """Maximum disclosure risk against pMSE, one dot per synthetic set of the LGCP sweep (``points``: objects
        with ``label``, ``method``, ``max_risk``, ``pmse``, as ``core.previews.sweep.SweepPoint``), as Walder et
        al.'s Figs 5-6; the risk threshold and the risk with nothing released drawn across, the recommended set
        (an index into ``points``) ringed. Called again as each set finishes: while the sweep runs, the new dots
        are added to the axes drawn (about 10 ms, where rebuilding the figure takes 50 ms and more while the
        task holds the interpreter half the time); the finished sweep is drawn afresh."""
        points = list(points)
        old = self.sweep
        growing = (
            not finished and old is not None and not old["finished"] and self._sweep_axes is not None
            and old["threshold"] == float(threshold) and points[: len(old["points"])] == old["points"]
        )  # fmt: skip
        self.curve = None
        self.sweep = {
            "points": points, "threshold": float(threshold), "baseline_max": baseline_max,
            "recommended": recommended, "finished": bool(finished),
        }  # fmt: skip
        if not growing:
            self._sweep_setup(threshold, baseline_max)
            self._sweep_add(points)
        else:
            self._sweep_add(points[len(old["points"]) :])
        axes = self._sweep_axes
        if recommended is not None:
            best = points[recommended]
            axes.plot([best.pmse], [best.max_risk], "o", markersize=14, markerfacecolor="none",
                      markeredgecolor="black", markeredgewidth=2, label=tr("Recommended"))  # fmt: skip
        title = tr("Computed from the confidential data: for the steward only.")
        if not finished:
            title += " " + tr("({0} sets so far)").format(len(points))
        axes.set_title(title, fontsize=8)
        axes.relim()
        axes.autoscale_view()
        axes.legend(fontsize=8, loc="best")
        self.draw_idle()

    def _sweep_setup(self, threshold: float, baseline_max) -> None:
        self.figure.clear()
        axes = self._sweep_axes = self.figure.add_subplot(111)
        self._sweep_lines = {}
        self.figure.subplots_adjust(left=0.15, right=0.95, bottom=0.15, top=0.9)
        axes.axhline(threshold, color="tab:red", linestyle="--", linewidth=1, label=tr("Risk threshold"))
        if baseline_max is not None and baseline_max == baseline_max:
            axes.axhline(baseline_max, color="0.4", linestyle=":", linewidth=1, label=tr("Risk with nothing released"))
        axes.set_xlabel(tr("pMSE (lower: more useful)"))
        axes.set_ylabel(tr("Maximum disclosure risk"))

    def _sweep_add(self, points) -> None:
        colours = {"radial": "tab:red", "ans": "tab:blue", "prs": "tab:green"}
        names = {"radial": tr("Radial"), "ans": tr("ANS"), "prs": tr("PRS")}
        axes = self._sweep_axes
        for p in points:
            line = self._sweep_lines.get(p.method)
            if line is None:
                line = self._sweep_lines[p.method] = axes.plot(
                    [], [], "o", color=colours.get(p.method, "0.3"), label=names.get(p.method, p.method)
                )[0]
            line.set_data(list(line.get_xdata()) + [p.pmse], list(line.get_ydata()) + [p.max_risk])
            axes.annotate(p.label, (p.pmse, p.max_risk), fontsize=7, xytext=(4, 3), textcoords="offset points")

    def save_png(self, path: str) -> None:
        self.figure.savefig(path, format="png", dpi=120)


def _other_unit(first: str, name: str) -> bool:
    """Series on a second axis: a count or a probability beside an error."""
    same = {"median", "p90", "mean", "delta_error"}
    return not (first in same and name in same)
