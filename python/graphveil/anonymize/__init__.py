"""Anonymization schemes: each returns an :class:`Anonymized` (uncertain graph + report)."""

from graphveil.anonymize._result import Anonymized

__all__ = ["Anonymized"]
