"""Impound vocabulary: the choices a capture offers and their Portuguese labels, and the article a
capture reason rests on."""

from __future__ import annotations

from typing import Any

from flask_babel import gettext as _
from flask_babel import lazy_gettext as _l

from portal.models import (
    Capture,
    CaptureStatus,
    CustodyType,
)
from portal.models.animal import sex_label as animal_sex_label
from portal.models.animal import size_class_name
from portal.models.animal import species_label as animal_species_label
from portal.profiles.schema import Profile
from portal.services.clock import current_profile

SPECIES = ("dog", "cat", "other")
SIZES = ("small", "medium", "large")
SEXES = ("male", "female", "unknown")
CONDITIONS = ("good", "ill", "injured", "serious")
REASONS = ("loose", "aggressive", "observation", "invader")
RABIES = ("proof", "vaccinated", "waived")
DESTINATIONS = (
    "adoption",
    "ngo_donation",
    "community_return",
    "auction",
    "slaughterhouse",
    "euthanasia",
)
PUBLIC_DAYS = 30  # "Animais recolhidos": captures of the last 30 days
# Lei 14.228/2021: the federal article the portal cites for dogs and cats.
FEDERAL_EUTHANASIA = "Lei federal 14.228/2021, art. 1º e 2º"
# The species Lei 14.228/2021 protects: their lives end only by its art. 2º euthanasia (never at a
# slaughterhouse, never for want of an owner); other species follow the municipal law.
FEDERAL_SPECIES = ("dog", "cat")
# GRU 87 §ú: the apprehension takes effect after the final decision; the "next step" shown.
SETTLEMENT_SUBJECT = "capture"


def species_label(value: str) -> str:
    return animal_species_label(value)


def size_label(value: str) -> str:
    """ "pequeno porte" (the templates capitalise it where it starts a line)."""
    return size_class_name(value)


def capture_size_label(capture: Capture) -> str:
    """The size class the law counts for a captured animal, with the agent's description when it
    differs: a heavy dog in Guarulhos reads "pequeno porte (descrito como médio)" (GRU 10 XV),
    because the hold and the fee follow the legal class, never the weight."""
    legal = current_profile().impound.legal_size(capture.species, capture.size)
    if legal == capture.size:
        return size_class_name(legal)
    return _(
        "%(legal)s (descrito como %(described)s)",
        legal=size_class_name(legal),
        described=_SIZE_WORDS.get(capture.size, capture.size),
    )


_SIZE_WORDS = {"small": _l("pequeno"), "medium": _l("médio"), "large": _l("grande")}


def sex_label(value: str) -> str:
    return animal_sex_label(value)


def condition_label(value: str) -> str:
    return {
        "good": _("Bom estado"),
        "ill": _("Doente"),
        "injured": _("Ferido"),
        "serious": _("Estado grave"),
    }.get(value, value)


def community_condition_label(value: str) -> str:
    """What the animal has before it goes back to its community (BJP 25 §3 II; VV 19 §1)."""
    return {
        "registered": _("Registrado (RGA)"),
        "sterilised": _("Esterilizado cirurgicamente"),
        "vaccinated": _("Vacinado"),
        "dewormed": _("Desverminação iniciada (primeira dose)"),
        "ectoparasites": _("Controle de ectoparasitos feito"),
        "carer_term": _("Termo de compromisso assinado pelo cuidador principal"),
        # BJP 25 §3: community return is the second priority
        "earlier_priorities_failed": _(
            "Sem adotante nem ONG cadastrada que o receba (a prioridade I da lei não foi possível)"
        ),
    }.get(value, value)


def custody_label(value: str) -> str:
    labels: dict[str, str] = {
        CustodyType.ORDINARY: _("Guarda comum"),
        CustodyType.OBSERVATION: _("Observação antirrábica"),
        CustodyType.AGGRESSIVE: _("Animal agressivo"),
    }
    return labels.get(value, value)


def reason_label(value: str) -> str:
    return {
        "loose": _("Solto ou desacompanhado em via pública"),
        "aggressive": _("Animal agressivo ou mordedor"),
        "observation": _("Observação de raiva após agressão"),
        "invader": _("Animal invasor de propriedade"),
    }.get(value, value)


def status_label(value: str) -> str:
    labels: dict[str, str] = {
        CaptureStatus.IN_CUSTODY: _("Sob guarda do CCZ"),
        CaptureStatus.DEFINITIVE_PENDING: _("Apreensão definitiva em andamento"),
        CaptureStatus.RELEASED: _("Devolvido ao proprietário"),
        CaptureStatus.DESTINED: _("Destinado"),
    }
    return labels.get(value, value)


def destination_label(value: str) -> str:
    return {
        "adoption": _("Adoção (anúncio do CCZ)"),
        "ngo_donation": _("Doação a ONG de proteção animal"),
        "community_return": _("Devolução à comunidade com cuidador"),
        "auction": _("Leilão em hasta pública"),
        "slaughterhouse": _("Abatedouro licenciado"),
        "euthanasia": _("Eutanásia (somente com laudo veterinário)"),
    }.get(value, value)


def auction_outcome_label(value: str | None) -> str:
    """CAB 20: what came of the public auction."""
    return {
        "sold": _("Arrematado no leilão"),
        "failed": _("Leilão frustrado: o animal voltou à guarda do CCZ"),
    }.get(value or "", _("Resultado do leilão ainda não registrado"))


def rabies_label(value: str | None) -> str:
    return {
        "proof": _("Vacina antirrábica em dia comprovada"),
        "vaccinated": _("Vacinado contra raiva no CCZ"),
        "waived": _("Vacinação dispensada pela autoridade sanitária"),
    }.get(value or "", "—")


def reason_article(profile: Profile, reason: str) -> str:
    """The article a capture reason rests on, from the profile's impound rule."""
    rule = profile.impound
    if reason == "observation" and profile.observation_days()[0]:
        return rule.cite("observation_days")  # CAB 30; GRU 61
    return rule.article


# The audited actions in words (the audit trail); ``init_app`` hands them to the wiring.
AUDIT_LABELS: dict[str, Any] = {
    "impound.alert_created": _l("Cadastrou aviso de animal perdido"),
    "impound.alert_matched": _l("Avisou dono de animal perdido sobre captura parecida"),
    "impound.auction_outcome": _l("Registrou o resultado do leilão de animal recolhido"),
    "impound.captured": _l("Registrou captura de animal"),
    "impound.cause_ended": _l("Confirmou que cessaram as causas da captura"),
    "impound.certificate_decided": _l("Registrou exame de certidão de captura"),
    "impound.certificate_requested": _l("Pediu certidão negativa de captura"),
    "impound.definitive_decided": _l("Registrou decisão final de apreensão definitiva"),
    "impound.definitive_opened": _l("Abriu apreensão definitiva de animal"),
    "impound.destined": _l("Decidiu a destinação de animal recolhido"),
    "impound.euthanasia_proposed": _l("Registrou laudo que propõe eutanásia e avisou as ONGs"),
    "impound.laudo_supervised": _l("Supervisionou laudo de eutanásia (veterinário coordenador)"),
    "impound.laudo_withdrawn": _l("Retirou laudo que propunha eutanásia"),
    "impound.ngo_claimed": _l("ONG resgatou animal com laudo de eutanásia"),
    "impound.on_site_euthanasia": _l("Registrou eutanásia no local"),
    "impound.owner_notified": _l("Avisou o proprietário sobre a captura"),
    "impound.rabies_checked": _l("Registrou vacina antirrábica no resgate"),
    "impound.reclaim_started": _l("Iniciou resgate de animal recolhido"),
    "impound.registered_on_reclaim": _l("Registrou animal (RGA) no resgate"),
    "impound.released": _l("Devolveu animal recolhido ao proprietário"),
    "impound.viewed": _l("Consultou captura de animal"),
}
