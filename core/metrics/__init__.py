"""Utility and risk metrics of synthetic point patterns: K and L functions, MISE of K, pMSE, disclosure risk.

* :mod:`.kfunction`: Ripley's K-function (homogeneous, as spatstat's ``Kest``, and inhomogeneous,
  Kim & Lim eq. 14 / spatstat's ``Kinhom``) with isotropic, border or no edge correction on
  polygon windows; :mod:`.edge_correction` holds Ripley's isotropic weight and :mod:`.pair_sums` the
  sums over pairs of points it is built from.
* :mod:`.network_kfunction`: the K-function of a pattern on a linear network (Okabe & Yamada's, and Ang,
  Baddeley & Nair's geometrically corrected one; homogeneous and inhomogeneous, as spatstat's ``linearK`` and
  ``linearKinhom``; Kim & Lim Appendix E.3), from the pair sums of :mod:`.network_pair_sums`.
* :mod:`.mise`: the radii to estimate K-functions at and the mean integrated squared relative error
  (MISE) between two K-functions (Kim & Lim, Section 4.1), whatever estimated them.
* :mod:`.pmse`: the propensity-score mean squared error from normalised intensities (Kim & Lim
  eq. 15) and from any propensity scores.
* :mod:`.risk`: the disclosure risk of synthetic locations (Walder, Hanks & Slavković 2020, eqs. 16-18
  and 21), from :mod:`.cpo` (conditional predictive ordinates, eqs. 7 and 9), :mod:`.intensity_draws`
  (posterior intensity draws evaluable anywhere) and :mod:`.disc_quadrature` (Appendix A.4).
"""
