"""Moved to tests/factories.py, where helpers shared by several test modules live; the names stay
importable from here so older imports keep working. New code: ``from tests.factories import``."""

from tests.factories import (  # noqa: F401
    LISTING_DEFAULTS,
    add_document,
    eligible_person,
    fill_household,
    jpeg_bytes,
    make_cnpj,
    make_listing,
    make_org,
    ngo_user,
)
