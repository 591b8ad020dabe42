"""Re-export of the declarative base (defined in :mod:`portal.orm` to avoid an import cycle)."""

from portal.orm import NAMING_CONVENTION, Base, UTCDateTime, utcnow

__all__ = ["NAMING_CONVENTION", "Base", "UTCDateTime", "utcnow"]
