"""The base class of every Spatial Privacy algorithm (:class:`SpatialPrivacyAlgorithm`)."""

from __future__ import annotations

import html

from qgis.core import (
    QgsProcessingAlgorithm,
    QgsProcessingException,
    QgsProcessingFeedback,
    QgsProcessingOutputString,
    QgsProcessingParameterCrs,
    QgsProcessingParameterDistance,
    QgsProcessingParameterNumber,
)

from ..compat import FLAG_ADVANCED, NUMBER_INTEGER
from ..core import dependencies, preload
from ..core.files import staged_writes
from ..i18n import tr
from .destinations import gpkg_table_destinations, warn_publishable_beside_confidential, write_error
from .feedback import cancelled, running
from .labels import confidential_label, not_private_label
from .ledger import has_ledger, ledger_parameter_problem, record_release
from .ledger import report_sections as ledger_sections
from .parameters import DISTANCE_WIDGET, MAX_SEED, SEED_METADATA, number_range_problem, parameter_error, seed_help

#: Tag on every algorithm, so the toolbox search (and the plugin's menu entry) finds them all.
TOOLBOX_TAG = "spatialprivacy"

#: Modules the processing layer imports inside functions, which walking its package does not reach.
LAZY_IMPORTS = ("matplotlib.figure", "matplotlib.backends.backend_agg", "osgeo.gdal", "osgeo.osr")


def import_modules() -> None:
    """Import every module a run may need (the core, this layer, the packages they import inside functions) once,
    under a process-wide lock, before an algorithm checks or runs anything: algorithms started together in worker
    threads would otherwise race through the same first imports (:mod:`..core.preload`)."""
    preload.import_all((preload.core_package(), __package__), (*preload.CORE_LAZY_IMPORTS, *LAZY_IMPORTS))


def show_run_notes(feedback, writes) -> None:
    """Show in the run's log what happened beside its work: commits of killed runs that staging in these folders
    finished or undone (``StagedWrites.recovered``), and a numba cache that could not be used (core.jit)."""
    from ..core.jit import take_cache_notes

    for message in (writes.recovered if writes is not None else []) + take_cache_notes():
        feedback.pushInfo(message)


class SpatialPrivacyAlgorithm(QgsProcessingAlgorithm):
    """Base class: translation, instance creation, parameters with help, parameter checks before every run,
    dependency checks, core errors named by parameter, and the staged run (:meth:`processAlgorithm`), which
    calls each algorithm's :meth:`process`."""

    #: Python packages this algorithm cannot run without (others only make it faster).
    REQUIRES: tuple[str, ...] = ("numpy",)
    #: Feature sinks that hold confidential values: written to a GeoPackage, its tables are described as
    #: CONFIDENTIAL (make_sink), so a copy of the file says so too.
    CONFIDENTIAL_SINKS: tuple[str, ...] = ()
    #: feature outputs that are always tables (no geometry): refused as Shapefiles before any work
    TABLE_SINKS: tuple[str, ...] = ()
    #: The core's parameter names (``ParameterError.parameter``) -> this algorithm's parameter names, so that a
    #: core error names the parameter the user gave (:meth:`core_error`).
    CORE_NAMES: dict[str, str] = {}

    def tr(self, text: str) -> str:
        return tr(text)

    def createInstance(self):
        return type(self)()

    def core_error(self, error: ValueError, **names: str) -> QgsProcessingException:
        """A core ``ParameterError`` as a message naming this algorithm's parameter (:data:`CORE_NAMES`, with
        ``names`` overriding or adding core names for one call)."""
        return parameter_error(error, {**self.CORE_NAMES, **names})

    def parameter_problem(self, parameters, context) -> str | None:
        """An algorithm's own parameter checks: what is wrong (naming the parameter), or ``None``."""
        return None

    #: set by an algorithm's run when its publishable outputs lost their guarantee (bounds or a window taken from
    #: the data, a fixed seed; :meth:`lose_guarantee`): why, e.g. "bounds from the data"; the output files then say
    #: "NOT PRIVATE" inside (file_label), and so do the loaded layers' names and the report title (labelled)
    not_private: str | None = None
    #: Whether the publishable outputs carry draws of the run's generator (noise, a synthesis): a fixed SEED then
    #: lets anyone regenerate the draws and remove them, so a seeded run loses its guarantee (parameters.make_rng)
    #: and returns why in NOT_PRIVATE_OUTPUT. False only where every output is confidential or a diagnostic.
    PUBLISHES_DRAWS: bool = True
    #: The string output that says why a run's outputs are NOT PRIVATE, empty when the guarantee holds (declared
    #: with the SEED of an algorithm that publishes draws: add_seed).
    NOT_PRIVATE_OUTPUT = "NOT_PRIVATE"

    def lose_guarantee(self, why: str) -> None:
        """Mark this run's publishable outputs NOT PRIVATE because of ``why`` (joined to any reason given before)."""
        if not self.not_private:
            self.not_private = why
        elif why not in self.not_private.split("; "):
            self.not_private = f"{self.not_private}; {why}"

    def file_label(self, name: str) -> str | None:
        """The label written inside the file of output ``name`` (a GeoPackage's table description): CONFIDENTIAL
        for the confidential sinks, NOT PRIVATE for publishable ones of a run that lost its guarantee."""
        if name in self.CONFIDENTIAL_SINKS:
            return confidential_label(self, name)
        if self.not_private:
            return not_private_label(self, name, self.not_private)
        return None

    def labelled(self, title: str) -> str:
        """``title`` (a loaded layer's name, a report's title) marked NOT PRIVATE when the run lost its guarantee."""
        return self.tr("NOT PRIVATE ({0}): {1}").format(self.not_private, title) if self.not_private else title

    #: the release this run states for the privacy-budget ledger (ledger.check_release), recorded before the
    #: outputs are committed (processAlgorithm); ``None`` for a run that releases nothing a ledger adds up
    ledger_release = None

    def ledger_report(self) -> list:
        """The report section of the privacy-budget ledger (what this release adds, the totals), or ``[]``."""
        return ledger_sections(self.ledger_release)

    def checkParameterValues(self, parameters, context):  # noqa: N802 (QGIS API name)
        import_modules()
        problem = self.parameter_problem(parameters, context)
        if problem is None and has_ledger(self):
            problem = ledger_parameter_problem(self, parameters, context)
        for parameter in self.parameterDefinitions():
            if problem is None:
                problem = number_range_problem(parameter, parameters.get(parameter.name()), context)
        if problem is not None:
            return False, problem
        return super().checkParameterValues(parameters, context)

    def processAlgorithm(self, parameters, context, feedback):  # noqa: N802 (QGIS API name)
        """Run :meth:`process` with every output staged: layers (:func:`make_sink`), reports, rasters and model
        files are written beside their targets and moved onto them only when the whole run has succeeded. A
        failure, or a Cancel that came at any time (even while the outputs were being written), leaves every
        target as it was and no partial file, unless an output that cannot be staged was already being written
        in place: then every output is finished, with a warning."""
        import_modules()
        parameters = gpkg_table_destinations(self, parameters)
        self.not_private = None  # an instance can run again (the dialog's): nothing carries over from a run
        self.ledger_release = None
        if feedback is not None:
            warn_publishable_beside_confidential(self, parameters, context, feedback)
        writes = None
        try:
            with running(feedback), staged_writes() as writes:
                results = self.process(parameters, context, feedback)
                if feedback is not None and feedback.isCanceled():
                    if not writes.in_place:
                        raise cancelled()
                    # an output written in place cannot be taken back: it was finished, and so are the others
                    feedback.pushWarning(
                        tr(
                            "Cancel came after {0} had been written in place (such outputs cannot be staged); "
                            "it was finished so that no half-written layer is left, and the other outputs were "
                            "written too."
                        ).format(", ".join(name for name, _ in writes.in_place))
                    )
                # recorded before the outputs are committed: a refused or failed record publishes nothing
                record_release(self, results, feedback, writes)
        except OSError as error:
            raise write_error(self, parameters, context, error) from None
        except MemoryError as error:  # numpy's says how much it wanted: "Unable to allocate 1023. MiB for ..."
            raise QgsProcessingException(
                tr(
                    "Not enough memory for this run ({0}). Give fewer features or coarser settings, or close other "
                    "programs."
                ).format(str(error) or type(error).__name__)
            ) from None
        finally:
            if feedback is not None:
                show_run_notes(feedback, writes)
        if feedback is not None:
            feedback.setProgress(100.0)  # every output is at its target
        if self.outputDefinition(self.NOT_PRIVATE_OUTPUT) is not None:
            results[self.NOT_PRIVATE_OUTPUT] = self.not_private or ""
        return results

    def process(self, parameters, context, feedback) -> dict:
        """The algorithm's work (``processAlgorithm`` of a plain QGIS algorithm)."""
        raise NotImplementedError

    def prepareAlgorithm(self, parameters, context, feedback):  # noqa: N802 (QGIS API name)
        """Check the parameters (ranges, and each algorithm's own checks) before every run. QGIS does so for the
        dialog, processing.run and qgis_process, but not for a model's child algorithms, which could otherwise
        run with values the algorithm refuses (a COUNT above its maximum, a prior field equal to the counts)."""
        ok, message = self.checkParameterValues(parameters, context)
        if not ok:
            raise QgsProcessingException(message or tr("Invalid parameter values."))
        return True

    def tags(self):
        return [TOOLBOX_TAG, self.tr("privacy"), self.tr("disclosure control")]

    def helpUrl(self):
        return "https://github.com/spatial-privacy/spatial_privacy#readme"

    def add(self, parameter, help_text: str, advanced: bool = False):
        """Add ``parameter`` with its help text (shown as tooltip and in the help panel).

        A distance gets the plugin's widget in the algorithm dialog, which shows the units of WORK_CRS when
        one is picked and else the layer's (QGIS's own follows the layer only; see ui.distance_widget)."""
        parameter.setHelp(help_text)
        if isinstance(parameter, QgsProcessingParameterDistance):
            parameter.setMetadata({"widget_wrapper": {"class": DISTANCE_WIDGET, "work_crs": "WORK_CRS"}})
        if advanced:
            parameter.setFlags(parameter.flags() | FLAG_ADVANCED)
        self.addParameter(parameter)
        return parameter

    def add_seed(self, name: str = "SEED"):
        """The advanced, optional SEED parameter every randomised algorithm has (a whole number from 0 to MAX_SEED,
        parameters.parse_seed) and, if the algorithm publishes the generator's draws, the NOT_PRIVATE output."""
        parameter = QgsProcessingParameterNumber(
            name, self.tr("Random seed (testing only)"), NUMBER_INTEGER, None, True, 0, MAX_SEED
        )
        parameter.setMetadata({SEED_METADATA: True})
        if self.PUBLISHES_DRAWS:
            self.addOutput(
                QgsProcessingOutputString(
                    self.NOT_PRIVATE_OUTPUT,
                    self.tr("Why the outputs are NOT PRIVATE (empty when the guarantee holds)"),
                )
            )
        return self.add(parameter, seed_help(), advanced=True)

    def add_work_crs(self, help_text: str, name: str = "WORK_CRS"):
        """The advanced, optional projected CRS to work in when a layer is in degrees (see :func:`working_crs`)."""
        return self.add(
            QgsProcessingParameterCrs(name, self.tr("Projected CRS to work in"), None, True), help_text, advanced=True
        )

    def parameter_help_html(self) -> str:
        """Every parameter's description and help, as HTML for ``shortHelpString``."""

        def text(value: str) -> str:  # quotes stay as they are: qgis_process prints this HTML as it is
            return html.escape(value, quote=False)

        rows = [
            f"<li><b>{text(p.description())}</b> ({p.name()}): {text(p.help())}</li>"
            for p in self.parameterDefinitions()
            if p.help()
        ]
        return "<h3>" + self.tr("Parameters") + "</h3><ul>" + "".join(rows) + "</ul>"

    def check_dependencies(self, feedback: QgsProcessingFeedback | None = None) -> None:
        """Refuse if a required package is missing; warn once if an optional one is."""
        absent = dependencies.missing()
        if any(d.module in self.REQUIRES for d in absent):
            raise QgsProcessingException(dependencies.install_message(absent))
        if absent and feedback is not None:
            feedback.pushWarning(dependencies.install_message(absent))
