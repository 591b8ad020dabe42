"""Plain Portuguese titles of the provisions a profile cites (issue 25: a citizen never reads
"GRU 10 V a" alone).

Every rule of a profile carries its article (and finer ``cites`` per value). The title of a
provision follows from *what the rule is about*, which is the same in every city, so it lives
here once, keyed by the profile's section and field, not copied into each city's file:
``provision_titles(profile)`` maps each citation the profile holds to its plain title and to the
section of the "Regras do município" page that explains it (``/regras#<anchor>``).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from flask_babel import lazy_gettext as _l
from pydantic import BaseModel

from portal.profiles.schema import Profile, is_silent

_CITATION = re.compile(r"^[A-Z]{2,8} \d")


@dataclass(frozen=True)
class Provision:
    title: str  # plain words: "prazo para a defesa"
    anchor: str  # the section of /regras that explains it ("notificacoes")


# profile section -> (plain title of the rule as a whole, anchor on /regras)
SECTION_TITLES = {
    "household": (_l("limite de cães e gatos por residência"), "residencia"),
    "licence": (_l("licença para ter mais animais"), "residencia"),
    "registration": (_l("registro do animal (RGA)"), "registro"),
    "provisional_id": (_l("documento provisório do animal"), "registro"),
    "impound": (_l("apreensão de animais"), "apreensao"),
    "reclaim": (_l("resgate de animal apreendido"), "apreensao"),
    "adoption": (_l("adoção"), "adocao"),
    "euthanasia": (_l("eutanásia"), "eutanasia"),
    "fines": (_l("multas"), "multas"),
    "notices": (_l("notificações, defesa e recursos"), "notificacoes"),
    "reports": (_l("maus-tratos a animais"), ""),
    "establishments": (_l("estabelecimentos que lidam com animais"), "estabelecimentos"),
    "sterilisation": (_l("castração"), ""),
    "expenses": (_l("despesas a ressarcir"), "multas"),
}
# (section, field) -> plain title of one value of the rule
FIELD_TITLES = {
    ("notices", "defence_days"): _l("prazo para a defesa"),
    ("notices", "appeal_days"): _l("prazo para o recurso"),
    ("notices", "second_appeal_days"): _l("prazo para o segundo recurso"),
    ("notices", "decision_days"): _l("prazo para a decisão"),
    ("notices", "payment_days"): _l("prazo para pagar a multa"),
    ("notices", "edital_days"): _l("aviso por edital"),
    ("notices", "grant_review_days"): _l("revisão da decisão favorável"),
    ("notices", "late_petition"): _l("pedido fora do prazo"),
    ("notices", "repeated_petition"): _l("pedido repetido"),
    ("notices", "counting"): _l("contagem dos prazos"),
    ("notices", "moves_to_business_day"): _l("prazo que termina em dia sem expediente"),
    ("notices", "first_instance_authority"): _l("quem decide a defesa"),
    ("notices", "second_instance_authority"): _l("quem decide o recurso"),
    ("notices", "second_instance_other_authority"): _l("quem decide o recurso"),
    ("notices", "entity_activity_address"): _l("endereço para notificar uma entidade"),
    ("fines", "severities"): _l("gravidade da infração"),
    ("fines", "repeat_multiplier"): _l("multa em dobro na reincidência"),
    ("fines", "repeat_window_years"): _l("prazo da reincidência"),
    ("fines", "prescription_years"): _l("prescrição da multa"),
    ("household", "limit"): _l("limite de cães e gatos por residência"),
    ("registration", "window_end_months"): _l("prazo para registrar o animal"),
    ("registration", "rabies_proof_required"): _l("vacina antirrábica para o registro"),
    ("licence", "requires"): _l("documentos da licença"),
    ("licence", "requests_accepted_until"): _l("prazo para pedir a licença"),
    ("provisional_id", "staff_must_issue_within"): _l("prazo para entregar a segunda via"),
}


def provision_titles(profile: Profile) -> dict[str, Provision]:
    """Every citation the profile holds -> its plain title and its place on /regras.

    A citation two rules share keeps the first, more general title (sections in the order above);
    a citation inside a rule (a report category, a reclaim charge, a consequence) takes its
    section's title unless ``FIELD_TITLES`` has a finer one.
    """
    found: dict[str, Provision] = {}
    for section, (section_title, anchor) in SECTION_TITLES.items():
        value = getattr(profile, section, None)
        cites: dict[str, str] = getattr(value, "cites", None) or {}
        for field, citation in cites.items():
            title = FIELD_TITLES.get((section, field), section_title)
            _add(found, citation, str(title), anchor)
        _collect(found, value, str(section_title), anchor)
    for exemption in profile.exemptions:
        _add(found, exemption.article, str(_l("isenção de taxa")), "precos")
    for price in profile.prices.values():
        _add(found, price.article, str(_l("preço público")), "precos")
    return found


def _add(found: dict[str, Provision], citation: object, title: str, anchor: str) -> None:
    if isinstance(citation, str) and citation and not is_silent(citation):
        found.setdefault(citation, Provision(title, anchor))


def _collect(found: dict[str, Provision], value: object, title: str, anchor: str) -> None:
    """Every ``article`` and ``cites`` inside ``value`` (models, lists, dicts), at any depth."""
    if isinstance(value, BaseModel):
        _add(found, getattr(value, "article", None), title, anchor)
        for citation in (getattr(value, "cites", None) or {}).values():
            _add(found, citation, title, anchor)
        for child in vars(value).values():
            _collect(found, child, title, anchor)
    elif isinstance(value, list | tuple):
        for child in value:
            _collect(found, child, title, anchor)
    elif isinstance(value, dict):
        for child in value.values():
            _collect(found, child, title, anchor)
    elif isinstance(value, str) and _CITATION.match(value):  # {care = "VV 28 §3 II"}
        _add(found, value, title, anchor)
