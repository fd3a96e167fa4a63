"""Utility metrics of synthetic point patterns: K and L functions, MISE of the K-function, pMSE.

* :mod:`.kfunction`: Ripley's K-function (homogeneous, as spatstat's ``Kest``, and inhomogeneous,
  Kim & Lim eq. 14 / spatstat's ``Kinhom``) with isotropic, border or no edge correction on
  polygon windows, and the mean integrated squared relative error (MISE) between two K-functions
  (Kim & Lim, Section 4.1).
* :mod:`.pmse`: the propensity-score mean squared error from normalised intensities (Kim & Lim
  eq. 15) and from any propensity scores.
"""
