"""Words for the domain's codes: its audited actions."""

from __future__ import annotations

from typing import Any

from flask_babel import lazy_gettext as _l

# The audited actions in words (the audit trail); ``init_app`` hands them to the wiring.
AUDIT_LABELS: dict[str, Any] = {
    "animal.sterilised": _l("Registrou no RGA a castração feita no programa"),
    "sterilisation.cancelled": _l("Cancelou castração agendada ou pedido na fila"),
    "sterilisation.day_viewed": _l("Consultou a lista de um dia de castrações"),
    "sterilisation.estimate_set": _l("Registrou a estimativa de cães e gatos do ano (meta)"),
    "sterilisation.from_waitlist": _l("Vaga de castração dada ao próximo da fila"),
    "sterilisation.outcome": _l("Registrou o resultado de uma castração"),
    "sterilisation.requested": _l("Pediu castração (agendada ou na fila)"),
    "sterilisation.site_active": _l("Ativou ou desativou local de castração"),
    "sterilisation.site_saved": _l("Cadastrou ou alterou local de castração"),
    "sterilisation.slot_capacity": _l("Alterou as vagas de um dia de castrações"),
    "sterilisation.slot_opened": _l("Abriu um dia de castrações"),
}
