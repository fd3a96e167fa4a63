"""Point synthesizers: one module per synthesizer.

* :mod:`.walder`: Walder, Hanks & Slavković's synthesizers of location-only data (radial perturbation,
  additive noise and posterior resampling synthesis) and exact-size samplers.
* :mod:`.kernel`: Kim & Lim's kernel Poisson point synthesizer (eq. 6, Theorem 3.6), (epsilon, delta)-DP
  under the alpha-neighbourhood with a calibrated Gaussian bandwidth.
* :mod:`.laplace_cox`: Kim & Lim's Laplace-mechanism Cox point synthesizer (eqs. 12-13, Theorem 3.10), pure
  epsilon-DP, with an optional noisy total.
* :mod:`.lgcp_dp`: the DP condition of Kim & Lim's LGCP Cox point synthesizer (Theorem 3.8, Corollary 3.9)
  and its calibrated ratio ``sigma / l``.
* :mod:`.network_laplace` and :mod:`.network_lgcp`: the Laplace and LGCP Cox point synthesizers on a linear
  network (Section 4.2), over :class:`..network.domain.NetworkDomain` (pieces of the network as cells).

The risk and utility of Walder et al.'s synthesizers (Sections 5-8): :mod:`.confidential_fit` (the LGCP fitted to
the confidential points and what the tools need from it), :mod:`.synthetic_sets` (what set to make, making it,
its release order), :mod:`.assessment` (disclosure risk and pMSE of one set) and :mod:`.sweep` (many sets scored
in turn, and the recommended one).

Kim & Lim's synthesizers (Kim & Lim 2025, "Differentially private synthesis of spatial point processes") reach
their study region only through a domain object (:class:`.domain.Domain`): measure, diameter, membership, a cell
partition, sampling in cells and the Gaussian-kernel geometry of the kernel synthesizer.
:class:`.domain.PlanarDomain` implements it for polygon windows, from :mod:`.grid_cells` (cells clipped to the
window), :mod:`.kernel_mass` (the kernel's mass in the window, Diggle's edge correction, and offspring sampling)
and :mod:`.kernel_mass_bound` (the bound on ``r_alpha``); a linear-network domain implements the same methods.

All privacy noise is drawn through :mod:`..mechanisms`.
"""
