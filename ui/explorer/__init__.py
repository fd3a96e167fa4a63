"""The privacy explorer: a dialog to pick ε and a method's knobs while previewing the trade-off (issue 32).

The curves come from ``core.previews``; this package only shows them, runs them in a ``QgsTask`` and runs the
chosen algorithm by id."""
