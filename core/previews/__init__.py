"""Preview curves of the privacy explorer: what a privacy setting costs in accuracy, against epsilon.

Each family has its own module (import from it directly): :mod:`.curve` (the :class:`~.curve.Curve` every
function returns, the epsilon grid and the plain-language sentence), :mod:`.pufferfish` (analytic expected
errors of a Pufferfish grid map), :mod:`.counts` (DP synthetic counts, from a few draws) and :mod:`.points`
(Kim & Lim's DP point synthesizers, from a few draws). The previews are computed from confidential data and
are for the data steward only: nothing here is publishable.
"""
