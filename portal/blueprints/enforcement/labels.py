"""Portuguese names of the procedure's kinds and states (one place, translated)."""

from __future__ import annotations

from typing import Any

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


_TABLES = {
    "kind": KIND_LABELS,
    "status": STATUS_LABELS,
    "service": SERVICE_LABELS,
    "petition": PETITION_LABELS,
    "petition_status": PETITION_STATUS_LABELS,
    "fine": FINE_STATUS_LABELS,
    "consequence": CONSEQUENCE_LABELS,
}


def enforcement_label(table: str, key: str | None) -> str:
    """``key`` of the named table in words; enforcement's views hand it to their templates
    (``enforcement_label('status', doc.status)``)."""
    return label(_TABLES[table], key)


# The audited actions in words (the audit trail); ``init_app`` hands them to the wiring.
AUDIT_LABELS: dict[str, Any] = {
    "enforcement.issued": _l("Emitiu notificação ou auto"),
    "enforcement.served": _l("Registrou a ciência de notificação ou auto"),
    "enforcement.extended": _l("Prorrogou o prazo de notificação preliminar"),
    "enforcement.return_visit": _l("Registrou o retorno de notificação preliminar"),
    "enforcement.consequence": _l(
        "Registrou consequência na pessoa (perda de posse, termo, apreensão)"
    ),
    "enforcement.petition_filed": _l("Apresentou defesa ou recurso"),
    "enforcement.petition_decided": _l("Decidiu defesa ou recurso"),
    "enforcement.grant_reviewed": _l("Deu vista ao deferimento de defesa ou recurso"),
    "enforcement.collection": _l("Encaminhou multa vencida para cobrança"),
    "enforcement.interdiction_expenses": _l("Cobrou do infrator as despesas da interdição"),
    "enforcement.collection_exported": _l("Exportou as multas para a dívida ativa (CSV)"),
    "enforcement.viewed": _l("Consultou notificação ou auto"),
    "enforcement.code_opened": _l("Abriu documento com o código de acesso"),
    "enforcement.laudo_filed": _l("Registrou laudo veterinário no prazo para sanar (VV 23 II)"),
    "enforcement.address_changed": _l(
        "Registrou mudança de endereço do animal no prazo para sanar (VV 23 II)"
    ),
    "enforcement.representation_decided": _l("Aceitou ou recusou a procuração de um representante"),
}
