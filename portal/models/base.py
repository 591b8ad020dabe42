"""Re-export of the declarative base (defined in :mod:`portal.orm` to avoid an import cycle) and
of ``Model``, the class every model subclasses (typed for mypy)."""

from portal.extensions import Model
from portal.orm import NAMING_CONVENTION, Base, UTCDateTime, utcnow

__all__ = ["NAMING_CONVENTION", "Base", "Model", "UTCDateTime", "utcnow"]
