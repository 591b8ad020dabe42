"""The public "Regras do município" page, written from the profile in plain Brazilian Portuguese.

:func:`rule_sections` turns a :class:`~portal.profiles.schema.Profile` into sections of short
sentences, each with the article it comes from. Sentences go through Flask-Babel's ``gettext`` at
call time, so call it inside a request to get the visitor's language (outside one, the pt-BR
source text comes back). Texts stored in the profile files (labels, the euthanasia summary) are
pt-BR data and are shown as written.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from decimal import Decimal

from flask_babel import gettext as _
from flask_babel import ngettext

from portal.profiles.schema import (
    BRL,
    SIZE_CLASSES,
    Amount,
    Profile,
    ReclaimCharge,
    SizeAmounts,
    SizeClass,
    is_silent,
)


@dataclass(frozen=True)
class RuleItem:
    text: str
    article: str  # "" when the sentence states the law's silence rather than a provision


@dataclass(frozen=True)
class RuleSection:
    title: str
    items: list[RuleItem] = field(default_factory=list)
    anchor: str = ""  # the fragment other pages link to (/regras#adocao)


class _Items(list[RuleItem]):
    """A section's items being collected; ``add`` keeps the section builders flat."""

    def add(self, text: str, article: str) -> None:
        self.append(RuleItem(text, article))


def rule_sections(profile: Profile) -> list[RuleSection]:
    """The page content: one section per topic, topics with nothing to say left out."""
    sections = [
        RuleSection(_("Cães e gatos por residência"), _household(profile), "residencia"),
        RuleSection(_("Registro do animal (RGA)"), _registration(profile)),
        RuleSection(_("Apreensão e resgate"), _impound(profile)),
        RuleSection(_("Adoção"), _adoption(profile), "adocao"),
        RuleSection(_("Eutanásia"), _euthanasia(profile)),
        RuleSection(_("Multas"), _fines(profile)),
        RuleSection(_("Notificações, defesa e recursos"), _notices(profile)),
        RuleSection(_("Preços públicos"), _prices(profile)),
        RuleSection(
            _("Estabelecimentos que lidam com animais"),
            _establishments(profile),
            "estabelecimentos",
        ),
    ]
    return [section for section in sections if section.items]


# -- sections ---------------------------------------------------------------------------------


def _household(p: Profile) -> list[RuleItem]:
    rule, out = p.household, _Items()
    if rule.limit is None:
        out.add(_("Não há limite de cães e gatos por residência."), rule.article)
        return out
    text = _(
        "Cada residência pode ter no máximo %(limit)d cães e gatos no total, "
        "contando os animais com mais de %(days)d dias de idade.",
        limit=rule.limit,
        days=rule.min_age_days,
    )
    out.add(text, rule.cite("limit"))
    if "rural" in rule.excluded_housing:
        text = _("O limite vale para residências na área urbana.")
        out.add(text, rule.cite("excluded_housing"))
    if "apartment_condo" in rule.excluded_housing:
        text = _(
            "Em apartamentos de condomínio, a quantidade de animais segue a legislação "
            "própria e a convenção do condomínio, não este limite."
        )
        out.add(text, rule.cite("excluded_housing"))
    if rule.agent_may_reduce:
        text = _(
            "O agente sanitário pode reduzir esse número em uma residência, com laudo "
            "técnico, conforme o porte dos animais, o espaço e as condições de higiene."
        )
        out.add(text, rule.cite("agent_may_reduce"))
    if rule.above_limit == "forbidden":
        out.add(_("Acima desse número, a criação não é permitida."), rule.cite("above_limit"))

    licence = p.licence
    if licence is None:
        return out
    if rule.above_limit == "kennel":
        text = _(
            "Acima do limite, a residência passa a ser um canil particular, que só pode "
            "funcionar depois de vistoria do agente sanitário e de laudo do órgão sanitário."
        )
        out.add(text, rule.cite("above_limit"))
    elif licence.max_animals is not None:
        text = _(
            "Acima do limite, você pode pedir uma licença especial para manter até "
            "%(max)d animais.",
            max=licence.max_animals,
        )
        out.add(text, licence.cite("max_animals"))
    if licence.requires:
        needs = _join([_requirement(r) for r in licence.requires])
        out.add(_("Para pedir a licença: %(list)s.", list=needs), licence.cite("requires"))
    period = _months_period(licence.validity_months)
    if licence.document == "kennel_laudo":
        text = _(
            "O laudo do canil vale %(period)s (até a mesma data do ano seguinte) e deve ser "
            "renovado todo ano, com nova vistoria.",
            period=period,
        )
    elif licence.validity_stated_in_law:
        text = _(
            "A licença vale %(period)s, até a mesma data do ano seguinte (uma licença de 29 "
            "de fevereiro vence em 28 de fevereiro), e deve ser renovada.",
            period=period,
        )
    else:
        text = _(
            "A lei não fixa a validade da licença; o portal a considera válida por "
            "%(period)s e avisa quando for preciso renovar.",
            period=period,
        )
    out.add(text, licence.cite("validity_months"))
    if licence.renewal_window_days:
        text = _(
            "Peça a renovação nos %(days)d dias anteriores ao vencimento.",
            days=licence.renewal_window_days,
        )
        article = licence.cite("renewal_window_days")
        if is_silent(article):
            text += " " + _("A lei não fixa esse prazo: é a prática do CCZ.")
            article = ""
        out.add(text, article)
    if licence.requests_accepted_until is not None:
        # BJP 17 §6: the window to ask for the licence closed 12 months after the publication
        text = _(
            "A lei deu prazo até %(day)s para pedir a licença; depois dele, todos devem se "
            "enquadrar no limite. Só são aceitas renovações de licenças obtidas no prazo, salvo "
            "se um decreto municipal reabrir os pedidos.",
            day=licence.requests_accepted_until.strftime("%d/%m/%Y"),
        )
        out.add(text, licence.cite("requests_accepted_until"))
    if licence.never_replaced_above is not None:
        text = _(
            "Os animais da licença que passam de %(n)d nunca podem ser substituídos, em "
            "caso de morte, perda, doação ou qualquer outro motivo.",
            n=licence.never_replaced_above,
        )
        out.add(text, licence.cite("never_replaced_above"))
    if licence.new_acquisition_cancels:
        text = _("Adquirir um novo cão ou gato cancela a licença.")
        out.add(text, licence.cite("new_acquisition_cancels"))
    return out


def _registration(p: Profile) -> list[RuleItem]:
    rule, out = p.registration, _Items()
    if is_silent(rule.article):
        text = _(
            "A lei municipal não trata do registro de cães e gatos; o portal oferece o "
            "RGA como serviço voluntário."
        )
        out.add(text, "")
    elif rule.mandatory:
        out.add(_("O registro de cães e gatos é obrigatório."), rule.cite("mandatory"))
    else:
        out.add(_("O registro de cães e gatos é opcional."), rule.cite("mandatory"))
    if rule.window_start_months is not None and rule.window_end_months is not None:
        text = _(
            "Registre o filhote entre o %(start)dº e o %(end)dº mês de idade.",
            start=rule.window_start_months,
            end=rule.window_end_months,
        )
        out.add(text, rule.cite("window_start_months"))
    if rule.at_purchase:
        text = _("Cão ou gato comprado em loja é registrado no ato da compra.")
        out.add(text, rule.cite("at_purchase"))
    if rule.yearly_renewal:
        out.add(_("O registro deve ser feito todos os anos."), rule.cite("yearly_renewal"))
    if rule.rabies_proof_required and rule.vaccinate_at_registration:
        text = _(
            "Leve o comprovante da vacina antirrábica em dia; sem ele, o animal é "
            "vacinado no ato do registro."
        )
        out.add(text, rule.cite("vaccinate_at_registration"))
    elif rule.rabies_proof_required:
        text = _("É preciso apresentar o comprovante da vacina antirrábica.")
        out.add(text, rule.cite("rabies_proof_required"))
    elif rule.vaccinate_at_registration:
        text = _("O animal recebe a vacina antirrábica no ato do registro.")
        out.add(text, rule.cite("vaccinate_at_registration"))
    if rule.fee:
        out.add(_("O registro tem preço público fixado pelo município."), rule.cite("fee"))
    for exemption in p.exemptions_for("registration"):
        who = _lower_first(exemption.label)
        out.add(_("Isento da taxa de registro: %(who)s.", who=who), exemption.article)
    if p.provisional_id is not None:
        pid = p.provisional_id
        text = _(
            "Perdeu a carteirinha ou a plaqueta? O pedido de segunda via serve como "
            "documento do animal por %(days)d dias.",
            days=pid.validity_days,
        )
        out.add(text, pid.cite("validity_days"))
        if pid.staff_must_issue_within:
            text = _("O CCZ deve entregar a segunda via dentro desse prazo.")
            out.add(text, pid.cite("staff_must_issue_within"))
    return out


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
    if rule.untagged_may_be_extended:
        text = _("Para animais sem RGA, o CCZ pode estender esse prazo.")
        out.add(text, rule.cite("untagged_may_be_extended"))
    if rule.moves_to_business_day:
        text = _(
            "Prazos que começariam ou terminariam em fim de semana ou feriado passam "
            "para o dia útil seguinte."
        )
        out.add(text, rule.cite("moves_to_business_day"))
    # Issue 14: in plain words, whether the capture day counts (BJP 25 counts it; the others
    # start the next day, Código Civil art. 132), and what the profile adds on impound.
    if rule.counting == "calendar_inclusive":
        out.add(_("O dia da captura conta como o primeiro dia do prazo."), rule.cite("counting"))
    else:
        out.add(
            _("O dia da captura não conta: o prazo começa no dia seguinte."), rule.cite("counting")
        )
    if rule.observation_days:
        text = _(
            "Animal em observação de raiva fica %(num)d dias em observação no CCZ.",
            num=rule.observation_days,
        )
        if rule.observation_reclaim_hours:
            text += " " + _(
                "Depois, o dono tem %(num)d horas para retirá-lo.",
                num=rule.observation_reclaim_hours,
            )
        out.add(text, rule.cite("observation_days"))
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


def _adoption(p: Profile) -> list[RuleItem]:
    rule, out = p.adoption, _Items()
    if rule.fee is None:
        out.add(_("A lei não prevê taxa de adoção."), "")
    elif rule.fee_per == "day_held":
        text = _(
            "Taxa de adoção: %(amount)s por dia em que o animal ficou apreendido.",
            amount=_amount(p, rule.fee),
        )
        out.add(text, rule.cite("fee"))
    else:
        out.add(_("Taxa de adoção: %(amount)s.", amount=_amount(p, rule.fee)), rule.cite("fee"))
    if rule.delivered:
        state = _join([_delivered(d) for d in rule.delivered])
        out.add(_("O animal é entregue %(list)s.", list=state), rule.cite("delivered"))
    needs = []
    if rule.min_adopter_age is not None:
        needs.append(_("ter %(age)d anos ou mais", age=rule.min_adopter_age))
    needs += [_adopter_requirement(r) for r in rule.adopter_requirements if r != "adult"]
    if needs:
        text = _("Para adotar é preciso %(list)s.", list=_join(needs))
        out.add(text, rule.cite("adopter_requirements"))
    # The adoption programme asks every adopter for what Vila Velha's law asks (VV 28 §2); where
    # the local law does not, say so once, plainly (issue 8: no foreign citation per line).
    programme = [
        _adopter_requirement(r)
        for r in _PROGRAMME_REQUIREMENTS
        if r not in rule.adopter_requirements
        and not (r == "adult" and rule.min_adopter_age is not None)
    ]
    if programme:
        out.add(
            _(
                "O programa de adoção do CCZ também pede a todo adotante: %(list)s. São regras "
                "do programa, não da lei municipal.",
                list=_join(programme),
            ),
            "",
        )
    if rule.listing_days is not None:
        text = _(
            "Os animais ficam disponíveis para adoção por %(days)d dias.",
            days=rule.listing_days,
        )
        out.add(text, rule.cite("listing_days"))
    return out


def _establishments(p: Profile) -> list[RuleItem]:
    rule, out = p.establishments, _Items()
    if rule is None:
        return out
    out.add(
        _(
            "Pet shops, clínicas, canis, criadores, adestradores e outros estabelecimentos que "
            "lidam com animais precisam de cadastro no CCZ, pedido pelo portal."
        ),
        rule.article,
    )
    if rule.validity_stated_in_law:
        out.add(
            _(
                "O cadastro vale %(years)s a partir da primeira emissão e é renovado no mesmo "
                "dia a cada ano (de 29 de fevereiro, vale até 28 de fevereiro).",
                years=_("1 ano")
                if rule.validity_years == 1
                else _("%(n)s anos", n=rule.validity_years),
            ),
            rule.cite("validity_years"),
        )
    else:
        out.add(
            _("A lei não fixa a validade do cadastro; o CCZ o revê a cada ano."),
            rule.cite("validity_years"),
        )
    out.add(
        _(
            "A renovação é pedida nos %(days)s dias antes do vencimento e vale a partir do dia "
            "seguinte a ele; se o último dia cair em fim de semana ou feriado, o pedido pode ser "
            "feito no dia útil seguinte.",
            days=rule.renewal_window_days,
        ),
        rule.cite("renewal_window_days"),
    )
    if rule.responsible_vet_required:
        out.add(
            _(
                "O estabelecimento funciona com um médico veterinário responsável técnico, com "
                "termo de responsabilidade renovado anualmente."
            ),
            rule.cite("responsible_vet_required"),
        )
    if rule.accreditation:
        out.add(
            _(
                "Estabelecimentos credenciados pelo CCZ registram cães e gatos (RGA); o "
                "credenciamento só vale enquanto o cadastro estiver válido."
            ),
            rule.cite("accreditation"),
        )
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
        if fine.per_animal:
            amount = _("%(amount)s por animal", amount=amount)
        out.add(_("%(what)s: %(amount)s.", what=fine.label, amount=amount), fine.article)
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


# -- wording helpers --------------------------------------------------------------------------


def _charge(p: Profile, charge: ReclaimCharge) -> str:
    amount = _size_amounts(p, charge.amount)
    if charge.per == "day":
        amount = _("%(amount)s por dia", amount=amount)
    else:
        amount = _("%(amount)s por animal", amount=amount)
    parts = [_("%(what)s: %(amount)s", what=charge.label, amount=amount)]
    if charge.free_days:
        if charge.free_days_counting == "business":
            free = ngettext("%(num)d dia útil", "%(num)d dias úteis", charge.free_days)
        else:
            free = _days(charge.free_days)
        parts.append(_("sem cobrança se o resgate for feito em até %(days)s", days=free))
    if charge.only_beyond_hold:
        parts.append(_("cobrada pelos dias além do prazo de resgate"))
    if charge.applies_on == "repeat":
        parts.append(_("só na reincidência"))
    if charge.repeat_growth == "double_each":
        parts.append(_("o valor dobra a cada nova apreensão"))
    return "; ".join(parts) + "."


def _size_amounts(p: Profile, amounts: SizeAmounts) -> str:
    """ "R$ 5,00" when every size pays it, else "R$ 5,65 (pequeno porte) e R$ 17,24 (…)"."""
    groups: dict[Amount, list[SizeClass]] = {}
    for size in SIZE_CLASSES:
        if (amount := amounts.for_size(size)) is not None:
            groups.setdefault(amount, []).append(size)
    if len(groups) == 1 and len(next(iter(groups.values()))) == len(SIZE_CLASSES):
        return _amount(p, next(iter(groups)))
    return _join([f"{_amount(p, a)} ({_sizes(sizes)})" for a, sizes in groups.items()])


def _terms(days_by_size: dict[SizeClass, int], counting: str) -> str:
    """ "5 dias", or "3 dias úteis (pequeno porte) ou 5 dias úteis (médio e grande porte)"."""

    def term(days: int) -> str:
        if counting == "business":
            return ngettext("%(num)d dia útil", "%(num)d dias úteis", days)
        if counting == "calendar_inclusive":
            return ngettext(
                "%(num)d dia (contando o dia da apreensão)",
                "%(num)d dias (contando o dia da apreensão)",
                days,
            )
        return _days(days)

    groups: dict[int, list[SizeClass]] = {}
    for size, days in days_by_size.items():
        groups.setdefault(days, []).append(size)
    if len(groups) == 1:
        return term(next(iter(groups)))
    return _join([f"{term(days)} ({_sizes(sizes)})" for days, sizes in groups.items()], _("ou"))


def _sizes(sizes: list[SizeClass]) -> str:
    names = {"small": _("pequeno porte"), "medium": _("médio porte"), "large": _("grande porte")}
    return _join([names[size] for size in sizes])


def _amount(p: Profile, amount: Amount) -> str:
    if amount.cents is not None:
        return _brl(amount.cents)
    if amount.price is not None:
        cents = p.prices[amount.price].amount_cents
        return _("preço público do município (%(amount)s)", amount=_brl(cents))
    assert amount.units is not None and amount.unit is not None  # guaranteed by Amount
    return _units(amount.units, amount.unit)


def _units(quantity: Decimal, unit: str) -> str:
    if unit == BRL:
        return _brl(int((quantity * 100).to_integral_value()))
    if unit == "MW":  # fractions read better as a percentage of the minimum wage
        if quantity < 1:
            return _("%(pct)s%% do salário mínimo vigente", pct=_number(quantity * 100))
        return ngettext(
            "%(n)s salário mínimo", "%(n)s salários mínimos", int(quantity), n=_number(quantity)
        )
    return f"{_number(quantity)} {unit}"


def _unit_name(unit: str) -> str:
    names = {
        "UFG": _("UFG (Unidade Fiscal de Guarulhos)"),
        "UFM": _("UFM (Unidade Fiscal do Município)"),
        "MW": _("salários mínimos (ou frações do salário mínimo vigente)"),
        "UFIR": _("UFIR (índice extinto; o município indica o valor que a substitui)"),
        BRL: _("reais"),
    }
    return names.get(unit, unit)


def _number(value: Decimal) -> str:
    """1234.5 -> "1.234,5" (Brazilian separators), never via float."""
    whole, _sep, frac = f"{value.normalize():f}".partition(".")
    grouped = f"{int(whole):,}".replace(",", ".")
    return f"{grouped},{frac}" if frac else grouped


def _brl(cents: int) -> str:
    # Same output as portal.services.money.format_brl; kept here so that loading a profile does
    # not import the database layer.
    reais, centavos = divmod(cents, 100)
    return f"R$ {reais:,}".replace(",", ".") + f",{centavos:02d}"


def _days(days: int) -> str:
    return ngettext("%(num)d dia", "%(num)d dias", days)


def _period(days: int) -> str:
    if days % 365 == 0:
        return ngettext("%(num)d ano", "%(num)d anos", days // 365)
    return _days(days)


def _months_period(months: int) -> str:
    if months % 12 == 0:
        return ngettext("%(num)d ano", "%(num)d anos", months // 12)
    return ngettext("%(num)d mês", "%(num)d meses", months)


def _lower_first(text: str) -> str:
    return text[:1].lower() + text[1:]


def _join(parts: list[str], conjunction: str | None = None) -> str:
    """ "a, b e c" (or "a, b ou c")."""
    if len(parts) <= 1:
        return "".join(parts)
    conjunction = conjunction or _("e")
    return f"{', '.join(parts[:-1])} {conjunction} {parts[-1]}"


def _requirement(code: str) -> str:
    return {
        "rga_all": _("os números de RGA de todos os animais"),
        "rabies_proofs": _("os comprovantes de vacinação antirrábica"),
        "sterilisation_proofs": _("os comprovantes de esterilização"),
        "housing_description": _("a descrição do alojamento e dos cuidados com os animais"),
        "inspection": _("vistoria do agente sanitário"),
        "yearly_vet_report": _("laudo anual do órgão sanitário"),
    }[code]


def _delivered(code: str) -> str:
    return {
        "vaccinated": _("vacinado"),
        "dewormed": _("vermifugado"),
        "sterilised": _("esterilizado"),
        "registered": _("registrado (RGA)"),
    }[code]


# What the portal's adoption programme checks for every adopter (adoption/eligibility.py).
_PROGRAMME_REQUIREMENTS = (
    "adult",
    "cpf_and_id",
    "address_proof",
    "income_proof",
    "commitment_term",
)


def _adopter_requirement(code: str) -> str:
    return {
        "adult": _("ser maior de idade"),
        "cpf_and_id": _("apresentar CPF e documento de identidade"),
        "income_proof": _("comprovar renda mínima"),
        "address_proof": _("apresentar comprovante de endereço atualizado"),
        "commitment_term": _("assinar o Termo de Compromisso de Adoção"),
    }[code]


def _price_name(key: str) -> str:
    return {
        "registration": _("Registro do animal (RGA)"),
        "card_copy": _("Segunda via da carteirinha"),
        "tag_copy": _("Segunda via da plaqueta"),
        "licence": _("Licença especial"),
        "adoption": _("Adoção"),
        "reclaim": _("Resgate de animal apreendido"),
        "reclaim_daily": _("Diária de permanência além do prazo de resgate"),
    }[key]
