"""Words for the domain's codes: its audited actions."""

from __future__ import annotations

from typing import Any

from flask_babel import lazy_gettext as _l

# The audited actions in words (the audit trail); ``init_app`` hands them to the wiring.
AUDIT_LABELS: dict[str, Any] = {
    "establishment.viewed": _l("Consultou cadastro de estabelecimento"),
    "establishment.requested": _l("Pediu cadastro de estabelecimento"),
    "establishment.data_changed": _l("Comunicou alteração de dados do estabelecimento"),
    "establishment.inspected": _l("Registrou vistoria de estabelecimento"),
    "establishment.approved": _l("Aprovou cadastro de estabelecimento"),
    "establishment.refused": _l("Recusou cadastro de estabelecimento"),
    "establishment.renewal_requested": _l("Pediu renovação de cadastro de estabelecimento"),
    "establishment.renewed": _l("Renovou cadastro de estabelecimento"),
    "establishment.accredited": _l("Credenciou estabelecimento para registrar animais"),
    "establishment.accreditation_revoked": _l("Suspendeu credenciamento de estabelecimento"),
    "establishment.closed": _l("Deu baixa em cadastro de estabelecimento"),
}
