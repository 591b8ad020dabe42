"""LGPD data download for impound (Lei 13.709/2018)."""

from __future__ import annotations

from typing import Any

from sqlalchemy import select

from portal.extensions import db
from portal.models import (
    Capture,
    CaptureCertificate,
    LostAnimalAlert,
    OnSiteEuthanasia,
    User,
)


def export_personal_data(user: User) -> list[dict[str, Any]]:
    """LGPD data download: the person's lost-animal alerts, certidão requests, captures of
    their animals (the exact capture place included: it is about their animal) and the records
    made where their animal was."""
    alerts = db.session.scalars(select(LostAnimalAlert).where(LostAnimalAlert.user_id == user.id))
    certs = db.session.scalars(
        select(CaptureCertificate).where(CaptureCertificate.requester_id == user.id)
    )
    captures = db.session.scalars(select(Capture).where(Capture.owner_id == user.id))
    return [
        *(
            {
                "aviso_animal_perdido": a.id,
                "especie": a.species,
                "cor": a.color,
                "bairro": a.district,
                "perdido_em": a.lost_on,
            }
            for a in alerts
        ),
        *(
            {"certidao": c.code, "rga": c.animal.rga, "situacao": c.status, "exame_em": c.exam_on}
            for c in certs
        ),
        *(
            {
                "captura": c.protocol,
                "recolhido_em": c.captured_on,
                "local": c.place,
                "bairro": c.district,
                "situacao": c.status,
            }
            for c in captures
        ),
        *(  # the acts where their animal was (GRU 90; CAB 9; CABO 11), known by its RGA
            {
                "atendimento_no_local": r.number,
                "em": r.performed_on,
                "local": r.place,
                "bairro": r.district,
                "resultado": r.outcome,
                "artigo": r.article,
            }
            for r in db.session.scalars(
                select(OnSiteEuthanasia).where(OnSiteEuthanasia.owner_id == user.id)
            )
        ),
    ]
