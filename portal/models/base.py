"""Re-export of the declarative base (defined in :mod:`portal.orm` to avoid an import cycle) and
of ``Model``, the class every model subclasses (typed for mypy)."""

from portal.extensions import Model
from portal.orm import NAMING_CONVENTION, Base, UTCDateTime, utcnow

__all__ = ["NAMING_CONVENTION", "UF_CODES", "Base", "Model", "UTCDateTime", "utcnow"]


# The 27 federative units: the two-letter ``state`` of every stored address.
UF_CODES = tuple(
    "AC AL AP AM BA CE DF ES GO MA MT MS MG PA PB PR PE PI RJ RN RS RO RR SC SP SE TO".split()
)
