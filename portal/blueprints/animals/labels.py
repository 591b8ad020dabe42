"""Words for the domain's codes: its audited actions."""

from __future__ import annotations

from typing import Any

from flask_babel import lazy_gettext as _l

# The audited actions in words (the audit trail); ``init_app`` hands them to the wiring.
AUDIT_LABELS: dict[str, Any] = {
    "animal.approved": _l("Aprovou registro de animal (RGA)"),
    "animal.card_printed": _l("Imprimiu carteira do RGA"),
    "animal.closed": _l("Deu baixa em RGA"),
    "animal.copies_listed": _l("Consultou pedidos de segunda via"),
    "animal.copy_issued": _l("Emitiu segunda via"),
    "animal.pending_listed": _l("Consultou registros pendentes"),
    "animal.proof_accepted": _l("Aceitou comprovante de vacinação"),
    "animal.proof_refused": _l("Recusou comprovante de vacinação"),
    "animal.registered_by_api": _l("Registrou animal pela API"),
    "animal.searched": _l("Buscou animais"),
    "animal.vaccinated": _l("Registrou vacinação"),
    "animal.viewed": _l("Consultou registro de animal"),
}
