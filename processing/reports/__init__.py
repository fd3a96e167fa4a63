"""The HTML reports: :mod:`.page` writes a page; one module per algorithm family assembles its sections
(guarantee, settings, tables, figures) from the core's results."""
