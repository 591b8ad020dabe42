"""Words for the domain's codes: its audited actions."""

from __future__ import annotations

from typing import Any

from flask_babel import lazy_gettext as _l

# The audited actions in words (the audit trail); ``init_app`` hands them to the wiring.
AUDIT_LABELS: dict[str, Any] = {
    "admin.outbox_viewed": _l("Consultou os e-mails do portal"),
    "admin.roles_changed": _l("Alterou papéis de usuário"),
    "admin.second_factor_reset": _l("Redefiniu a verificação em duas etapas de usuário"),
    "admin.user_search": _l("Buscou usuários"),
    "admin.user_viewed": _l("Consultou um usuário"),
    "holiday.created": _l("Cadastrou feriado municipal"),
    "holiday.updated": _l("Alterou feriado municipal"),
    "holiday.deleted": _l("Excluiu feriado municipal"),
    "unit_value.created": _l("Cadastrou valor de unidade fiscal"),
}
