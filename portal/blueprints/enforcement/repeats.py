"""Which earlier penalties make an offence a repeat (GRU 79; BJP 16 §4 III; VV 34 §2 III).

The law part of the repeat search: same offender, a penalty that still stands, the same legal
provision, committed before. The fee service decides which of them still count (the window of
GRU 79, prescription of GRU 113) and what a repeat costs.
"""

from __future__ import annotations

from datetime import date

from sqlalchemy import select

from portal.extensions import db
from portal.models import EnforcementDocument, EnforcementKind, EnforcementStatus
from portal.services.clock import local_date

# A penalty stands while it is known to the offender and not cancelled: open (its terms run),
# upheld after a defence or appeal, or final. Issued-but-unserved, under review and cancelled
# penalties are not (yet) a previous offence.
STANDING = (EnforcementStatus.OPEN, EnforcementStatus.UPHELD, EnforcementStatus.FINAL)


def previous_offences(doc: EnforcementDocument) -> list[date]:
    """Days of earlier standing penalties on the same offender for the same legal provision.

    GRU 79: "tornar a incidir em infração do mesmo tipo e enquadramento legal". The same offender
    is the same CPF, or the same CNPJ for an establishment; an offender known by neither (served
    by edital) has no record to search.
    """
    if doc.addressee_cpf:
        who = EnforcementDocument.addressee_cpf == doc.addressee_cpf
    elif doc.addressee_cnpj:
        who = EnforcementDocument.addressee_cnpj == doc.addressee_cnpj
    else:
        return []
    rows = db.session.scalars(
        select(EnforcementDocument).where(
            who,
            EnforcementDocument.kind == EnforcementKind.PENALTY,
            EnforcementDocument.status.in_(STANDING),
            EnforcementDocument.id != (doc.id or 0),
        )
    )
    mine = provision_key(doc.legal_provision)
    this_day = local_date(doc.occurred_at)
    return sorted(
        local_date(d.occurred_at)
        for d in rows
        if provision_key(d.legal_provision) == mine and local_date(d.occurred_at) <= this_day
    )


def provision_key(text: str) -> str:
    """The legal provision as written by different agents: "Art. 70, I" is "art. 70 I"."""
    return " ".join(text.upper().replace(",", " ").split())
