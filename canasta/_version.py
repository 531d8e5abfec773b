__version__ = "0.2.0"
"""The version of the installed package (semantic versioning; see CHANGELOG.md)."""
