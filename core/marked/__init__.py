"""Quick, Holan, Wikle & Reiter's fully synthetic marked point data (Bayesian marked point process synthesis).

* :mod:`.combinations`: the combinations of the categorical marks and their Dirichlet-multinomial (eq. 1).
* :mod:`.model`: the fit: one LGCP per combination with shared hyperparameters (eq. 2, Section 2.5), on the SPDE
  engine (core.lgcp_setup, core.laplace_fit), and the numeric mark's models (:mod:`.numeric`, eqs. 4-5).
* :mod:`.synthesis`: the L fully synthetic data sets of Section 3.
* :mod:`.risk`, :mod:`.utility`, :mod:`.combining`: the disclosure risks (Section 3.2) and utility (Section 3.1).
"""
