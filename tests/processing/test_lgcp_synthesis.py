"""spatialprivacy:synthesizelgcp, disclosurerisk, pmse and riskutilitysweep (Walder et al.) through processing.run
in real headless QGIS, on John Snow's cholera deaths; and the CPO output of fitlgcp."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from qgis import processing
from qgis.core import (
    QgsCoordinateReferenceSystem,
    QgsFeature,
    QgsGeometry,
    QgsPointXY,
    QgsProcessing,
    QgsProcessingException,
    QgsProcessingFeedback,
    QgsVectorLayer,
)

ALGS = ("synthesizelgcp", "disclosurerisk", "pmse", "riskutilitysweep")
#: Coarse mesh (about 600 nodes) to keep the fits quick; the benchmark uses the default mesh.
MAX_EDGE = 0.6


@pytest.fixture(autouse=True)
def _provider(provider):
    return provider


@pytest.fixture(scope="module")
def snow(data_copy, provider, tmp_path_factory):
    """The deaths layer, a pump-7 layer and a model file fitted to the deaths (with its CPO layer)."""
    from qgis.core import QgsProject

    gpkg = data_copy / "snow_cholera.gpkg"
    deaths = QgsVectorLayer(f"{gpkg}|layername=deaths", "deaths", "ogr")
    pumps = QgsVectorLayer(f"{gpkg}|layername=pumps", "pumps", "ogr")
    assert deaths.isValid() and pumps.isValid()
    QgsProject.instance().addMapLayer(deaths, False)
    QgsProject.instance().addMapLayer(pumps, False)
    pump = QgsVectorLayer("Point", "pump 7", "memory")
    pump.setCrs(QgsCoordinateReferenceSystem())  # like the deaths: no CRS (a memory layer defaults to EPSG:4326)
    feature = QgsFeature()
    feature.setGeometry(next(f for f in pumps.getFeatures() if f["pump"] == 7).geometry())
    pump.dataProvider().addFeatures([feature])
    folder = tmp_path_factory.mktemp("walder")
    fit = processing.run(
        "spatialprivacy:fitlgcp",
        {
            "INPUT": deaths,
            "DISTANCE_TO": pump,
            "MAX_EDGE": MAX_EDGE,
            "DRAWS": 400,
            "SEED": 1,
            "OUTPUT_MODEL": str(folder / "snow.npz"),
            "OUTPUT_CPO": str(folder / "cpo.gpkg"),
        },
    )
    yield {"deaths": deaths, "pump": pump, "model": fit["OUTPUT_MODEL"], "fit": fit, "folder": folder}
    QgsProject.instance().removeMapLayer(deaths.id())
    QgsProject.instance().removeMapLayer(pumps.id())


def coords(path):
    layer = QgsVectorLayer(str(path), "out", "ogr")
    assert layer.isValid()
    pts = [f.geometry().asPoint() for f in layer.getFeatures()]
    return np.array([p.x() for p in pts]), np.array([p.y() for p in pts]), layer


def deaths_xy(snow):
    pts = [f.geometry().asPoint() for f in snow["deaths"].getFeatures()]
    return np.array([p.x() for p in pts]), np.array([p.y() for p in pts])


def synthesize(snow, tmp_path, feedback=None, **params):
    out = str(tmp_path / f"syn_{len(list(tmp_path.iterdir()))}.gpkg")
    result = processing.run(
        "spatialprivacy:synthesizelgcp",
        {"INPUT": snow["deaths"], "MODEL": snow["model"], "SEED": 7, "OUTPUT": out, **params},
        feedback=feedback,
    )
    return result


def test_every_parameter_has_help_and_outputs_with_locations_are_marked_confidential():
    from qgis.core import QgsApplication

    for name in ALGS:
        alg = QgsApplication.processingRegistry().algorithmById(f"spatialprivacy:{name}")
        assert alg is not None, name
        assert all(p.help() for p in alg.parameterDefinitions()), [
            p.name() for p in alg.parameterDefinitions() if not p.help()
        ]
        assert "Guarantee" in alg.shortHelpString() and "eq. 16" in alg.shortHelpString()
    risk = QgsApplication.processingRegistry().algorithmById("spatialprivacy:disclosurerisk")
    assert "CONFIDENTIAL" in risk.parameterDefinition("OUTPUT").description()
    assert not risk.parameterDefinition("OUTPUT").createByDefault()  # never the default output
    fit = QgsApplication.processingRegistry().algorithmById("spatialprivacy:fitlgcp")
    assert "CONFIDENTIAL" in fit.parameterDefinition("OUTPUT_CPO").description()
    for name in ("OUTPUT_CPO", "OUTPUT_INTENSITY", "OUTPUT_REPORT"):  # confidential: never made by default
        assert not fit.parameterDefinition(name).createByDefault(), name
    sweep = QgsApplication.processingRegistry().algorithmById("spatialprivacy:riskutilitysweep")
    assert "CONFIDENTIAL" in sweep.parameterDefinition("OUTPUT_TABLE").description()  # scores of the real data
    assert not sweep.parameterDefinition("OUTPUT_TABLE").createByDefault()


def test_fitlgcp_cpo_layer_matches_eq_9_from_the_model_file(snow):
    from spatial_privacy.core.mesh import Mesh
    from spatial_privacy.core.metrics.cpo import log_cpo
    from spatial_privacy.core.posterior import Posterior

    x, y, layer = coords(snow["fit"]["OUTPUT_CPO"])
    assert layer.featureCount() == 578 and {f.name() for f in layer.fields()} >= {"cpo", "log_cpo", "cpo_ess"}
    got = np.array([f["log_cpo"] for f in layer.getFeatures()])
    post = Posterior.load(snow["model"])
    mesh = Mesh(post.nodes, post.triangles)
    proj = mesh.projection(x, y)
    pump = next(snow["pump"].getFeatures()).geometry().asPoint()
    distance = np.hypot(x - pump.x(), y - pump.y())
    eta = post.beta @ np.column_stack([np.ones(x.size), distance]).T + (proj @ post.w.T).T
    want = log_cpo(eta, np.log(post.integrated_intensity()))
    assert np.allclose(got, want, rtol=0, atol=1e-9)
    assert snow["fit"]["LPML"] == pytest.approx(float(got.sum()), rel=1e-9)
    assert np.all(np.array([f["cpo"] for f in layer.getFeatures()]) > 0)


def test_draws_kept_on_disk_give_the_same_model_cpo_and_synthetic_points(snow, tmp_path, monkeypatch):
    """With every array of draws on disk (core.draw_store's limit set to 0), the fit writes the same model file and
    CPO layer as in memory at the same seed, and a synthesis from the model file, whose draws are then mapped from
    it rather than read, gives the same points."""
    from spatial_privacy.core import draw_store
    from spatial_privacy.core.posterior import Posterior

    monkeypatch.setattr(draw_store, "IN_MEMORY_BYTES", 0)
    fit = processing.run(
        "spatialprivacy:fitlgcp",
        {
            "INPUT": snow["deaths"],
            "DISTANCE_TO": snow["pump"],
            "MAX_EDGE": MAX_EDGE,
            "DRAWS": 400,
            "SEED": 1,
            "OUTPUT_MODEL": str(tmp_path / "disk.npz"),
            "OUTPUT_CPO": str(tmp_path / "cpo.gpkg"),
        },
    )
    on_disk, in_memory = Posterior.load(fit["OUTPUT_MODEL"]), Posterior.load(snow["model"])
    assert draw_store.on_disk(on_disk.w) and np.array_equal(on_disk.w, in_memory.w)
    assert np.array_equal(on_disk.beta, in_memory.beta) and fit["LPML"] == snow["fit"]["LPML"]
    cpo = [[f["cpo"] for f in coords(path)[2].getFeatures()] for path in (fit["OUTPUT_CPO"], snow["fit"]["OUTPUT_CPO"])]
    assert cpo[0] == cpo[1]
    mapped = synthesize(snow, tmp_path, METHOD=2, MODEL=fit["OUTPUT_MODEL"])
    monkeypatch.setattr(draw_store, "IN_MEMORY_BYTES", 1 << 30)
    read = synthesize(snow, tmp_path, METHOD=2)
    assert np.array_equal(coords(mapped["OUTPUT"])[0], coords(read["OUTPUT"])[0])


def test_prs_and_ans_give_the_requested_count_inside_the_window_with_only_an_id(snow, tmp_path):
    from spatial_privacy.core.posterior import Posterior

    window = Posterior.load(snow["model"]).window()
    result = synthesize(snow, tmp_path, METHOD=2)
    x, y, layer = coords(result["OUTPUT"])
    assert result["SYNTHETIC_COUNT"] == layer.featureCount() == 578
    assert [f.name() for f in layer.fields() if f.name() != "fid"] == ["syn_id"]
    assert window.contains(x, y).all()
    again = synthesize(snow, tmp_path, METHOD=2)
    assert np.array_equal(coords(again["OUTPUT"])[0], x)  # same seed, same set
    ans = synthesize(snow, tmp_path, METHOD=1, NOISE=0.5, COUNT=100)
    assert ans["SYNTHETIC_COUNT"] == 100 and ans["PAPER_NOISE_LEVEL"] > 0
    assert window.contains(*coords(ans["OUTPUT"])[:2]).all()
    # a count that would take minutes to write, uncancellably, is refused before any work, naming COUNT
    with pytest.raises(QgsProcessingException, match="COUNT"):
        synthesize(snow, tmp_path, METHOD=2, COUNT=1_000_001)


def test_a_radius_below_half_the_spacing_of_the_people_is_flagged(snow, tmp_path):
    """The deaths' distinct locations lie a median 0.0375 units (3.75 m) from their nearest neighbour: a radius
    of 0.001 leaves each point nearer its own person than any neighbour, and the log says so; the paper's
    smallest radius (0.5, 50 m) does not."""
    feedback = QgsProcessingFeedback()
    synthesize(snow, tmp_path, feedback=feedback, METHOD=0, RADIUS=0.001)
    assert "RADIUS: radius 0.001 is below half the median distance between neighbouring confidential" in (
        feedback.textLog()
    )
    feedback = QgsProcessingFeedback()
    synthesize(snow, tmp_path, feedback=feedback, METHOD=0, RADIUS=0.5)
    assert "median distance between neighbouring" not in feedback.textLog()


def test_radial_set_is_within_the_radius_but_not_in_the_input_order(snow, tmp_path):
    from spatial_privacy.core.synthesis.synthetic_sets import link_radial

    result = synthesize(snow, tmp_path, METHOD=0, RADIUS=0.5)
    xs, ys, _ = coords(result["OUTPUT"])
    x, y = deaths_xy(snow)
    order = link_radial(x, y, xs, ys, 0.5)  # a linkage within the radius exists
    assert np.all(np.hypot(xs[order] - x, ys[order] - y) <= 0.5 + 1e-9)
    # shuffled: far fewer than all of the i-th points are within r of the i-th input point
    assert np.mean(np.hypot(xs - x, ys - y) <= 0.5) < 0.5


def test_radial_risk_exceeds_prs_risk_and_the_layer_holds_every_person(snow, tmp_path):
    radial = synthesize(snow, tmp_path, METHOD=0, RADIUS=0.5)
    prs = synthesize(snow, tmp_path, METHOD=2)
    out = {}
    for name, method, syn in (("radial", 0, radial), ("prs", 2, prs)):
        out[name] = processing.run(
            "spatialprivacy:disclosurerisk",
            {
                "INPUT": snow["deaths"],
                "MODEL": snow["model"],
                "SYNTHETIC": syn["OUTPUT"],
                "METHOD": method,
                "RADIUS": 0.5,
                "RISK_RADIUS": 0.1,
                "SEED": 3,
                "OUTPUT": str(tmp_path / f"risk_{name}.gpkg"),
                "OUTPUT_REPORT": str(tmp_path / f"risk_{name}.html"),
            },
        )
    x, y, layer = coords(out["radial"]["OUTPUT"])
    risks = np.array([f["risk"] for f in layer.getFeatures()])
    assert layer.featureCount() == 578 and np.all((risks >= 0) & (risks <= 1))
    assert out["radial"]["MAX_RISK"] == pytest.approx(risks.max()) and 0 < out["radial"]["MEAN_RISK"] <= risks.max()
    # the radial intruder's density is the confidential one restricted to a disc of radius 0.5 and renormalised,
    # so it is far more concentrated than PRS's, which spreads over the whole window (Walder Section 8)
    assert out["radial"]["MAX_RISK"] > 5 * out["prs"]["MAX_RISK"]
    assert "data:image/png;base64," in (tmp_path / "risk_radial.html").read_text()


def test_synthetic_points_of_a_layer_without_crs_have_none_either_and_can_be_assessed(snow, tmp_path):
    """Snow's deaths have no CRS (GeoPackage srs_id -1). A memory layer created without a CRS becomes EPSG:4326,
    and a GeoPackage "Undefined geographic SRS": the synthetic points were then refused by pmse and
    disclosurerisk as 'in another CRS' (and drawn in Africa). They are written with no CRS, as QGIS's own tools
    write the outputs of such a layer."""
    import sqlite3

    from spatial_privacy.compat import crs_key

    params = {"INPUT": snow["deaths"], "MODEL": snow["model"], "METHOD": 2, "SEED": 2}
    memory = processing.run("spatialprivacy:synthesizelgcp", {**params, "OUTPUT": QgsProcessing.TEMPORARY_OUTPUT})
    memory = memory["OUTPUT"]
    assert memory.featureCount() == 578 and memory.crs().authid() != "EPSG:4326" and crs_key(memory.crs()) == ""
    gpkg = synthesize(snow, tmp_path, METHOD=2)["OUTPUT"]
    with sqlite3.connect(gpkg) as db:
        assert db.execute("select srs_id from gpkg_contents").fetchall() == [(-1,)]  # Undefined Cartesian SRS
    for synthetic in (memory, gpkg):
        result = processing.run(
            "spatialprivacy:pmse", {"INPUT": snow["deaths"], "MODEL": snow["model"], "SYNTHETIC": synthetic, "SEED": 1}
        )
        assert 0 < result["PMSE"] <= 0.25


def test_pmse_is_near_zero_for_the_confidential_points_and_larger_for_a_broad_radial_set(snow, tmp_path):
    # the confidential layer itself is refused as SYNTHETIC (test_bad_input_...); a copy moved by 1e-6 units (a
    # tenth of a millimetre) has the same intensity for the model
    copy = subset(snow, 578, shift=1e-6)
    same = processing.run(
        "spatialprivacy:pmse", {"INPUT": snow["deaths"], "MODEL": snow["model"], "SYNTHETIC": copy, "SEED": 1}
    )
    radial = synthesize(snow, tmp_path, METHOD=0, RADIUS=3.0)
    broad = processing.run(
        "spatialprivacy:pmse",
        {
            "INPUT": snow["deaths"],
            "MODEL": snow["model"],
            "SYNTHETIC": radial["OUTPUT"],
            "SEED": 1,
            "OUTPUT_REPORT": str(tmp_path / "pmse.html"),
        },
    )
    # identical point sets: the two fits differ only by Monte Carlo, so p ~ 1/2 everywhere. By the delta method
    # p_hat - 1/2 ~ (mean over L pairs of the log-intensity difference) / 4, whose variance is at most
    # 2 v / (16 L) with v the posterior variance of log lambda at a point, below the fitted field variance
    # (about 3.3 on this mesh): E pMSE <= 2 * 3.3 / (16 * 200) ~ 0.002 with the default 200 draws
    assert 0 <= same["PMSE"] < 0.002
    assert broad["PMSE"] > 4 * same["PMSE"] and broad["PMSE"] <= 0.25
    html = (tmp_path / "pmse.html").read_text(encoding="utf-8")
    assert (
        "No differential-privacy guarantee" in html
        and "<h1>Utility of synthetic points (model-based pMSE) (CONFIDENTIAL: not for publication)" in html
    )


def test_sweep_table_recommendation_and_recommended_layer(snow, tmp_path):
    params = {
        "INPUT": snow["deaths"],
        "MODEL": snow["model"],
        "RADII": "0.5",
        "NOISE_LEVELS": "0.5",
        "PRS_SETS": 1,
        "RISK_RADIUS": 0.1,
        "MAX_RISK": 1.0,
        "SEED": 5,
        "OUTPUT_TABLE": str(tmp_path / "table.gpkg"),
        "OUTPUT_REPORT": str(tmp_path / "sweep.html"),
        "OUTPUT_RECOMMENDED": str(tmp_path / "best.gpkg"),
    }
    result = processing.run("spatialprivacy:riskutilitysweep", params)
    table = QgsVectorLayer(result["OUTPUT_TABLE"], "t", "ogr")
    rows = [{f.name(): feat[f.name()] for f in table.fields()} for feat in table.getFeatures()]
    assert result["SETS"] == len(rows) == 3 and [r["method"] for r in rows] == ["radial", "ans", "prs"]
    best = min(rows, key=lambda r: r["pmse"])
    assert best["recommended"] == 1 and sum(r["recommended"] for r in rows) == 1
    assert result["RECOMMENDED_PMSE"] == pytest.approx(best["pmse"])
    assert 0 < result["BASELINE_MAX_RISK"] < [r["max_risk"] for r in rows][0]  # below the radial set's
    assert QgsVectorLayer(result["OUTPUT_RECOMMENDED"], "b", "ogr").featureCount() == 578
    html = (tmp_path / "sweep.html").read_text(encoding="utf-8")
    assert "data:image/png;base64," in html and "(CONFIDENTIAL: not for publication)</h1>" in html
    # a threshold no set meets (below the risk with nothing released): nothing recommended, and the log says why;
    # the first run's recommendation at the same path is replaced by an empty layer, not left to pass for one
    feedback = QgsProcessingFeedback()
    strict = processing.run(
        "spatialprivacy:riskutilitysweep",
        {
            **params,
            "MAX_RISK": 1e-9,
            "RADII": "",
            "PRS_SETS": 0,
            "REPLICATES": 2,
            "OUTPUT_TABLE": str(tmp_path / "t2.csv"),  # as CSV, with its column types beside it
            "OUTPUT_REPORT": str(tmp_path / "s2.html"),
        },
        feedback=feedback,
    )
    assert np.isnan(strict["RECOMMENDED_PMSE"]) and strict["OUTPUT_RECOMMENDED"] == str(tmp_path / "best.gpkg")
    assert QgsVectorLayer(strict["OUTPUT_RECOMMENDED"], "b", "ogr").featureCount() == 0
    assert "OUTPUT_RECOMMENDED is written empty: no set meets the threshold." in feedback.textLog()
    assert "MAX_RISK = 1e-09 is below the maximum risk with nothing released" in feedback.textLog()
    # two releases of the one ANS setting: numbered in the table, summarised together in the report
    table = QgsVectorLayer(strict["OUTPUT_TABLE"], "t2", "ogr")
    types = {f.name(): f.typeName() for f in table.fields()}
    assert types["max_risk"] == types["pmse"] == "Real" and types["replicate"] == "Integer64", types
    releases = sorted((f["label"], f["replicate"], f["max_risk"]) for f in table.getFeatures())
    assert [(label, rep) for label, rep, _ in releases] == [("ANS noise=0.5", 0), ("ANS noise=0.5 #2", 1)]
    html = (tmp_path / "s2.html").read_text(encoding="utf-8")
    mean = (releases[0][2] + releases[1][2]) / 2
    assert "2 release(s) | max risk mean " + f"{mean:.4g}" in html
    with pytest.raises(QgsProcessingException, match="REPLICATES"):
        processing.run("spatialprivacy:riskutilitysweep", {**params, "REPLICATES": 0})


def test_sweep_lists_with_semicolons_take_decimal_commas(snow, tmp_path):
    # "0,5; 1,5" is two radii, 0.5 and 1.5 (a ',' is a decimal comma when ';' separates the numbers)
    params = {
        "INPUT": snow["deaths"],
        "MODEL": snow["model"],
        "RADII": "0,5; 1,5",
        "NOISE_LEVELS": "",
        "PRS_SETS": 0,
        "RISK_RADIUS": 0.1,
        "SEED": 5,
        "OUTPUT_TABLE": str(tmp_path / "table.gpkg"),
    }
    result = processing.run("spatialprivacy:riskutilitysweep", params)
    table = QgsVectorLayer(result["OUTPUT_TABLE"], "t", "ogr")
    rows = sorted((f["method"], f["value"]) for f in table.getFeatures())
    assert result["SETS"] == 2 and rows == [("radial", 0.5), ("radial", 1.5)]
    with pytest.raises(QgsProcessingException, match=r"NOISE_LEVELS: '0,5,1' is not a number"):
        processing.run(
            "spatialprivacy:riskutilitysweep",
            {**params, "NOISE_LEVELS": "0,25; 0,5,1", "OUTPUT_TABLE": str(tmp_path / "never.gpkg")},
        )
    assert not (tmp_path / "never.gpkg").exists()


def test_without_a_model_file_it_fits_the_layer_itself(snow, tmp_path):
    result = processing.run(
        "spatialprivacy:synthesizelgcp",
        {
            "INPUT": snow["deaths"],
            "DISTANCE_TO": snow["pump"],
            "MAX_EDGE": 1.0,
            "METHOD": 2,
            "SEED": 2,
            "OUTPUT": str(tmp_path / "fit_here.gpkg"),
            "OUTPUT_REPORT": str(tmp_path / "fit_here.html"),
        },
    )
    assert result["SYNTHETIC_COUNT"] == 578
    assert "Posterior mean of" in (tmp_path / "fit_here.html").read_text()


def other_crs_copy(snow):
    layer = QgsVectorLayer("Point?crs=EPSG:28992", "other crs", "memory")
    feats = []
    for f in snow["deaths"].getFeatures():
        g = QgsFeature()
        g.setGeometry(f.geometry())
        feats.append(g)
    layer.dataProvider().addFeatures(feats)
    assert layer.crs() == QgsCoordinateReferenceSystem("EPSG:28992")
    return layer


def subset(snow, count, shift=0.0):
    """The first ``count`` deaths, moved by ``shift`` units in x and y (a set at confidential locations is refused
    as SYNTHETIC)."""
    layer = QgsVectorLayer("Point", "subset", "memory")
    layer.setCrs(QgsCoordinateReferenceSystem())  # like the deaths layer: no CRS
    feats = []
    for f in list(snow["deaths"].getFeatures())[:count]:
        g = QgsFeature()
        point = f.geometry().asPoint()
        g.setGeometry(QgsGeometry.fromPointXY(QgsPointXY(point.x() + shift, point.y() + shift)))
        feats.append(g)
    layer.dataProvider().addFeatures(feats)
    return layer


def test_a_synthetic_layer_with_some_confidential_locations_is_assessed_with_a_warning(snow, tmp_path):
    """No synthesizer puts a point exactly on a confidential location: a few such points (a set edited together
    with the data) are flagged, naming SYNTHETIC and the count, and the assessment still runs."""
    layer = subset(snow, 578, shift=0.01)
    originals = list(snow["deaths"].getFeatures())[:5]
    layer.dataProvider().changeGeometryValues(
        {f.id(): QgsGeometry(g.geometry()) for f, g in zip(list(layer.getFeatures())[:5], originals)}
    )
    feedback = QgsProcessingFeedback()
    params = {"INPUT": snow["deaths"], "MODEL": snow["model"], "SYNTHETIC": layer, "METHOD": 2, "RISK_RADIUS": 0.1}
    result = processing.run("spatialprivacy:disclosurerisk", {**params, "SEED": 1}, feedback=feedback)
    assert 0 < result["MAX_RISK"] <= 1
    assert "SYNTHETIC: 5 of its 578 points lie exactly on confidential locations" in feedback.textLog()


@pytest.mark.parametrize("alg", ["spatialprivacy:disclosurerisk", "spatialprivacy:pmse"])
def test_the_confidential_layer_as_synthetic_is_refused_before_the_fit(snow, alg):
    """Without a model file the confidential fit takes seconds to minutes: the synthetic layer is checked
    against the confidential points before it starts."""
    feedback = QgsProcessingFeedback()
    params = {"INPUT": snow["deaths"], "SYNTHETIC": snow["deaths"], "MAX_EDGE": MAX_EDGE, "RISK_RADIUS": 0.1}
    with pytest.raises(QgsProcessingException, match="SYNTHETIC: all 578 of its points are confidential locations"):
        processing.run(alg, {**params, "SEED": 1}, feedback=feedback)
    assert "Fitting the LGCP" not in feedback.textLog()


def window_layer(snow):
    """A rectangle around the deaths, one unit (100 m) wider on each side, without a CRS like the deaths."""
    layer = QgsVectorLayer("Polygon", "window", "memory")
    layer.setCrs(QgsCoordinateReferenceSystem())
    box = snow["deaths"].extent().buffered(1.0)
    feature = QgsFeature()
    feature.setGeometry(QgsGeometry.fromRect(box))
    layer.dataProvider().addFeatures([feature])
    return layer


@pytest.mark.parametrize("alg", ["spatialprivacy:disclosurerisk", "spatialprivacy:riskutilitysweep"])
@pytest.mark.parametrize("window", [False, True])
def test_a_risk_radius_wider_than_the_window_is_refused_before_the_fit(snow, alg, window, tmp_path):
    """Without a model file the window is known before the fit (WINDOW, or the box fitlgcp draws around the
    points): a radius in the wrong units (metres for units of 100 m) is refused before minutes of fitting."""
    feedback = QgsProcessingFeedback()
    params = {"INPUT": snow["deaths"], "MAX_EDGE": MAX_EDGE, "RISK_RADIUS": 1000.0, "SEED": 1}
    if alg.endswith("disclosurerisk"):
        params.update(SYNTHETIC=subset(snow, 578, shift=0.01), METHOD=2, OUTPUT=str(tmp_path / "never.gpkg"))
    else:
        params.update(RADII="0.5", OUTPUT_TABLE=str(tmp_path / "never.gpkg"))
    if window:
        params["WINDOW"] = window_layer(snow)
    with pytest.raises(QgsProcessingException, match="RISK_RADIUS: the risk radius 1000 is at least the window's"):
        processing.run(alg, params, feedback=feedback)
    assert "Fitting the LGCP" not in feedback.textLog()
    assert list(tmp_path.iterdir()) == []


def test_more_draws_than_the_model_file_holds_are_reported(snow, tmp_path):
    """The model file of the fixture holds 400 draws: DRAWS = 5000 uses those 400, and the log says so."""
    feedback = QgsProcessingFeedback()
    params = {"INPUT": snow["deaths"], "MODEL": snow["model"], "SYNTHETIC": subset(snow, 578, shift=0.01)}
    processing.run("spatialprivacy:pmse", {**params, "DRAWS": 5000, "SEED": 1}, feedback=feedback)
    assert "DRAWS = 5000, but the model holds 400 posterior draws: all 400 are used." in feedback.textLog()
    feedback = QgsProcessingFeedback()
    processing.run("spatialprivacy:pmse", {**params, "DRAWS": 400, "SEED": 1}, feedback=feedback)
    assert "posterior draws: all" not in feedback.textLog()


@pytest.mark.parametrize(
    "case, message",
    [
        ("other_crs", "CRS"),
        ("radial_count", "one point per confidential point"),
        ("risk_radius_zero", "RISK_RADIUS"),
        ("model_other_layer", "MODEL: the model was fitted to 578 points"),
        ("pmse_count", "equal size"),
        ("radial_without_radius", "RADIUS"),
        ("report_on_the_output", "OUTPUT_REPORT: writes the same file as OUTPUT"),
        ("truncated_model", "MODEL: .* is not a model file of spatialprivacy:fitlgcp"),
        # the sampler named its internal eta_nodes; NaN field draws ran unnoticed
        ("model_with_nan_coefficients", r"^MODEL: .*nan\.npz is damaged: its draws of the coefficients hold values "),
        ("model_with_nan_field", r"^MODEL: .*nan\.npz is damaged: its draws of the field hold values that are not"),
        ("sweep_report_is_a_folder", "OUTPUT_REPORT: .* is a folder"),
        ("ans_noise_too_large", "NOISE: the synthetic intensity is too peaked to sample"),
        ("synthetic_is_the_input", "SYNTHETIC: all 578 of its points are confidential locations"),
        ("risk_radius_in_other_units", "RISK_RADIUS: the risk radius 1000 is at least the window's diagonal"),
        ("risk_radius_too_small", "RISK_RADIUS: the risk radius 1e-16 is too small to integrate over .* at least"),
        ("count_is_text", "COUNT: 'abc' is not allowed; give a whole number"),  # QGIS 3.22 read it as 0, late
        ("count_is_not_whole", "COUNT: '1.5' is not allowed; give a whole number"),  # QGIS rounded it to 2
        ("radius_is_text", "RADIUS: 'abc' is not allowed; give a number"),
        ("count_with_an_underscore", "COUNT: '1_000' is not allowed; give a whole number"),  # float() takes it
        ("radius_is_blank", "RADIUS: '  ' is not allowed; give a number"),  # not empty, and read as 0
        ("pmse_synthetic_is_the_input", "SYNTHETIC: all 578 of its points are confidential locations"),
    ],
)
def test_bad_input_is_refused_naming_the_parameter_and_nothing_is_written(snow, tmp_path, case, message):
    out = tmp_path / "never.gpkg"
    params = {
        "INPUT": snow["deaths"],
        "MODEL": snow["model"],
        "SYNTHETIC": subset(snow, 578, shift=0.01),
        "METHOD": 2,
        "RISK_RADIUS": 0.1,
        "SEED": 1,
        "OUTPUT": str(out),
    }
    alg = "spatialprivacy:disclosurerisk"
    if case == "other_crs":
        params["SYNTHETIC"] = other_crs_copy(snow)
    elif case == "radial_count":
        params.update(SYNTHETIC=subset(snow, 100, shift=0.01), METHOD=0, RADIUS=0.5)
    elif case == "risk_radius_zero":
        params["RISK_RADIUS"] = 0.0
    elif case == "model_other_layer":
        params.update(INPUT=subset(snow, 200), SYNTHETIC=subset(snow, 200, shift=0.01))
    elif case == "pmse_count":
        alg = "spatialprivacy:pmse"
        params["SYNTHETIC"] = subset(snow, 100, shift=0.01)
    elif case == "radial_without_radius":
        alg = "spatialprivacy:synthesizelgcp"
        params["METHOD"] = 0
    elif case == "report_on_the_output":  # the HTML report would overwrite the confidential risk layer
        params["OUTPUT_REPORT"] = str(out)
    elif case == "truncated_model":
        data = Path(snow["model"]).read_bytes()
        (tmp_path / "half.npz").write_bytes(data[: len(data) // 2])
        params["MODEL"] = str(tmp_path / "half.npz")
    elif case.startswith("model_with_nan"):
        with np.load(snow["model"], allow_pickle=False) as data:
            arrays = {name: data[name] for name in data.files}
        damaged = "beta" if case.endswith("coefficients") else "w"
        arrays[damaged] = arrays[damaged].copy()
        arrays[damaged][3, 0] = np.nan
        np.savez_compressed(tmp_path / "nan.npz", **arrays)
        alg = "spatialprivacy:synthesizelgcp"
        params["MODEL"] = str(tmp_path / "nan.npz")
    elif case == "ans_noise_too_large":  # allowed by the parameter's range, but exp(field) overflows the sampler
        alg = "spatialprivacy:synthesizelgcp"
        params.update(METHOD=1, NOISE=1000.0)
    elif case == "risk_radius_in_other_units":  # metres typed for a layer in units of 100 m: every risk is 1
        params["RISK_RADIUS"] = 1000.0
    elif case in ("count_is_text", "count_is_not_whole"):
        alg = "spatialprivacy:synthesizelgcp"
        params.update(METHOD=2, COUNT="abc" if case == "count_is_text" else 1.5)
    elif case in ("radius_is_text", "radius_is_blank"):  # an optional number: QGIS 3.22 accepted any text
        alg = "spatialprivacy:synthesizelgcp"
        params.update(METHOD=0, RADIUS="abc" if case == "radius_is_text" else "  ")
    elif case == "count_with_an_underscore":
        alg = "spatialprivacy:synthesizelgcp"
        params.update(METHOD=2, COUNT="1_000")
    elif case == "risk_radius_too_small":  # rows of the disc quadrature that doubles cannot tell apart
        params["RISK_RADIUS"] = 1e-16
    elif case == "synthetic_is_the_input":
        params["SYNTHETIC"] = snow["deaths"]
    elif case == "pmse_synthetic_is_the_input":
        alg = "spatialprivacy:pmse"
        params["SYNTHETIC"] = snow["deaths"]
    elif case == "sweep_report_is_a_folder":  # refused before the sweep, not after it
        alg = "spatialprivacy:riskutilitysweep"
        (tmp_path / "folder").mkdir()
        params = {
            "INPUT": snow["deaths"],
            "MODEL": snow["model"],
            "RADII": "0.5",
            "RISK_RADIUS": 0.1,
            "OUTPUT_TABLE": str(out),
            "OUTPUT_REPORT": str(tmp_path / "folder"),
        }
    with pytest.raises(QgsProcessingException, match=message):
        processing.run(alg, params)
    assert not out.exists()


@pytest.mark.parametrize(
    ("alg", "parameter"),
    [("spatialprivacy:disclosurerisk", "SYNTHETIC"), ("spatialprivacy:pmse", "SYNTHETIC"), (None, "INPUT")],
)
def test_a_csv_table_without_point_geometry_is_told_how_to_load_it(snow, tmp_path, keep_in_project, alg, parameter):
    """The plugin's own CSV output read as a table (OGR: no geometry, no CRS) against points in EPSG:28992: the
    message is about the missing geometry, not the CRS, and comes before the fit."""
    csv = tmp_path / "syn.csv"
    synthesize(snow, tmp_path, OUTPUT=str(csv))
    table = keep_in_project(QgsVectorLayer(str(csv), "syn", "ogr"))
    assert table.isValid() and table.featureCount() == 578 and {"x", "y"} <= set(table.fields().names())
    params = {"INPUT": other_crs_copy(snow), "SYNTHETIC": table, "MAX_EDGE": 2.0, "RISK_RADIUS": 0.1, "SEED": 1}
    if parameter == "INPUT":
        alg, params = "spatialprivacy:synthesizelgcp", {"INPUT": table, "MODEL": snow["model"]}
    out = tmp_path / "out"
    params["OUTPUT"] = str(out / "never.gpkg")
    with pytest.raises(
        QgsProcessingException, match=rf"^{parameter}: the layer has no point geometry .* delimited text layer"
    ):
        processing.run(alg, params)
    assert not out.exists()


def test_cancel_writes_nothing(snow, tmp_path, cancel_after):
    out = tmp_path / "cancelled.gpkg"
    syn = synthesize(snow, tmp_path, METHOD=2)
    with pytest.raises(QgsProcessingException, match="Cancel"):
        processing.run(
            "spatialprivacy:disclosurerisk",
            {
                "INPUT": snow["deaths"],
                "MODEL": snow["model"],
                "SYNTHETIC": syn["OUTPUT"],
                "METHOD": 2,
                "RISK_RADIUS": 0.1,
                "OUTPUT": str(out),
            },
            feedback=cancel_after(60),
        )
    assert not out.exists()


def test_graphical_model_chain_fit_synthesize_assess(snow, tmp_path):
    """fitlgcp -> synthesizelgcp (PRS, the model file passed on) -> disclosurerisk, as one graphical model."""
    from qgis.core import (
        QgsProcessingModelAlgorithm,
        QgsProcessingModelChildAlgorithm,
        QgsProcessingModelChildParameterSource,
        QgsProcessingModelOutput,
        QgsProcessingModelParameter,
        QgsProcessingParameterFeatureSource,
    )

    model = QgsProcessingModelAlgorithm("lgcp synthesis chain", "tests")
    model.addModelParameter(QgsProcessingParameterFeatureSource("pts", "pts"), QgsProcessingModelParameter("pts"))
    source = QgsProcessingModelChildParameterSource

    def child(alg, child_id, sources, outputs):
        c = QgsProcessingModelChildAlgorithm(f"spatialprivacy:{alg}")
        c.setChildId(child_id)
        c.addParameterSources("INPUT", [source.fromModelParameter("pts")])
        for key, value in sources.items():
            c.addParameterSources(key, [value if isinstance(value, source) else source.fromStaticValue(value)])
        model_outputs = {}
        for name, child_output in outputs.items():
            out = QgsProcessingModelOutput(name, name)
            out.setChildOutputName(child_output)
            model_outputs[name] = out
        c.setModelOutputs(model_outputs)
        model.addChildAlgorithm(c)

    child("fitlgcp", "fit", {"MAX_EDGE": 1.0, "DRAWS": 200, "SEED": 1}, {"model": "OUTPUT_MODEL"})
    child(
        "synthesizelgcp",
        "syn",
        {"MODEL": source.fromChildOutput("fit", "OUTPUT_MODEL"), "METHOD": 2, "SEED": 2},
        {"synthetic": "OUTPUT"},
    )
    child(
        "disclosurerisk",
        "risk",
        {
            "MODEL": source.fromChildOutput("fit", "OUTPUT_MODEL"),
            "SYNTHETIC": source.fromChildOutput("syn", "OUTPUT"),
            "METHOD": 2,
            "RISK_RADIUS": 0.1,
            "SEED": 3,
        },
        {"risk": "OUTPUT"},
    )
    result = processing.run(
        model,
        {
            "pts": snow["deaths"],
            "fit:model": str(tmp_path / "m.npz"),
            "syn:synthetic": str(tmp_path / "s.gpkg"),
            "risk:risk": str(tmp_path / "r.gpkg"),
        },
    )
    assert QgsVectorLayer(result["syn:synthetic"], "s", "ogr").featureCount() == 578
    risks = [f["risk"] for f in QgsVectorLayer(result["risk:risk"], "r", "ogr").getFeatures()]
    assert len(risks) == 578 and 0 < max(risks) < 1


def test_disclosure_risk_writes_the_confidential_layer_only_when_asked(snow, tmp_path):
    prs = synthesize(snow, tmp_path, METHOD=2)
    result = processing.run(
        "spatialprivacy:disclosurerisk",
        {
            "INPUT": snow["deaths"],
            "MODEL": snow["model"],
            "SYNTHETIC": prs["OUTPUT"],
            "METHOD": 2,
            "RISK_RADIUS": 0.1,
            "SEED": 3,
        },
    )
    assert "OUTPUT" not in result and 0 < result["MEAN_RISK"] <= result["MAX_RISK"] < 1
    # asked for as a GeoPackage, the risk layer (the confidential points) is described as CONFIDENTIAL inside it
    import sqlite3
    from contextlib import closing

    params = {"INPUT": snow["deaths"], "MODEL": snow["model"], "SYNTHETIC": prs["OUTPUT"], "METHOD": 2}
    risk = processing.run(
        "spatialprivacy:disclosurerisk", {**params, "RISK_RADIUS": 0.1, "SEED": 3, "OUTPUT": str(tmp_path / "r.gpkg")}
    )
    for path, labelled in ((risk["OUTPUT"], True), (prs["OUTPUT"], False)):
        with closing(sqlite3.connect(path)) as database:
            (description,) = database.execute("SELECT description FROM gpkg_contents").fetchone()
        assert description.startswith("CONFIDENTIAL: not for publication") == labelled, (path, description)


def test_cancel_while_points_are_written_stops_and_keeps_the_previous_layer(snow, tmp_path):
    """The layer is staged beside its target: a Cancel while the points are written (in the QGIS desktop the
    user clicks it while the task runs) stops the writing, removes the staged file and leaves the layer that
    was at the target as it was."""

    class CancelWhileWriting(QgsProcessingFeedback):
        def setProgress(self, value):  # noqa: N802 (QGIS API name)
            super().setProgress(value)
            if "Writing 20000 points." in self.textLog() and value > 90.0:
                self.cancel()

    params = {"INPUT": snow["deaths"], "MODEL": snow["model"], "METHOD": 2, "COUNT": 300, "SEED": 3,
              "OUTPUT": str(tmp_path / "syn.gpkg")}  # fmt: skip
    processing.run("spatialprivacy:synthesizelgcp", params)
    before = {p.name: p.read_bytes() for p in tmp_path.iterdir()}
    assert list(before) == ["syn.gpkg"]
    feedback = CancelWhileWriting()
    with pytest.raises(QgsProcessingException, match="Cancelled: this algorithm wrote nothing"):
        processing.run("spatialprivacy:synthesizelgcp", {**params, "COUNT": 20000}, feedback=feedback)
    assert feedback.progress() < 100.0  # stopped while writing
    assert {p.name: p.read_bytes() for p in tmp_path.iterdir()} == before
    assert QgsVectorLayer(str(tmp_path / "syn.gpkg"), "s", "ogr").featureCount() == 300


def test_a_model_child_with_a_count_above_the_maximum_is_refused(snow, tmp_path, one_step_model):
    """QGIS checks parameter ranges for the dialog, processing.run and qgis_process, not for a model's child
    algorithms: the algorithms check again before they run (a COUNT of 1.5 million had been written)."""
    model = one_step_model("spatialprivacy:synthesizelgcp", {"MODEL": snow["model"], "METHOD": 2, "COUNT": 1_500_000})
    feedback = QgsProcessingFeedback()
    with pytest.raises(QgsProcessingException):
        processing.run(model, {"pts": snow["deaths"], "c:o": str(tmp_path / "out" / "s.gpkg")}, feedback=feedback)
    assert "COUNT: '1500000' is not allowed; give a whole number from 1 to 1000000." in feedback.textLog()
    assert not (tmp_path / "out").exists()


def test_progress_moves_while_many_synthetic_points_are_written(snow, tmp_path, recording_feedback):
    """With a MODEL nothing else reports progress: the bar must still move through drawing and writing."""
    from processing.tools import dataobjects

    # the batch dialog runs each row with its own feedback and a context holding the feedback of the whole
    # batch: the writing must move the row's bar, not the batch's (which had jumped ahead and back)
    feedback, batch = recording_feedback(), recording_feedback()
    result = processing.run(
        "spatialprivacy:synthesizelgcp",
        {"INPUT": snow["deaths"], "MODEL": snow["model"], "METHOD": 2, "COUNT": 20000, "SEED": 3,
         "OUTPUT": str(tmp_path / "many.gpkg")},
        feedback=feedback,
        context=dataobjects.createContext(batch),
    )  # fmt: skip
    assert result["SYNTHETIC_COUNT"] == 20000 and batch.values == []
    writing = [v for v in feedback.values if 90.0 <= v < 100.0]
    assert len(set(writing)) >= 4 and writing == sorted(writing)  # every 5,000 points
    assert "Writing 20000 points." in feedback.textLog() and "Drawing 20000 synthetic points" in feedback.textLog()
    assert feedback.values == sorted(feedback.values) and feedback.values[-1] == 100.0


def test_progress_never_goes_back_and_ends_at_100_with_the_fit(snow, tmp_path, recording_feedback):
    """Without a MODEL the fit reports progress too: drawing comes after it on the bar, and the run ends at 100."""
    params = {"INPUT": snow["deaths"], "DISTANCE_TO": snow["pump"], "MAX_EDGE": MAX_EDGE, "METHOD": 1, "NOISE": 1.0,
              "SEED": 3, "OUTPUT": str(tmp_path / "ans.gpkg")}  # fmt: skip
    feedback = recording_feedback()
    processing.run("spatialprivacy:synthesizelgcp", params, feedback=feedback)
    values = feedback.values
    assert values == sorted(values) and values[-1] == 100.0 and len(set(values)) > 10


def test_an_untrusted_integration_is_refitted_with_the_degree_3_rule(enterprises, tmp_path, keep_in_project):
    # the Walder tools fit with the default (edge-midpoint) integration and have no INTEGRATION parameter, so when
    # that fit is fooled by node spikes they refit with the degree-3 rule and say so: 300 of the enterprises (tight
    # clusters, 30 repeated locations) fool the edge midpoints at the default settings
    layer = keep_in_project(QgsVectorLayer(enterprises, "first 300", "ogr"))
    layer.setSubsetString('"fid" <= 300')
    params = {"INPUT": layer, "METHOD": 2, "SEED": 1, "OUTPUT": str(tmp_path / "s.gpkg")}
    feedback = QgsProcessingFeedback()
    result = processing.run("spatialprivacy:synthesizelgcp", params, feedback=feedback)
    assert "refitted with the degree-3 rule" in feedback.textLog()
    assert result["SYNTHETIC_COUNT"] == 300


def test_loaded_risk_layer_is_graduated_on_the_risk(snow, tmp_path, run_loading):
    from qgis.core import QgsGraduatedSymbolRenderer

    radial = synthesize(snow, tmp_path, METHOD=0, RADIUS=0.5)
    target = str(tmp_path / "risk.gpkg")
    params = {"INPUT": snow["deaths"], "MODEL": snow["model"], "SYNTHETIC": radial["OUTPUT"], "METHOD": 0,
              "RADIUS": 0.5, "RISK_RADIUS": 0.1, "SEED": 3, "OUTPUT": target}  # fmt: skip
    results, context, feedback = run_loading("spatialprivacy:disclosurerisk", params)
    layer = QgsVectorLayer(target, "risk", "ogr")
    run_loading.loaded(context, target, layer, feedback)
    assert isinstance(layer.renderer(), QgsGraduatedSymbolRenderer) and layer.renderer().classAttribute() == "risk"


@pytest.mark.parametrize("alg_id", ["spatialprivacy:disclosurerisk", "spatialprivacy:riskutilitysweep"])
def test_a_risk_radius_of_zero_is_refused_before_the_run(snow, alg_id):
    """The dialog shows 0 for the required RISK_RADIUS until a user types one: the dialog's check refuses it
    (it had passed, and the run failed only after starting)."""
    from qgis.core import QgsApplication, QgsProcessingContext

    alg = QgsApplication.processingRegistry().algorithmById(alg_id)
    params = {"INPUT": snow["deaths"], "MODEL": snow["model"], "SYNTHETIC": snow["deaths"], "RISK_RADIUS": 0.0}
    assert alg.checkParameterValues(params, QgsProcessingContext()) == (
        False,
        "RISK_RADIUS: the radius must be a finite number > 0, got 0.0.",
    )
    ok, _ = alg.checkParameterValues({**params, "RISK_RADIUS": 0.1}, QgsProcessingContext())
    assert ok
    ok, message = alg.checkParameterValues({**params, "RISK_RADIUS": "abc"}, QgsProcessingContext())
    assert not ok and message.startswith("RISK_RADIUS: 'abc' is not allowed; give a number")


def test_a_layer_without_crs_written_as_geojson_is_flagged(snow, tmp_path):
    """GeoJSON has no way to say "no CRS": the Snow map's units (100 m) would load as degrees in the Gulf of
    Guinea. The run warns; a GeoPackage keeps the undefined CRS and draws no warning."""
    params = {"INPUT": snow["deaths"], "MODEL": snow["model"], "METHOD": 2, "SEED": 3}
    feedback = QgsProcessingFeedback()
    processing.run(
        "spatialprivacy:synthesizelgcp", {**params, "OUTPUT": str(tmp_path / "s.geojson")}, feedback=feedback
    )
    assert "OUTPUT: the layer has no CRS, which s.geojson cannot say" in feedback.textLog()
    feedback = QgsProcessingFeedback()
    processing.run("spatialprivacy:synthesizelgcp", {**params, "OUTPUT": str(tmp_path / "s.gpkg")}, feedback=feedback)
    assert "cannot say" not in feedback.textLog()


def test_reading_two_large_layers_never_moves_the_bar_back(dwellings, tmp_path, keep_in_project, recording_feedback):
    """Layers are read 20,000 points at a time with progress: the synthetic layer's read and the fit come after
    the confidential layer's on the bar (each read had restarted it at 0)."""
    first, second = (keep_in_project(QgsVectorLayer(dwellings, name, "ogr")) for name in ("first", "second"))
    first.setSubsetString('"fid" <= 25000')
    second.setSubsetString('"fid" > 25000 AND "fid" <= 50000')
    assert first.featureCount() == second.featureCount() == 25000
    params = {"INPUT": first, "SYNTHETIC": second, "SEED": 1, "DRAWS": 20, "OUTPUT_REPORT": str(tmp_path / "p.html")}
    feedback = recording_feedback()
    result = processing.run("spatialprivacy:pmse", params, feedback=feedback)
    values = feedback.values
    assert 0.0 <= result["PMSE"] <= 0.25
    assert values == sorted(values) and values[-1] == 100.0
    assert any(0.0 < v < 10.0 for v in values) and any(10.0 < v < 20.0 for v in values)  # both reads move it


def test_many_synthetic_points_in_a_geopackage_say_the_index_is_built_as_it_closes(snow, tmp_path, monkeypatch):
    from spatial_privacy.processing import sinks as processing_base

    monkeypatch.setattr(processing_base, "SLOW_CLOSE_FEATURES", 300)
    feedback = QgsProcessingFeedback()
    synthesize(snow, tmp_path, feedback=feedback, METHOD=2, COUNT=300)
    assert "OUTPUT: 300 features written; the GeoPackage now builds their spatial index as" in feedback.textLog()
    feedback = QgsProcessingFeedback()
    synthesize(snow, tmp_path, feedback=feedback, METHOD=2, COUNT=299)
    assert "spatial index" not in feedback.textLog()


def test_a_synthetic_set_is_not_recorded_in_a_ledger_and_the_log_says_why(snow, tmp_path):
    """Walder et al.'s synthesis has no ε: it takes no LEDGER, and its log says a ledger's totals do not cover it."""
    from qgis.core import QgsApplication, QgsProcessingFeedback

    alg = QgsApplication.processingRegistry().algorithmById("spatialprivacy:synthesizelgcp")
    assert alg.parameterDefinition("LEDGER") is None
    feedback = QgsProcessingFeedback()
    synthesize(snow, tmp_path, feedback=feedback, METHOD=0, RADIUS=0.5)
    assert "OUTPUT is not recorded in a privacy-budget ledger: this synthesis has no ε or δ" in feedback.textLog()
