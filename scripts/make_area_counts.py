"""Build tests/data/dwelling_areas.gpkg: real addresses aggregated to 1 km squares (areal count test data).

Source: the `dwellings` layer of sdcspatial_dwellings.gpkg (90,603 real Dutch addresses with simulated
attributes, R package sdcSpatial, GPL-2). Per 1 km square (EPSG:28992) with at least 20 dwellings:
`dwellings` (population at risk), `unemployed` (the count to protect) and `prior_rate`, the share of
unemployed over the whole layer (a stand-in for a published national rate). Layer `areas` has the squares
as polygons; layer `areas_table` has the same rows without geometry.

    /usr/bin/python3 scripts/make_area_counts.py   (Debian python3 with python3-gdal)
"""

from __future__ import annotations

import os
from collections import Counter

from osgeo import ogr, osr

HERE = os.path.dirname(os.path.abspath(__file__))
SOURCE = os.path.join(HERE, "..", "tests", "data", "sdcspatial_dwellings.gpkg")
TARGET = os.path.join(HERE, "..", "tests", "data", "dwelling_areas.gpkg")
SIZE = 1000.0
MIN_DWELLINGS = 20


def main() -> None:
    data = ogr.Open(SOURCE)
    layer = data.GetLayerByName("dwellings")
    dwellings, unemployed = Counter(), Counter()
    for feature in layer:
        point = feature.GetGeometryRef()
        key = (int(point.GetX() // SIZE), int(point.GetY() // SIZE))
        dwellings[key] += 1
        unemployed[key] += int(feature.GetField("unemployed"))
    # prior_rate: one uniform rate for every square. It is the overall rate of the source layer, a number taken
    # from the (simulated) confidential data, which a real release must not do: its prior must come from public
    # data. It is harmless for these tests only because dpcounts by default rescales the prior to the public
    # total (RESCALE_PRIOR), which cancels any constant rate (one test turns it off to check RATE_SCALE arithmetic).
    rate = sum(unemployed.values()) / sum(dwellings.values())
    keys = sorted(k for k in dwellings if dwellings[k] >= MIN_DWELLINGS)
    if os.path.exists(TARGET):
        os.remove(TARGET)
    out = ogr.GetDriverByName("GPKG").CreateDataSource(TARGET)
    srs = osr.SpatialReference()
    srs.ImportFromEPSG(28992)
    for name, geom_type in (("areas", ogr.wkbPolygon), ("areas_table", ogr.wkbNone)):
        target = out.CreateLayer(name, srs if geom_type != ogr.wkbNone else None, geom_type)
        for field, kind in (("area_id", ogr.OFTString), ("dwellings", ogr.OFTInteger), ("unemployed", ogr.OFTInteger)):
            target.CreateField(ogr.FieldDefn(field, kind))
        target.CreateField(ogr.FieldDefn("prior_rate", ogr.OFTReal))
        for ix, iy in keys:
            feature = ogr.Feature(target.GetLayerDefn())
            feature.SetField("area_id", f"1km_E{ix}N{iy}")
            feature.SetField("dwellings", dwellings[(ix, iy)])
            feature.SetField("unemployed", unemployed[(ix, iy)])
            feature.SetField("prior_rate", rate)
            if geom_type != ogr.wkbNone:
                x0, y0 = ix * SIZE, iy * SIZE
                ring = ogr.Geometry(ogr.wkbLinearRing)
                for x, y in ((x0, y0), (x0 + SIZE, y0), (x0 + SIZE, y0 + SIZE), (x0, y0 + SIZE), (x0, y0)):
                    ring.AddPoint_2D(x, y)
                polygon = ogr.Geometry(ogr.wkbPolygon)
                polygon.AddGeometry(ring)
                feature.SetGeometry(polygon)
            target.CreateFeature(feature)
    print(f"{len(keys)} squares, {sum(unemployed[k] for k in keys)} unemployed of {sum(dwellings[k] for k in keys)}")


if __name__ == "__main__":
    main()
