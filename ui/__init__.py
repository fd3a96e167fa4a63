"""Qt dialogs and widgets (the risk-utility explorer arrives with its own issue). Computes nothing."""
