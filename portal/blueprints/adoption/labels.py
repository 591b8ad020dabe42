"""Words for the domain's codes: its audited actions."""

from __future__ import annotations

from typing import Any

from flask_babel import lazy_gettext as _l

# The audited actions in words (the audit trail); ``init_app`` hands them to the wiring.
AUDIT_LABELS: dict[str, Any] = {
    "adoption.application_approved": _l("Aprovou pedido de adoção"),
    "adoption.application_refused": _l("Recusou pedido de adoção"),
    "adoption.application_viewed": _l("Consultou pedido de adoção"),
    "adoption.bar_recorded": _l("Registrou impedimento de adoção"),
    "adoption.bar_revoked": _l("Revogou impedimento de adoção"),
    "adoption.bars_viewed": _l("Consultou impedimentos de adoção"),
    "adoption.completed": _l("Concluiu a entrega de animal adotado"),
    "adoption.document_attached": _l("Anexou documento a pedido de adoção"),
    "adoption.document_reviewed": _l("Analisou documento de adotante"),
    "adoption.listing_state": _l("Mudou a situação de anúncio de adoção"),
    "adoption.organization_api_client": _l("Ligou ONG a um acesso à API"),
    "adoption.organization_approved": _l("Aprovou ONG"),
    "adoption.organization_member_added": _l("Incluiu membro em ONG"),
    "adoption.organization_refused": _l("Recusou ONG"),
    "adoption.organization_requested": _l("Pediu cadastro de ONG"),
}
