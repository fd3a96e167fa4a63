"""The Processing provider and its algorithms: thin adapters from layers to ``core``."""
