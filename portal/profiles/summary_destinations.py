"""The "Regras do município" lines about where an unreclaimed animal may go: the profile's list of
destinations (CABO 13; CAB 11, 20; VV 19-21; BJP 25 §3; GRU 86, 88), the auction first and what
follows a failed one (CAB 20), the euthanasia of species outside Lei 14.228/2021 (GRU 88 II; CAB
20) and the euthanasia where the animal is (GRU 90; CAB 9 §ú; CABO 11, under Lei 14.228/2021),
each with the reading the portal chose where the law is silent or garbled. Called by
:func:`portal.profiles.summary_enforcement._impound`.
"""

from __future__ import annotations

from flask_babel import gettext as _

from portal.profiles.schema import SIZE_CLASSES, OnSiteEuthanasiaRule, Profile
from portal.profiles.summary_wording import _Items, _join, _sizes

FEDERAL_LAUDO = "Lei federal 14.228/2021, art. 2º"


def _destination_words(p: Profile, destination: str) -> str:
    rule = p.impound
    if destination == "auction" and len(rule.auction_sizes) < len(SIZE_CLASSES):
        return _(
            "leilão em hasta pública (só animais de %(sizes)s)", sizes=_sizes(rule.auction_sizes)
        )
    return {
        "adoption": _("adoção"),
        "ngo_donation": _("doação a entidade protetora dos animais aprovada pelo CCZ"),
        "community_return": _("devolução à comunidade com um cuidador (só cães e gatos)"),
        "auction": _("leilão em hasta pública"),
        "slaughterhouse": _("abatedouro licenciado (nunca cães e gatos)"),
    }.get(destination, destination)


def _euthanasia_ways(grounds: list[str]) -> str:
    words = {
        "incurable_laudo": _("com laudo que ateste doença incurável"),
        "vet_recommendation": _("com laudo que a recomende"),
        "failed_auction": _("depois de um leilão frustrado"),
    }
    return _join([words[g] for g in grounds], _("ou"))


def destinations(p: Profile, out: _Items) -> None:
    """The destinations of an animal nobody reclaimed, in the law's order, with the readings."""
    rule = p.impound
    listed = "; ".join(_destination_words(p, d) for d in rule.destinations)
    text = _("O animal não resgatado pode ter estes destinos, nesta ordem: %(list)s.", list=listed)
    if rule.destinations_reading:
        text += " " + rule.destinations_reading  # pt-BR data of the profile (CABO 13 III)
    out.add(text, rule.cite("destinations"))
    if rule.auction_first and "auction" in rule.destinations:
        after = [d for d in (rule.after_failed_auction or rule.destinations) if d != "auction"]
        text = _(
            "Animal de %(sizes)s não resgatado vai primeiro a leilão em hasta pública. Se o "
            "leilão for frustrado, pode ter %(after)s, ou eutanásia decidida pelo médico "
            "veterinário. Leitura do portal: a lei permite a eutanásia depois do leilão "
            "frustrado, mas não a impõe; por isso as outras destinações continuam possíveis.",
            sizes=_sizes(rule.auction_sizes),
            after=_join([_destination_words(p, d) for d in after], _("ou")),
        )
        out.add(text, rule.cite("after_failed_auction"))
    grounds = rule.other_species_euthanasia
    if grounds is not None:
        text = _(
            "Animais de outras espécies (cavalos, bois, porcos, cabras...): eutanásia só por "
            "decisão do médico veterinário, %(ways)s.",
            ways=_euthanasia_ways(list(grounds)),
        )
        if grounds == ["incurable_laudo"]:
            text += " " + _(
                "Leitura do portal: a lei lista a eutanásia entre os destinos sem dizer quando; "
                "o portal exige o mesmo laudo de doença incurável que a lei federal exige para "
                "cães e gatos."
            )
        out.add(text, rule.cite("other_species_euthanasia"))
    on_site = rule.on_site_euthanasia
    if on_site is not None:
        _on_site(p, on_site, out)


def _on_site(p: Profile, rule: OnSiteEuthanasiaRule, out: _Items) -> None:
    """GRU 90; CAB 9 §ú; CABO 11: the euthanasia where the animal is, read under Lei 14.228/2021."""
    dogs_and_cats = any(p.impound.legal_size(s, "small") in rule.sizes for s in ("dog", "cat"))
    if rule.ground == "transport_impossible":
        text = _(
            "Animal de %(sizes)s cujo transporte seja inviável pode ter eutanásia no local onde "
            "estiver, a juízo da autoridade sanitária, com laudo do médico veterinário registrado "
            "pelo CCZ. Nunca cães e gatos.",
            sizes=_sizes(rule.sizes),
        )
    elif rule.ground == "removal_impossible":
        text = _(
            "Animal atropelado ou em estado que impossibilite sua remoção é avaliado no local "
            "pelo agente sanitário ou pelo médico veterinário. Terá eutanásia no local se o "
            "proprietário não tiver comparecido quando a equipe chegar e o animal sofrer com os "
            "ferimentos ou com sofrimento excessivo, sem dano aos servidores nem ao órgão "
            "público; o registro confirma cada condição. Leitura do portal: a "
            '"má impressão aos cidadãos" do texto vem dos ferimentos ou do sofrimento, e é isso '
            "que se confirma."
        )
    else:
        text = _(
            "Animal cuja apreensão seja impraticável pode, a juízo do agente sanitário, ter "
            "eutanásia no local, depois de lavrado auto de constatação testemunhado por no mínimo "
            '%(n)d pessoas, com nome e documento de cada uma. Leitura do portal: "eliminado" é '
            "lido como eutanásia por método humanitário, para qualquer espécie.",
            n=rule.witnesses_min,
        )
    out.add(text, rule.article)
    if rule.assessment_outcomes:  # CAB 9 caput
        out.add(
            _(
                "A avaliação no local é registrada também quando não termina em eutanásia: o "
                "animal recolhido ao CCZ (e a captura registrada em seguida) ou deixado com o "
                "proprietário presente, com o que o agente ou o veterinário constatou. Leitura do "
                'portal: o caput ("será avaliado") obriga a avaliar todo animal atropelado ou '
                "que não possa ser removido, qualquer que seja o resultado; o parágrafo único só "
                "diz quando a avaliação pode terminar em eutanásia no local."
            ),
            rule.cite("assessment_outcomes"),
        )
    if dogs_and_cats:
        out.add(
            _(
                "Cães e gatos: a lei municipal vale só dentro da Lei federal 14.228/2021, art. 2º, "
                "que proíbe os órgãos de controle de zoonoses de matar cães e gatos, salvo a "
                "eutanásia por doença grave incurável ou enfermidade infectocontagiosa incurável "
                "com risco à saúde humana ou de outros animais, justificada por laudo do médico "
                "veterinário. O portal recusa a eutanásia no local de cão ou gato sem esse laudo, "
                "assinado e anexado: a impossibilidade de recolher o animal ou o sofrimento, "
                "sozinhos, não bastam."
            ),
            FEDERAL_LAUDO,
        )
