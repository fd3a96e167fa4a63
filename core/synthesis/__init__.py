"""Point synthesizers: one module per synthesizer.

* :mod:`.walder`: Walder, Hanks & Slavković's synthesizers of location-only data (radial perturbation,
  additive noise and posterior resampling synthesis) and exact-size samplers.
* :mod:`.kernel`: Kim & Lim's kernel Poisson point synthesizer (eq. 6, Theorem 3.6), (epsilon, delta)-DP
  under the alpha-neighbourhood with a calibrated Gaussian bandwidth.
* :mod:`.laplace_cox`: Kim & Lim's Laplace-mechanism Cox point synthesizer (eqs. 12-13, Theorem 3.10), pure
  epsilon-DP, with an optional noisy total.
* :mod:`.lgcp_dp`: the DP condition of Kim & Lim's LGCP Cox point synthesizer (Theorem 3.8, Corollary 3.9)
  and its calibrated ratio ``sigma / l``.

Kim & Lim ("Differentially private synthesis of spatial point processes",
``../shared/papers/kim-lim_dp-point-synthesizers.md``) synthesizers reach their study region only through a
domain object (:mod:`.domain`): measure, diameter, membership, a cell partition, sampling in cells and the
Gaussian-kernel geometry of the kernel synthesizer. :class:`.domain.PlanarDomain` implements it for polygon
windows; a linear-network domain implements the same methods.

All privacy noise is drawn through :mod:`..mechanisms`.
"""
