"""Words for the domain's codes: its audited actions."""

from __future__ import annotations

from typing import Any

from flask_babel import lazy_gettext as _l

# The audited actions in words (the audit trail); ``init_app`` hands them to the wiring.
AUDIT_LABELS: dict[str, Any] = {
    "account.exported": _l("Baixou os próprios dados (LGPD)"),
    "account.updated": _l("Alterou os dados da conta"),
    "account.password_changed": _l("Trocou a senha"),
    "account.suggestion_accepted": _l("Aceitou correção de contato sugerida"),
    "account.suggestion_dismissed": _l("Descartou correção de contato sugerida"),
    "account.unconfirmed_purged": _l("Excluiu cadastro nunca confirmado"),
    "contact_suggestion.viewed": _l("Consultou sugestão de contato de estabelecimento"),
    "contact_suggestion.accepted": _l("Aplicou sugestão de contato de estabelecimento"),
    "contact_suggestion.rejected": _l("Recusou sugestão de contato de estabelecimento"),
}
