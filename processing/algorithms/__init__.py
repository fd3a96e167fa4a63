"""The Processing algorithms, one per module; :mod:`..provider` registers them. An algorithm module imports the
shared modules of processing/ (never another algorithm module) and calls the core."""
