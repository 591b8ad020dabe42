"""Sections of the "Regras do município" page about impound, euthanasia, fines, notices and
prices (:func:`portal.profiles.summary.rule_sections` assembles them).
"""

from __future__ import annotations

from flask_babel import gettext as _
from flask_babel import ngettext

from portal.profiles.schema import SIZE_CLASSES, Profile
from portal.profiles.summary_destinations import destinations
from portal.profiles.summary_wording import (
    RuleItem,
    _amount,
    _brl,
    _charge,
    _days,
    _Items,
    _join,
    _lower_first,
    _price_name,
    _terms,
    _unit_name,
    _units,
)


def _size_classes(p: Profile, out: _Items) -> None:
    """Which size class a captured animal has, where the hold or a charge depends on it."""
    rule = p.impound
    by_size = any(
        len({rule.days_for(s, tagged=t) for s in SIZE_CLASSES}) > 1 for t in (True, False)
    )
    charged = any(len({c.amount.for_size(s) for s in SIZE_CLASSES}) > 1 for c in p.reclaim.charges)
    auction = "auction" in rule.destinations and len(rule.auction_sizes) < len(SIZE_CLASSES)
    if not by_size and not charged and not auction:
        return  # the size changes nothing in this city
    if rule.legal_size_by_species:
        # GRU 10 XV; CAB 12, 19: the class comes from the species, not from the weight
        text = _(
            "Cães e gatos são animais de pequeno porte para a lei, qualquer que seja o peso ou "
            "o tamanho; o porte anotado na captura (pequeno, médio ou grande) só descreve o "
            "animal. Para outras espécies, vale a classificação do agente pela proporção do "
            "animal."
        )
        out.add(text, rule.cite("legal_size_by_species"))
    else:
        text = _(
            "A lei não define o que é animal de pequeno, médio ou grande porte: vale a "
            "classificação feita pelo agente na captura."
        )
        out.add(text, "")


def _destination_order(p: Profile, out: _Items) -> None:
    """The order the law gives the destinations of an animal nobody reclaimed (CAB 15-16;
    BJP 25 §3)."""
    rule = p.impound
    days = rule.destination_after_days.get("ngo_donation")
    if days is not None and "ngo_donation" in rule.destinations:
        text = _(
            "O animal não resgatado fica %(days)d dias disponível para adoção; só depois, se "
            "ninguém o adotar, pode ser doado a uma entidade protetora dos animais.",
            days=days,
        )
        out.add(text, rule.cite("destination_after_days"))
    if "earlier_priorities_failed" in rule.community_return_conditions:
        text = _(
            "O animal não resgatado vai primeiro para adoção ou para uma entidade protetora "
            "cadastrada; a devolução à comunidade, com um responsável identificado, só quando "
            "isso não for possível."
        )
        out.add(text, rule.cite("community_return_conditions"))


def _impound(p: Profile) -> list[RuleItem]:
    rule, out = p.impound, _Items()
    tagged = _terms({s: rule.days_for(s, tagged=True) for s in SIZE_CLASSES}, rule.counting)
    if rule.untagged_hold_days is None:
        text = _("O animal apreendido fica à disposição do dono por %(term)s.", term=tagged)
        out.add(text, rule.cite("hold_days"))
    else:
        untagged = _terms({s: rule.days_for(s, tagged=False) for s in SIZE_CLASSES}, rule.counting)
        text = _(
            "Animal com plaqueta do RGA: o dono é chamado e tem %(term)s para retirá-lo.",
            term=tagged,
        )
        out.add(text, rule.cite("hold_days"))
        text = _("Animal sem identificação: fica à disposição por %(term)s.", term=untagged)
        out.add(text, rule.cite("untagged_hold_days"))
    _size_classes(p, out)
    if rule.untagged_may_be_extended:
        text = _("Para animais sem RGA, o CCZ pode estender esse prazo.")
        out.add(text, rule.cite("untagged_may_be_extended"))
    if rule.moves_to_business_day:
        text = _(
            "Prazos que começariam ou terminariam em fim de semana ou feriado passam "
            "para o dia útil seguinte."
        )
        out.add(text, rule.cite("moves_to_business_day"))
    # In plain words, whether the capture day counts (BJP 25 counts it; the others
    # start the next day, Código Civil art. 132), and what the profile adds on impound.
    if rule.counting == "calendar_inclusive":
        out.add(_("O dia da captura conta como o primeiro dia do prazo."), rule.cite("counting"))
    else:
        out.add(
            _("O dia da captura não conta: o prazo começa no dia seguinte."), rule.cite("counting")
        )
    observation_days, observation_article = p.observation_days()
    if observation_days:
        text = _(
            "Animal em observação de raiva fica %(num)d dias em observação no CCZ.",
            num=observation_days,
        )
        if observation_article is None:
            # GRU 61: "cabendo a este último determinar o período de observação"
            text += " " + _(
                "A lei deixa o período à autoridade sanitária: os %(num)d dias são uma "
                "escolha do CCZ (regra do programa).",
                num=observation_days,
            )
        if rule.observation_reclaim_hours:
            text += " " + _(
                "Depois, o dono tem %(num)d horas para retirá-lo.",
                num=rule.observation_reclaim_hours,
            )
        out.add(text, observation_article or rule.cite("observation_by_authority"))
    if rule.release_requires_cause_ended:
        out.add(
            _(
                "O animal só é devolvido depois que a autoridade sanitária constata que não "
                "persistem as causas da captura."
            ),
            rule.cite("release_requires_cause_ended"),
        )
    if rule.capture_count is not None:
        count = rule.capture_count
        out.add(
            _(
                "A %(num)dª captura do mesmo animal em %(years)d anos, contados da primeira, "
                "leva à apreensão definitiva; as capturas acompanham o animal mesmo se ele "
                "mudar de dono.",
                num=count.definitive_at,
                years=count.period_years,
            ),
            f"{count.article}; {count.cite('definitive_at')}; {count.cite('period_years')}",
        )
    if rule.capture_certificate:
        out.add(
            _("Quem vai adquirir um animal pede antes a certidão negativa de captura."),
            rule.cite("capture_certificate"),
        )
    destinations(p, out)  # CABO 13; CAB 20; GRU 88, 90
    _destination_order(p, out)
    out.add(
        _(
            "Cães e gatos não são sacrificados por falta de resgate ou de adoção: a eutanásia "
            "só é permitida com laudo veterinário de doença grave incurável ou "
            "infectocontagiosa."
        ),
        "Lei federal 14.228/2021",
    )

    reclaim = p.reclaim
    if reclaim.vaccinated_before_release:
        text = _(
            "Sem comprovante da vacina antirrábica em dia, o animal só é liberado "
            "depois de vacinado."
        )
        out.add(text, reclaim.cite("vaccinated_before_release"))
    if reclaim.registered_on_reclaim:
        text = _("Animal sem registro é registrado (RGA) no ato do resgate.")
        out.add(text, reclaim.cite("registered_on_reclaim"))
    for charge in reclaim.charges:
        out.add(_charge(p, charge), charge.article)
    if reclaim.repeat_requires_sterilisation:
        text = _("Na reincidência, o animal só é devolvido esterilizado.")
        out.add(text, reclaim.cite("repeat_requires_sterilisation"))
    for exemption in p.exemptions_for("reclaim"):
        who = _lower_first(exemption.label)
        out.add(_("Isento das taxas de resgate: %(who)s.", who=who), exemption.article)
    return out


def _euthanasia(p: Profile) -> list[RuleItem]:
    return [RuleItem(p.euthanasia.text, p.euthanasia.cite("text"))]


def _fines(p: Profile) -> list[RuleItem]:
    rule, out = p.fines, _Items()
    out.add(_("As multas são calculadas em %(unit)s.", unit=_unit_name(rule.unit)), rule.article)
    if rule.range_min_units is not None and rule.range_max_units is not None:
        text = _(
            "Valor da multa: de %(min)s a %(max)s, graduado em regulamento.",
            min=_units(rule.range_min_units, rule.unit),
            max=_units(rule.range_max_units, rule.unit),
        )
        out.add(text, rule.article)
    graded = [s.label.lower() for s in rule.severities.values() if s.by_regulation]
    if graded:
        text = _(
            "As infrações são classificadas como %(list)s; o valor de cada nível é "
            "definido em regulamento.",
            list=_join(graded, _("ou")),
        )
        out.add(text, rule.cite("severities"))
    for severity in rule.severities.values():
        level = severity.label.lower()
        if severity.amount is not None:
            amount = _amount(p, severity.amount)
            text = _("Infração %(level)s: %(amount)s.", level=level, amount=amount)
        elif severity.minimum is not None:
            amount = _amount(p, severity.minimum)
            if severity.minimum_exclusive:
                text = _("Infração %(level)s: acima de %(amount)s.", level=level, amount=amount)
            else:
                text = _("Infração %(level)s: a partir de %(amount)s.", level=level, amount=amount)
        else:
            continue
        out.add(text, rule.cite("severities"))
    if rule.default is not None:
        text = _(
            "Quando o artigo não fixa o valor, a multa é de %(amount)s.",
            amount=_amount(p, rule.default),
        )
        out.add(text, rule.cite("default"))
    for fine in rule.specific:
        amount = _amount(p, fine.amount)
        if fine.range_max is not None:
            # BJP 30 II: the federal decree's range; the authority sets the amount within it
            amount = _(
                "de %(low)s a %(high)s, valor fixado pela autoridade dentro da faixa do %(decree)s",
                low=amount,
                high=_amount(p, fine.range_max),
                decree=fine.decree,
            )
        if fine.per_animal:
            amount = _("%(amount)s por animal", amount=amount)
        out.add(_("%(what)s: %(amount)s.", what=fine.label, amount=amount), fine.article)
        if fine.reading is not None:
            # VV 42 §ú: a garbled text; what cannot be read and the portal's reading (pt-BR data)
            out.add(_("Texto da lei ilegível em parte: %(r)s", r=fine.reading), fine.article)
    if rule.repeat_multiplier == 2 and rule.repeat_compounds:
        text = _("Na reincidência, a multa é o dobro da multa anterior.")
    elif rule.repeat_multiplier == 2:
        text = _("Na reincidência, a multa é aplicada em dobro.")
    elif rule.repeat_compounds:
        n = rule.repeat_multiplier
        text = _("Na reincidência, a multa é %(n)d vezes a multa anterior.", n=n)
    else:
        n = rule.repeat_multiplier
        text = _("Na reincidência, a multa é %(n)d vezes o valor previsto.", n=n)
    if rule.repeat_multiplier > 1:
        out.add(text, rule.cite("repeat_multiplier"))
    if rule.repeat_window_years is not None:
        text = _(
            "Há reincidência quando a mesma infração se repete em até %(years)d anos.",
            years=rule.repeat_window_years,
        )
        out.add(text, rule.cite("repeat_window_years"))
    if rule.prescription_years is not None:
        text = _("As infrações prescrevem em %(years)d anos.", years=rule.prescription_years)
        out.add(text, rule.cite("prescription_years"))
    for motive in rule.apprehension_after:
        # GRU 87 V-VI with GRU 79: the portal's reading of "reincidir" is stated
        text = _(
            "Apreensão definitiva dos animais de quem, já autuado %(n)d vezes por este motivo, "
            "recebe nova autuação pelo mesmo motivo: %(what)s. O portal conta as autuações não "
            'canceladas da mesma pessoa (CPF ou CNPJ) e entende "reincidir" como na regra da '
            "reincidência: as anteriores contam se a nova vier em até %(years)d anos de cada uma. "
            "A apreensão só vale depois da decisão definitiva.",
            n=motive.prior,
            what=_lower_first(motive.label),
            years=rule.repeat_window_years or 0,
        )
        out.add(text, f"{motive.article}; {rule.cite('repeat_window_years')}")
    return out


def _notices(p: Profile) -> list[RuleItem]:
    rule, out = p.notices, _Items()
    if rule.preliminary_days:
        choices = [_("imediatamente") if d == 0 else _days(d) for d in rule.preliminary_days]
        text = _(
            "Prazo para corrigir a irregularidade depois da notificação: %(list)s.",
            list=_join(choices, _("ou")),
        )
        out.add(text, rule.cite("preliminary_days"))
    if rule.preliminary_min_hours is not None and rule.preliminary_max_days is not None:
        hours = ngettext("%(num)d hora", "%(num)d horas", rule.preliminary_min_hours)
        text = _(
            "O prazo para corrigir a irregularidade vai de %(hours)s a %(days)s.",
            hours=hours,
            days=_days(rule.preliminary_max_days),
        )
        if rule.extension_days:
            more = _(
                "Pode ser prorrogado por mais %(days)d dias, a pedido.", days=rule.extension_days
            )
            text = f"{text} {more}"
        out.add(text, rule.article)
    if rule.defence_days:
        text = _("Defesa contra o auto de infração: %(days)d dias.", days=rule.defence_days)
        out.add(text, rule.cite("defence_days"))
    if rule.decision_days:
        text = _(
            "A defesa é julgada em primeira instância em até %(days)d dias.",
            days=rule.decision_days,
        )
        out.add(text, rule.cite("decision_days"))
    if rule.appeal_days:
        text = _(
            "Recurso contra a penalidade: %(days)d dias a partir da ciência.",
            days=rule.appeal_days,
        )
        out.add(text, rule.cite("appeal_days"))
    if rule.second_appeal_days:
        text = _(
            "Recurso em segunda instância: %(days)d dias; a decisão de segunda instância "
            "é definitiva.",
            days=rule.second_appeal_days,
        )
        out.add(text, rule.cite("second_appeal_days"))
    if rule.payment_days:
        text = _(
            "Multa não paga em %(days)d dias segue para cobrança judicial.",
            days=rule.payment_days,
        )
        out.add(text, rule.cite("payment_days"))
    if rule.interdiction is not None:
        text = _(
            "Na criação de animais destinada ao consumo humano, a autoridade pode optar pela "
            "interdição: o infrator é intimado, por notificação preliminar, a levar os animais a "
            "um abatedouro licenciado no prazo dado, acompanhado da autoridade sanitária."
        )
        out.add(text, rule.interdiction.article)
        text = _(
            "As despesas de transporte dos animais e de acompanhamento da autoridade sanitária e "
            "de outros servidores ao abatedouro são pagas pelo infrator."
        )
        out.add(text, rule.interdiction.cite("expenses"))
        text = _(
            "Depois da viagem, o CCZ registra essas despesas e o portal as cobra do infrator, "
            "com guia e pagamento online, dizendo o que é cada valor. A lei não fixa prazo para "
            "o pagamento: o CCZ dá %(days)s a contar da cobrança (escolha do CCZ, contada como o "
            "prazo das multas).",
            days=_days(p.programme.interdiction_expenses_days),
        )
        out.add(text, rule.interdiction.cite("expenses"))
    if rule.remedy_duties is not None:
        text = _(
            "Na notificação por maus-tratos, enquanto corre o prazo para sanar, o responsável "
            "avisa o CCZ de qualquer mudança de endereço do animal e apresenta periodicamente "
            "laudo veterinário da integridade física do animal. A lei não fixa o período: o "
            "agente o define na notificação (de %(min)s a %(max)s), e o portal lembra o "
            "responsável antes de cada vencimento.",
            min=_days(rule.remedy_duties.laudo_min_days),
            max=_days(rule.remedy_duties.laudo_max_days),
        )
        out.add(text, rule.remedy_duties.article)
    if out and rule.moves_to_business_day:
        text = _(
            "Os prazos são contínuos: não se conta o dia do início e conta-se o do "
            "vencimento; só começam ou vencem em dia útil."
        )
        out.add(text, rule.cite("moves_to_business_day"))
    if not out:
        out.add(_("A lei não fixa prazos para notificações, defesa e recursos."), "")
    return out


def _prices(p: Profile) -> list[RuleItem]:
    out = _Items()
    for key, price in p.prices.items():
        text = _("%(what)s: %(amount)s", what=_price_name(key), amount=_brl(price.amount_cents))
        if price.example:
            text += " " + _("(valor de exemplo, a confirmar pela prefeitura)")
        out.add(text + ".", price.article)
    return out
