"""Portuguese names of the procedure's kinds and states (one place, translated)."""

from __future__ import annotations

from flask_babel import lazy_gettext as _l

KIND_LABELS = {
    "preliminary": _l("Notificação preliminar"),
    "infraction": _l("Auto de infração"),
    "penalty": _l("Auto de imposição de penalidade"),
    "apprehension": _l("Auto de apreensão"),
    "commitment": _l("Termo de compromisso"),
}
STATUS_LABELS = {
    "issued": _l("Emitido, aguardando ciência"),
    "open": _l("Em prazo"),
    "complied": _l("Irregularidade sanada"),
    "not_complied": _l("Não cumprida"),
    "under_review": _l("Em julgamento"),
    "upheld": _l("Mantido em primeira instância"),
    "final": _l("Decisão definitiva"),
    "cancelled": _l("Cancelado"),
}
SERVICE_LABELS = {
    "signed": _l("Pessoalmente, com assinatura"),
    "refused": _l("Pessoalmente, recusou-se a assinar"),
    "post": _l("Carta registrada com AR"),
    "edital": _l("Edital na imprensa oficial"),
}
PETITION_LABELS = {"defence": _l("Defesa"), "appeal": _l("Recurso")}
PETITION_STATUS_LABELS = {
    "pending": _l("Aguardando decisão"),
    "granted": _l("Deferido"),
    "denied": _l("Indeferido"),
    "refused": _l("Indeferido sem análise do mérito"),
}
FINE_STATUS_LABELS = {
    "none": _l("Sem multa"),
    "due": _l("A pagar"),
    "paid": _l("Paga"),
    "cancelled": _l("Cancelada"),
    "suspended": _l("Suspensa por recurso (GRU 110)"),
    "collection": _l("Encaminhada para cobrança"),
}
CONSEQUENCE_LABELS = {
    "commitment_never_keep": _l("Termo de compromisso de não mais ter animais"),
    "lost_possession_maltreatment": _l("Perda da posse por maus-tratos"),
    "caused_definitive_apprehension": _l("Apreensão definitiva do animal"),
}


def label(table: dict, key: str | None) -> str:
    return str(table.get(key or "", key or "—"))
