"""The access code printed on a document, which nothing in the database reveals.

New documents: the code is derived from the app secret and the document's id (HMAC-SHA256), so it
can be printed again on any copy of the PDF and checked without being stored. Documents issued
before this existed keep their old printed code as an HMAC in ``access_code_hash`` (the migration
writes it with :func:`legacy_hash` and empties ``access_code``); a row not yet migrated still
matches its plain ``access_code``. Rotating ``SECRET_KEY`` changes every derived code: the printed
papers would no longer open their documents.
"""

from __future__ import annotations

import hashlib
import hmac
import secrets

from flask import current_app

from portal.models import EnforcementDocument

ALPHABET = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789"  # no look-alikes (0/O, 1/I), printed on the paper
LENGTH = 8


def _key() -> bytes:
    return str(current_app.config["SECRET_KEY"]).encode("utf-8")


def derived_code(doc_id: int) -> str:
    """Eight characters from an HMAC of the secret and the id (32 symbols: 40 bits)."""
    digest = hmac.new(_key(), f"enforcement-access:{doc_id}".encode(), hashlib.sha256).digest()
    return "".join(ALPHABET[b % len(ALPHABET)] for b in digest[:LENGTH])


def legacy_hash(doc_id: int, code: str) -> str:
    """What the migration stores for a document issued before: an HMAC of its printed code."""
    message = f"enforcement-legacy:{doc_id}:{normalise(code)}".encode()
    return hmac.new(_key(), message, hashlib.sha256).hexdigest()


def normalise(code: str | None) -> str:
    return "".join((code or "").upper().split())


def printed_code(doc: EnforcementDocument) -> str | None:
    """The code to print on a copy; None for a migrated old document (only its hash is kept)."""
    if doc.access_code_hash:
        return None
    return doc.access_code or derived_code(doc.id)


def code_matches(doc: EnforcementDocument, code: str | None) -> bool:
    given = normalise(code)
    if not given:
        return False
    if doc.access_code_hash:
        return secrets.compare_digest(legacy_hash(doc.id, given), doc.access_code_hash)
    if doc.access_code:  # not migrated yet
        return secrets.compare_digest(given, doc.access_code)
    return secrets.compare_digest(given, derived_code(doc.id))
