"""Portuguese labels (translated through Flask-Babel) for the report domain's codes.

Category codes outside this table come with the law's own wording in the profile (``label``).
"""

from __future__ import annotations

from typing import Any

from flask_babel import lazy_gettext as _l

from portal.models.animal import OTHER_SPECIES_LABEL
from portal.models.animal import SPECIES_LABELS as ANIMAL_SPECIES_LABELS
from portal.profiles.schema import Profile

CATEGORY_LABELS = {
    "torture": _l("Tortura"),
    "wounding": _l("Ferimentos, golpes ou prática que cause morte"),
    "poisoning": _l("Envenenamento"),
    "no_shelter": _l("Sem abrigo, luz, água, comida ou higiene; lugar impróprio"),
    "no_food": _l("Sem a alimentação mínima necessária"),
    "chain_or_small_space": _l("Preso em corrente ou corda, ou em espaço pequeno demais"),
    "small_space": _l("Preso em espaço pequeno demais para se mover ou descansar"),
    "excessive_work": _l("Trabalho excessivo ou acima das forças do animal"),
    "overload": _l("Excesso de peso de carga"),
    "injured_use": _l("Uso de animal ferido"),
    "punishment": _l("Castigo, inclusive para adestramento"),
    "transport": _l("Transporte em veículo ou gaiola inadequados"),
    "fights": _l("Uso em lutas ou rinhas"),
    "slaughter": _l("Abate para consumo"),
    "inhumane_killing": _l("Morte ou eutanásia por métodos não humanitários"),
    "abandonment": _l("Abandono em via pública"),
    "no_vet_care": _l("Falta de assistência veterinária"),
    "capture_harm": _l("Dano ao animal durante a captura ou o recolhimento"),
    "research": _l("Envio para instituições de ensino e pesquisa"),
    "experiments": _l("Submissão a experiências"),
    "rituals": _l("Uso em cultos ou rituais"),
    "shows": _l("Uso em circos ou para diversão"),
    "other": _l("Outra forma de maus-tratos"),
}

CHECKLIST_LABELS = {
    "shelter": _l("Abrigo contra sol, chuva e frio"),
    "water": _l("Água limpa à disposição"),
    "food": _l("Alimento adequado"),
    "hygiene": _l("Higiene do local"),
    "chain": _l("Corrente ou corda"),
    "space": _l("Espaço para se mover e descansar"),
    "wounds": _l("Ferimentos ou sinais de agressão"),
    "care": _l("Cuidados veterinários"),
}

FINDING_LABELS = {
    "ok": _l("Adequado"),
    "problem": _l("Irregular"),
    "not_checked": _l("Não verificado"),
}

# What the reporter reads: plain words, no internal detail.
STATE_LABELS = {
    "triage": _l("Recebida, aguardando análise"),
    "assigned": _l("Vistoria programada"),
    "inspected": _l("Vistoriada, providências em andamento"),
    "closed": _l("Encerrada"),
    "merged": _l("Juntada a outra denúncia do mesmo local"),
    "forwarded": _l("Encaminhada à polícia"),
}

# What staff read in queues and filters.
STAFF_STATE_LABELS = {
    "triage": _l("Triagem"),
    "assigned": _l("Atribuída"),
    "inspected": _l("Aguardando notificação/captura"),
    "closed": _l("Encerrada"),
    "merged": _l("Juntada"),
    "forwarded": _l("Encaminhada à polícia"),
}

OUTCOME_LABELS = {
    "nothing_found": _l("Nada constatado"),
    "orientation": _l("Orientação dada ao responsável"),
    "notice_needed": _l("Notificação preliminar necessária"),
    "capture_needed": _l("Apreensão necessária"),
    "forwarded_police": _l("Encaminhada à polícia"),
}

SPECIES_LABELS = {**ANIMAL_SPECIES_LABELS, "other": OTHER_SPECIES_LABEL}

IDENTITY_LABELS = {
    "anonymous": _l("Anônima: não guardamos nada sobre você"),
    "confidential": _l("Sigilosa: informo meu nome e contato, vistos só pela equipe responsável"),
}


def category_label(profile: Profile, code: str) -> str:
    """The label of a category: the profile's own wording, else the translated one."""
    category = profile.reports.category(code)
    if category is not None and category.label:
        return category.label
    return str(CATEGORY_LABELS.get(code, code))


def checklist(profile: Profile) -> list[tuple[str, str]]:
    """(code, label) of the profile's inspection checklist."""
    return [
        (item.code, item.label or str(CHECKLIST_LABELS.get(item.code, item.code)))
        for item in profile.reports.checklist
    ]


# The audited actions in words (the audit trail); ``init_app`` hands them to the wiring.
AUDIT_LABELS: dict[str, Any] = {
    "report.note": _l("Anotou em denúncia"),
    "report.police_letter": _l("Emitiu ofício à polícia sobre denúncia"),
    "report.reply": _l("Respondeu a quem denunciou"),
    "report.reporter_viewed": _l("Consultou a identidade de quem denunciou"),
    "report.state": _l("Mudou a situação de denúncia"),
}
