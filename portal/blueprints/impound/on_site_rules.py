"""What each city's law asks before an animal is euthanised where it is (``on_site``).

* GRU 90: a large animal whose transport is impossible, "a juízo da autoridade sanitária" (the
  agent or the vet), on the vet's laudo.
* CAB 9: the animal run over or in a state that makes its removal impossible is assessed there by
  the agent or the vet; §ú: euthanised "in loco" when the owner had not come when the team arrived
  and its wounds or excessive suffering call for it, without harm to the staff or the city (the
  record confirms each condition).
* CABO 11: an animal whose apprehension is impracticable, "a juízo do Agente Sanitário", after an
  auto de constatação witnessed by at least two people (names and documents on the record).

Federal Lei 14.228/2021 art. 2º is read above the three: a dog or a cat a municipal text reaches
(CAB 9 names them; CABO 11 says "o animal") dies only by euthanasia on the vet's laudo attesting a
serious incurable disease, or an incurable infectious one that puts human or animal health at
risk. The municipal conditions alone (suffering, an impracticable capture) never suffice for them.
In Guarulhos they stay refused outright: GRU 10 XV makes every dog and cat "pequeno porte".

Pure checks on values; they raise :class:`~portal.domain.DomainError` beside the field at fault.
"""

from __future__ import annotations

from collections.abc import Sequence

from flask_babel import gettext as _

from portal.domain import DomainError
from portal.models import User
from portal.profiles.schema import OnSiteEuthanasiaRule, Profile
from portal.services.identity import clean_cpf, mask_cpf

from .labels import FEDERAL_SPECIES

FEDERAL_LAUDO = "Lei federal 14.228/2021, art. 2º"
# What the vet's laudo attests for a dog or a cat (Lei 14.228/2021 art. 2º caput).
FEDERAL_GROUNDS = ("incurable_disease", "infectious_risk")
WITNESS_SLOTS = 3  # the form offers three; the law asks at least ``witnesses_min``


def federal_ground_label(code: str | None) -> str:
    return {
        "incurable_disease": _("mal ou doença grave incurável"),
        "infectious_risk": _(
            "enfermidade infectocontagiosa incurável que põe em risco a saúde humana ou de outros "
            "animais"
        ),
    }.get(code or "", code or "")


def confirmation_label(code: str) -> str:
    """The sentence the recorder confirms (CAB 9 §ú), as the law words it."""
    return {
        "owner_absent": _("O proprietário não havia comparecido quando a equipe chegou ao local."),
        "suffering": _("O animal apresenta ferimentos graves ou sofrimento excessivo."),
        "staff_safe": _("O procedimento não traz dano aos servidores nem ao órgão público."),
    }.get(code, code)


def outcome_label(code: str) -> str:
    """What came of the assessment (CAB 9 caput); "euthanasia" is the act of §ú and the others."""
    return {
        "euthanasia": _("eutanásia no local"),
        "taken_to_ccz": _("animal recolhido ao CCZ"),
        "left_with_owner": _("animal deixado com o proprietário, presente no local"),
    }.get(code, code)


def ground_question(rule: OnSiteEuthanasiaRule) -> str:
    """The question the form asks about why the animal could not be brought, in the law's words."""
    return {
        "transport_impossible": _("Por que o transporte do animal é inviável"),
        "removal_impossible": _(
            "Por que a remoção é impossível (atropelamento ou estado do animal)"
        ),
        "apprehension_impracticable": _("Por que a apreensão do animal é impraticável"),
    }[rule.ground]


def document_name(rule: OnSiteEuthanasiaRule) -> str:
    """CABO 11 calls the record an "auto de constatação"; the others, a record of the act."""
    return _("Auto de constatação") if rule.witnesses_min else _("Registro")


def reaches_dogs_and_cats(profile: Profile, rule: OnSiteEuthanasiaRule) -> bool:
    """Whether the municipal text reaches dogs and cats at all (their legal class is in it)."""
    return any(profile.impound.legal_size(s, "small") in rule.sizes for s in FEDERAL_SPECIES)


def laudo_needed(rule: OnSiteEuthanasiaRule, species: str) -> bool:
    """The vet's laudo: always where the profile asks it (GRU 90), and for every dog and cat
    (Lei 14.228/2021 art. 2º)."""
    return rule.vet_laudo == "always" or species in FEDERAL_SPECIES


def check_judge(rule: OnSiteEuthanasiaRule, actor: User) -> None:
    """Whose judgement the act is (GRU 90 the authority; CAB 9 agent or vet; CABO 11 the agent)."""
    if any(actor.has_role(role) for role in rule.judged_by):
        return
    if list(rule.judged_by) == ["agent"]:
        raise DomainError(
            None,
            "agent_only",
            _(
                "Só o agente sanitário decide e lavra o auto de constatação (%(a)s).",
                a=rule.cite("judged_by"),
            ),
        )
    if list(rule.judged_by) == ["vet"]:
        raise DomainError(None, "vet_only", _("Só o médico veterinário registra."))
    raise DomainError(
        None, "agent_or_vet", _("Só o agente sanitário ou o médico veterinário registra.")
    )


def check_federal_ground(species: str, ground: str | None) -> None:
    """Lei 14.228/2021 art. 2º: a dog's or a cat's laudo says which of its grounds it attests."""
    if species in FEDERAL_SPECIES and ground not in FEDERAL_GROUNDS:
        raise DomainError(
            "federal_ground",
            "federal_laudo",
            _(
                "Cão ou gato só pode ter eutanásia com laudo do médico veterinário que ateste "
                "doença grave incurável ou enfermidade infectocontagiosa incurável com risco à "
                "saúde humana ou de outros animais (%(law)s). As condições da lei municipal, "
                "sozinhas, não bastam.",
                law=FEDERAL_LAUDO,
            ),
        )


def check_confirmations(rule: OnSiteEuthanasiaRule, given: Sequence[str]) -> None:
    """CAB 9 §ú: each condition confirmed, or the act is not the one the law allows."""
    for code in rule.confirmations:
        if code not in given:
            message = {
                "owner_absent": _(
                    "Com o proprietário presente, a eutanásia no local não se aplica (%(a)s): "
                    "confirme que ele não havia comparecido quando a equipe chegou."
                ),
                "suffering": _(
                    "A eutanásia no local só se aplica ao animal com ferimentos ou sofrimento "
                    "excessivo (%(a)s): confirme a condição."
                ),
                "staff_safe": _(
                    "Confirme que o procedimento não traz dano aos servidores nem ao órgão "
                    "público (%(a)s)."
                ),
            }[code]
            raise DomainError(code, "not_confirmed", message % {"a": rule.article})


def _clean_document(text: str) -> str:
    """A CPF kept as its 11 digits (shown masked); an RG or other document as typed."""
    digits = "".join(ch for ch in text if ch.isdigit())
    if len(digits) == 11 and digits == text.replace(".", "").replace("-", "").strip():
        return clean_cpf(digits) or ""
    return " ".join(text.split())


def clean_witnesses(
    rule: OnSiteEuthanasiaRule, given: Sequence[tuple[str, str]], actor: User
) -> list[dict[str, str]]:
    """CABO 11: the auto de constatação's witnesses, at least ``witnesses_min`` distinct people
    with a name and a document each; never the agent who lavra it. A law without witnesses
    records none."""
    if not rule.witnesses_min:
        return []
    out: list[dict[str, str]] = []
    for n, (name, document) in enumerate(given, start=1):
        name, document = " ".join((name or "").split()), (document or "").strip()
        if not name and not document:
            continue
        if not name:
            raise DomainError(f"witness_{n}_name", "required", _("Informe o nome da testemunha."))
        if not document:
            raise DomainError(
                f"witness_{n}_document", "required", _("Informe o documento da testemunha.")
            )
        cleaned = _clean_document(document)
        if not cleaned or len(cleaned) < 4:
            raise DomainError(
                f"witness_{n}_document",
                "invalid",
                _("Documento inválido: informe o CPF ou o RG da testemunha."),
            )
        if cleaned == actor.cpf:
            raise DomainError(
                f"witness_{n}_document",
                "agent_as_witness",
                _("Quem lavra o auto não pode ser testemunha dele."),
            )
        if any(w["document"] == cleaned for w in out):
            raise DomainError(
                f"witness_{n}_document",
                "duplicate",
                _("As testemunhas devem ser pessoas diferentes."),
            )
        out.append({"name": name, "document": cleaned})
    if len(out) < rule.witnesses_min:
        raise DomainError(
            f"witness_{len(out) + 1}_name",
            "witnesses",
            _(
                "O auto de constatação precisa de no mínimo %(n)d testemunhas, com nome e "
                "documento (%(a)s).",
                n=rule.witnesses_min,
                a=rule.cite("witnesses_min"),
            ),
        )
    return out


def shown_document(document: str) -> str:
    """A witness's CPF masked on screen (LGPD); another document as typed."""
    if len(document) == 11 and document.isdigit():
        return mask_cpf(document)
    return document
