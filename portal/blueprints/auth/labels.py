"""Words for the domain's codes: its audited actions."""

from __future__ import annotations

from typing import Any

from flask_babel import lazy_gettext as _l

# The audited actions in words (the audit trail); ``init_app`` hands them to the wiring.
AUDIT_LABELS: dict[str, Any] = {
    "account.activated": _l("Ativou a conta pelo link enviado por e-mail"),
    "auth.second_factor_enrolled": _l("Ativou a verificação em duas etapas"),
    "auth.second_factor_ok": _l("Entrou com a verificação em duas etapas"),
    "auth.second_factor_locked": _l("Código de verificação bloqueado após muitos erros"),
}
