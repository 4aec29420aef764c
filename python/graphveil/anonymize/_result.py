"""Compatibility home of :class:`Anonymized`, which now lives beside :class:`UncertainGraph`."""

from graphveil.uncertain import Anonymized

__all__ = ["Anonymized"]
