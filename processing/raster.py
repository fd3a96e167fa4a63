"""Writing a float raster (GeoTIFF or any GDAL format chosen by extension) for an output."""

from __future__ import annotations

import math
import os
import time

from qgis.core import QgsProcessingException, QgsRasterFileWriter

from ..core.files import replaced_when_done
from ..i18n import tr


def check_raster_path(path: str, parameter: str = "OUTPUT_RASTER") -> None:
    """Refuse, before anything is written, a raster file GDAL cannot create as 64-bit floats (e.g. PNG, or a
    GeoPackage raster, which holds at most Float32)."""
    from osgeo import gdal

    ext = os.path.splitext(path)[1].lstrip(".")
    driver_name = QgsRasterFileWriter.driverForExtension(ext) or "GTiff"
    driver = gdal.GetDriverByName(driver_name)
    types = (driver.GetMetadataItem(gdal.DMD_CREATIONDATATYPES) or "").split() if driver is not None else []
    if driver is None or driver.GetMetadataItem(gdal.DCAP_CREATE) != "YES" or "Float64" not in types:
        raise QgsProcessingException(
            tr("{0}: GDAL cannot create 64-bit float '{1}' rasters; use a GeoTIFF (.tif).").format(parameter, ext)
        )


def write_float_raster(
    path: str,
    array,
    x_min: float,
    y_max: float,
    cell_size: float,
    crs,
    descriptions: tuple[str, ...] = (),
    parameter: str = "OUTPUT_RASTER",
    confidential: str | None = None,
    not_private: str | None = None,
) -> None:
    """Write ``array`` (``(rows, cols)`` or ``(bands, rows, cols)``, rows north to south; NaN = NoData)
    with square pixels of ``cell_size``. ``confidential``, if given, is written as the dataset's metadata item
    ``CONFIDENTIAL`` (shown by gdalinfo and QGIS's layer properties), so a copy of the file says so;
    ``not_private`` likewise as ``NOT_PRIVATE`` (a publishable raster whose run lost its guarantee)."""
    from osgeo import gdal, osr

    ext = os.path.splitext(path)[1].lstrip(".")
    driver_name = QgsRasterFileWriter.driverForExtension(ext) or "GTiff"
    driver = gdal.GetDriverByName(driver_name)
    if driver is None:
        raise QgsProcessingException(tr("{0}: GDAL cannot write '{1}' files.").format(parameter, ext))
    bands = array[None] if array.ndim == 2 else array
    count, rows, cols = bands.shape
    options = ["COMPRESS=DEFLATE"] if driver_name == "GTiff" else []
    # a failed write leaves neither half a raster nor no raster; GDAL's side files (.aux.xml, a SAGA grid's
    # .sgrd header) are written under the same name and follow the raster, and an old .aux.xml goes
    with replaced_when_done(path, stale=(path + ".aux.xml",)) as partial:
        ds = driver.Create(partial, cols, rows, count, gdal.GDT_Float64, options)
        if ds is None:
            raise QgsProcessingException(tr("{0}: cannot create {1}.").format(parameter, path))
        ds.SetGeoTransform((x_min, cell_size, 0.0, y_max, 0.0, -cell_size))
        if confidential:
            ds.SetMetadataItem("CONFIDENTIAL", confidential)
        if not_private:
            ds.SetMetadataItem("NOT_PRIVATE", not_private)
        if driver_name == "netCDF":
            # GDAL's netCDF history names the file it created, here the hidden staging path: name the target
            ds.SetMetadataItem(
                "NC_GLOBAL#history", f"{time.ctime()}: written by Spatial Privacy as {os.path.basename(path)}"
            )
        if crs.isValid():
            srs = osr.SpatialReference()
            srs.ImportFromWkt(crs.toWkt())
            ds.SetProjection(srs.ExportToWkt())
        # GDAL reports a failed write (a full disk) only through its error state; metadata a format cannot keep
        # (set above) is not a failed write
        gdal.ErrorReset()
        for index in range(count):
            band = ds.GetRasterBand(index + 1)
            band.SetNoDataValue(math.nan)
            if band.WriteArray(bands[index]) != 0:
                raise QgsProcessingException(tr("{0}: writing {1} failed.").format(parameter, path))
            if index < len(descriptions):
                band.SetDescription(descriptions[index])
            band.FlushCache()
        ds = None  # closes the file: what is still buffered is written now, and may fail
        if gdal.GetLastErrorType() >= gdal.CE_Failure:
            raise QgsProcessingException(
                tr("{0}: writing {1} failed ({2}).").format(parameter, path, gdal.GetLastErrorMsg().strip())
            )
