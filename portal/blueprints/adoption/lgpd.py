"""The adoption part of a person's LGPD data download (LGPD art. 18 II)."""

from __future__ import annotations

from typing import Any

from sqlalchemy import select

from portal.extensions import db
from portal.models import (
    AdoptionApplication,
    ApplicantDocument,
    Organization,
    OrganizationMember,
    PersonBar,
    User,
)


def export_adoption(user: User) -> dict[str, Any]:
    """Applications (answers, term, history), proofs, NGO memberships and bars on the CPF."""
    applications = db.session.scalars(
        select(AdoptionApplication)
        .where(AdoptionApplication.applicant_id == user.id)
        .order_by(AdoptionApplication.id)
    )
    documents = db.session.scalars(
        select(ApplicantDocument)
        .where(ApplicantDocument.person_id == user.id)
        .order_by(ApplicantDocument.id)
    )
    organizations = db.session.scalars(
        select(Organization)
        .join(OrganizationMember)
        .where(OrganizationMember.user_id == user.id)
        .order_by(Organization.id)
    )
    bars: list[PersonBar] = (
        list(
            db.session.scalars(
                select(PersonBar).where(PersonBar.cpf == user.cpf).order_by(PersonBar.id)
            )
        )
        if user.cpf
        else []
    )
    return {
        "pedidos": [
            {
                "id": a.id,
                "animal": a.listing.name,
                "anuncio_id": a.listing_id,
                "status": a.status,
                "respostas": a.answers,
                "enviado_em": a.submitted_at,
                "termo": {"versao": a.term_version, "aceito_em": a.term_accepted_at},
                "pedido_de_informacoes": a.info_request,
                "motivo_da_recusa": a.refusal_reason,
                "concluido_em": a.completed_at,
                "rga": a.rga_number,
                "elegibilidade": a.eligibility,
                "historico": [
                    {"em": e.at, "de": e.from_status, "para": e.to_status, "nota": e.note}
                    for e in a.events
                ],
            }
            for a in applications
        ],
        "documentos": [
            {
                "id": d.id,
                "tipo": d.kind,
                "status": d.status,
                "emitido_em": d.issued_on,
                "enviado_em": d.uploaded_at,
                "motivo_da_recusa": d.refusal_reason,
                "arquivo": d.stored_file.original_name,
            }
            for d in documents
        ],
        "ongs": [
            {"id": o.id, "razao_social": o.legal_name, "cnpj": o.cnpj, "status": o.status}
            for o in organizations
        ],
        "impedimentos": [
            {
                "tipo": b.kind,
                "motivo": b.reason,
                "registrado_em": b.recorded_at,
                "cancelado_em": b.revoked_at,
            }
            for b in bars
        ],
    }
