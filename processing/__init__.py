"""The Processing provider and its algorithms: thin adapters from layers to ``core``.

``algorithms/`` holds one algorithm per module; the modules beside it hold what algorithms share: the base class
(``algorithm``), parameters and numbers (``parameters``), progress and Cancel (``feedback``), reading inputs
(``inputs``, ``lgcp_inputs``), output destinations and their checks (``destinations``), staged feature outputs
(``sinks``, ``grid_cells``), rasters (``raster``), labels inside files (``labels``), styles (``styling``) and
the HTML reports (``reports/``).
"""
