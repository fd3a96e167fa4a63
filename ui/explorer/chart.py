"""The preview chart. The figure is drawn by matplotlib (Agg) in the preview task, away from the main thread
(:func:`render_curve`, :func:`render_sweep`: drawing a figure takes 40 ms on an idle machine and several times that
on a busy one, too long for the QGIS window to wait); the :class:`Chart` widget only paints the finished image."""

from __future__ import annotations

from dataclasses import dataclass

from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.figure import Figure
from qgis.PyQt.QtCore import QRectF, Qt
from qgis.PyQt.QtGui import QColor, QImage, QPainter, QTextOption
from qgis.PyQt.QtWidgets import QWidget

from ...i18n import tr

DPI = 100


@dataclass
class Rendered:
    """A drawn chart: the matplotlib ``figure`` (kept for saving it as PNG; ``None`` while the LGCP sweep runs), its
    ``image`` (a QImage, safe to make
    in a worker thread) and what it shows: a ``core.previews`` ``curve`` or the LGCP ``sweep`` (a dict: points,
    threshold, baseline_max, recommended, finished)."""

    figure: Figure
    image: QImage
    curve: object = None
    sweep: dict | None = None


class Chart(QWidget):
    """Shows a :class:`Rendered` chart scaled to the widget, or a message. ``curve``, ``sweep`` and ``figure`` are
    those of the chart shown (``None`` when cleared)."""

    def __init__(self, parent=None):
        super().__init__(parent)
        self.setObjectName("explorerChart")
        self.setMinimumSize(460, 300)
        self.curve = None
        self.sweep = None
        self.figure = None
        self.image = None
        self.message = ""

    def render_size(self) -> tuple[int, int]:
        """The size in pixels to draw a chart at (the widget's, read in the main thread)."""
        return max(self.width(), 460), max(self.height(), 300)

    def clear(self, message: str = "") -> None:
        self.curve = self.sweep = self.figure = self.image = None
        self.message = message
        self.update()

    def show_rendered(self, rendered: Rendered) -> None:
        self.curve, self.sweep = rendered.curve, rendered.sweep
        self.figure, self.image = rendered.figure, rendered.image
        self.message = ""
        self.update()

    def paintEvent(self, event):  # noqa: N802 (Qt naming)
        painter = QPainter(self)
        painter.fillRect(self.rect(), QColor("white"))
        if self.image is not None:
            size = self.image.size().scaled(self.size(), Qt.AspectRatioMode.KeepAspectRatio)
            x, y = (self.width() - size.width()) / 2, (self.height() - size.height()) / 2
            painter.setRenderHint(QPainter.RenderHint.SmoothPixmapTransform)
            painter.drawImage(QRectF(x, y, size.width(), size.height()), self.image)
        elif self.message:
            option = QTextOption(Qt.AlignmentFlag.AlignCenter)
            option.setWrapMode(QTextOption.WrapMode.WordWrap)
            painter.drawText(QRectF(self.rect().adjusted(20, 20, -20, -20)), self.message, option)
        painter.end()

    def save_png(self, path: str) -> None:
        if self.figure is not None:
            self.figure.savefig(path, format="png", dpi=120)
        else:
            self.grab().save(path, "PNG")


def _figure(size: tuple[int, int]) -> Figure:
    figure = Figure(figsize=(size[0] / DPI, size[1] / DPI), dpi=DPI)
    FigureCanvasAgg(figure)
    return figure


def _image(figure: Figure) -> QImage:
    canvas = figure.canvas
    canvas.draw()
    width, height = canvas.get_width_height()
    return QImage(bytes(canvas.buffer_rgba()), width, height, QImage.Format.Format_RGBA8888).copy()


def render_curve(curve, size: tuple[int, int], labels: dict[str, str], axis_labels: dict[str, str]) -> Rendered:
    """Draw ``curve``: the first series on the left axis, the second on a right axis, ε on a log axis, the chosen ε
    marked by a vertical line and a dot on each curve. ``labels`` maps series names to their translated legend
    entries, ``axis_labels`` to the label of the axis they are drawn on. Runs in any thread."""
    figure = _figure(size)
    axes = figure.add_subplot(111)
    figure.subplots_adjust(left=0.13, right=0.85, bottom=0.15, top=0.9)
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
    handles = [line for ax in (axes, right) if ax is not None for line in ax.get_lines() if line.get_label()[0] != "_"]
    axes.legend(handles, [h.get_label() for h in handles], fontsize=8, loc="best")
    return Rendered(figure, _image(figure), curve=curve)


def render_sweep(points, size, threshold: float, baseline_max=None, recommended=None, finished=False) -> Rendered:
    """The LGCP sweep's chart of ``points`` at once (:class:`SweepRenderer`). Runs in any thread."""
    return SweepRenderer(size, threshold).render(points, baseline_max, recommended, finished)


class SweepRenderer:
    """Maximum disclosure risk against pMSE, one dot per synthetic set of the LGCP sweep (``points``: objects with
    ``label``, ``method``, ``max_risk``, ``pmse``, as ``core.previews.sweep.SweepPoint``), as Walder et al.'s
    Figs 5-6; the risk threshold and the risk with nothing released drawn across, the recommended set (an index
    into ``points``) ringed.

    Drawn again as each set finishes, in the preview task, on one figure: each new set adds its dot and label to the
    axes drawn. A new figure per set made thousands of objects each time, and the garbage collections of the whole
    process they set off in the task's thread held up the QGIS window for a tenth of a second. Runs in any thread
    (one renderer per thread)."""

    COLOURS = {"radial": "tab:red", "ans": "tab:blue", "prs": "tab:green"}

    def __init__(self, size, threshold: float):
        self.threshold = float(threshold)
        self.figure = _figure(size)
        self.axes = self.figure.add_subplot(111)
        self.figure.subplots_adjust(left=0.15, right=0.95, bottom=0.15, top=0.9)
        self.axes.axhline(threshold, color="tab:red", linestyle="--", linewidth=1, label=tr("Risk threshold"))
        self.axes.set_xlabel(tr("pMSE (lower: more useful)"))
        self.axes.set_ylabel(tr("Maximum disclosure risk"))
        self.names = {"radial": tr("Radial"), "ans": tr("ANS"), "prs": tr("PRS")}
        self.lines = {}
        self.drawn = []

    def render(self, points, baseline_max=None, recommended=None, finished=False) -> Rendered:
        """The chart with ``points`` (the points drawn before followed by new ones); once ``finished``, with the
        risk with nothing released and the recommended set. A partial chart's figure is not handed out (it is
        drawn on again); the finished one's is, for saving it."""
        points = list(points)
        if points[: len(self.drawn)] != self.drawn:
            raise ValueError("the sweep's sets must come in the order they were drawn")
        axes = self.axes
        for p in points[len(self.drawn) :]:
            line = self.lines.get(p.method)
            if line is None:
                line = self.lines[p.method] = axes.plot(
                    [], [], "o", color=self.COLOURS.get(p.method, "0.3"), label=self.names.get(p.method, p.method)
                )[0]
            line.set_data(list(line.get_xdata()) + [p.pmse], list(line.get_ydata()) + [p.max_risk])
            axes.annotate(p.label, (p.pmse, p.max_risk), fontsize=7, xytext=(4, 3), textcoords="offset points")
        self.drawn = points
        if finished and baseline_max is not None and baseline_max == baseline_max:
            axes.axhline(baseline_max, color="0.4", linestyle=":", linewidth=1, label=tr("Risk with nothing released"))
        if finished and recommended is not None:
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
        sweep = {
            "points": points, "threshold": self.threshold, "baseline_max": baseline_max,
            "recommended": recommended, "finished": bool(finished),
        }  # fmt: skip
        return Rendered(self.figure if finished else None, _image(self.figure), sweep=sweep)


def _other_unit(first: str, name: str) -> bool:
    """Series on a second axis: a count or a probability beside an error."""
    same = {"median", "p90", "mean", "delta_error"}
    return not (first in same and name in same)
