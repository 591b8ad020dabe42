"""The public "Regras do município" page, written from the profile in plain Brazilian Portuguese.

:func:`rule_sections` turns a :class:`~portal.profiles.schema.Profile` into sections of short
sentences, each with the article it comes from. Sentences go through Flask-Babel's ``gettext`` at
call time, so call it inside a request to get the visitor's language (outside one, the pt-BR
source text comes back). Texts stored in the profile files (labels, the euthanasia summary) are
pt-BR data and are shown as written.
"""

from __future__ import annotations

from flask_babel import gettext as _

from portal.profiles.schema import Profile, is_silent
from portal.profiles.summary_enforcement import _euthanasia, _fines, _impound, _notices, _prices
from portal.profiles.summary_wording import (
    _PROGRAMME_REQUIREMENTS,
    RuleItem,
    RuleSection,
    _adopter_requirement,
    _amount,
    _delivered,
    _Items,
    _join,
    _lower_first,
    _months_period,
    _requirement,
)

__all__ = ["RuleItem", "RuleSection", "rule_sections"]


def rule_sections(profile: Profile) -> list[RuleSection]:
    """The page content: one section per topic, topics with nothing to say left out."""
    sections = [
        RuleSection(_("Cães e gatos por residência"), _household(profile), "residencia"),
        RuleSection(_("Registro do animal (RGA)"), _registration(profile), "registro"),
        RuleSection(_("Apreensão e resgate"), _impound(profile), "apreensao"),
        RuleSection(_("Adoção"), _adoption(profile), "adocao"),
        RuleSection(_("Eutanásia"), _euthanasia(profile), "eutanasia"),
        RuleSection(_("Multas"), _fines(profile), "multas"),
        RuleSection(_("Notificações, defesa e recursos"), _notices(profile), "notificacoes"),
        RuleSection(_("Preços públicos"), _prices(profile), "precos"),
        RuleSection(
            _("Estabelecimentos que lidam com animais"),
            _establishments(profile),
            "estabelecimentos",
        ),
        RuleSection(_("Programa de castração"), _sterilisation(profile), "castracao"),
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
    if rule.condo_convention:
        # CAB 25: the building's convention applies on top of the limit of CAB 31
        text = _(
            "Em apartamentos de condomínio, vale o mesmo limite e também a convenção do "
            "condomínio, que pode ser mais restritiva. O portal não tem acesso às convenções e "
            "não as confere: cada morador verifica a do seu prédio."
        )
        out.add(text, rule.cite("condo_convention"))
    if rule.agent_may_reduce:
        text = _(
            "O agente sanitário pode reduzir esse número em uma residência, com laudo "
            "técnico, conforme o porte dos animais, o espaço e as condições de higiene."
        )
        out.add(text, rule.cite("agent_may_reduce"))
        text = _(
            "A lei não diz se a redução alcança quem tem a licença especial: o portal a aplica "
            "à residência, com ou sem licença, até nova avaliação do CCZ. Os moradores recebem "
            "o laudo por e-mail e o veem em Meus animais, e o portal não registra nem transfere "
            "para lá animais acima do novo número."
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
            "de fevereiro vence em 1º de março, Código Civil art. 132 §3), e deve ser "
            "renovada; cada renovação vai até o aniversário seguinte da primeira licença.",
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
        out.add_practice(text, licence.cite("renewal_window_days"))
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
    _revaccination(p, out)
    if (article := p.transfer_article()) is not None:
        text = _(
            "Quando o animal muda de dono, o dono anterior continua responsável por ele até o "
            "novo dono atualizar o registro."
        )
        out.add(text, article)
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


def _revaccination(p: Profile, out: _Items) -> None:
    months, article = p.revaccination_months()
    if article is not None:
        text = _("A vacina antirrábica é renovada a cada %(months)d meses.", months=months)
        out.add(text, article)
        return
    text = _(
        "A lei municipal não fixa o intervalo da vacina antirrábica: quando o veterinário não "
        "indica a próxima dose, o portal considera %(months)d meses (regra do programa).",
        months=months,
    )
    out.add(text, "")


def _adoption_bars_and_proofs(p: Profile, out: _Items) -> None:
    bars = p.adoption.bars
    texts = {
        "commitment": _(
            "Não pode adotar quem assinou termo de compromisso de não mais ter animais."
        ),
        "maltreatment": _("Não pode adotar quem perdeu a posse de um animal por maus-tratos."),
        "apprehension": _(
            "Quem deu causa à apreensão definitiva de um animal não pode voltar a tê-lo."
        ),
    }
    for bar, text in texts.items():
        if (article := bars.article(bar)) is not None:
            out.add(text, article)
    days, article = p.proof_of_address_max_age()
    if article is not None:
        text = _(
            "O comprovante de endereço deve ter sido emitido nos últimos %(days)d dias.", days=days
        )
        out.add(text, article)
    else:
        text = _(
            "O comprovante de endereço vale se emitido nos últimos %(days)d dias (regra do "
            "programa, não da lei municipal).",
            days=days,
        )
        out.add(text, "")


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
    # the local law does not, say so once, plainly, without citing another city's law.
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
    _adoption_bars_and_proofs(p, out)
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
    if rule.document == "laudo":
        # CABO 34; CAB 33: businesses that sell live animals, a yearly laudo after inspection
        text = _(
            "Estabelecimentos que vendem animais vivos (pet shops, criadores) precisam de laudo "
            "do órgão sanitário, renovado todo ano e concedido só depois da vistoria do agente "
            "sanitário no alojamento dos animais. O pedido é feito pelo portal, como cadastro "
            "do estabelecimento."
        )
        out.add(text, rule.article)
        out.add(
            _("A vistoria é feita antes de o laudo ser concedido."),
            rule.cite("inspection_before_approval"),
        )
    elif rule.document == "sales_register":
        # VV 45: only businesses registered with the city sell dogs and cats
        text = _(
            "Cães e gatos só podem ser vendidos por empresas registradas no município (pet shops, "
            "clínicas veterinárias), com canil e gatil próprios; nunca ao ar livre, em mercados "
            "ou outros logradouros públicos. O registro é pedido pelo portal."
        )
        out.add(text, rule.article)
    else:
        out.add(
            _(
                "Pet shops, clínicas, canis, criadores, adestradores e outros estabelecimentos "
                "que lidam com animais precisam de cadastro no CCZ, pedido pelo portal."
            ),
            rule.article,
        )
    if rule.validity_stated_in_law and rule.document == "laudo":
        out.add(
            _(
                "O laudo vale um ano a partir da primeira emissão e é renovado no mesmo dia a "
                "cada ano (de 29 de fevereiro, vale até 1º de março, Código Civil art. 132 §3)."
            ),
            rule.cite("validity_years"),
        )
    elif rule.validity_stated_in_law:
        out.add(
            _(
                "O cadastro vale %(years)s a partir da primeira emissão e é renovado no mesmo "
                "dia a cada ano (de 29 de fevereiro, vale até 1º de março, Código Civil art. "
                "132 §3).",
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
    text = _(
        "A renovação é pedida nos %(days)s dias antes do vencimento e vale a partir do dia "
        "seguinte a ele; se o último dia cair em fim de semana ou feriado, o pedido pode ser "
        "feito no dia útil seguinte.",
        days=rule.renewal_window_days,
    )
    out.add_practice(text, rule.cite("renewal_window_days"))
    if rule.responsible_vet_required:
        out.add(
            _("O estabelecimento funciona com um médico veterinário responsável técnico."),
            rule.cite("responsible_vet_required"),
        )
    if rule.vet_term_yearly:
        # GRU 13 §1: the term is renewed yearly, so every renewal checks it again
        out.add(
            _(
                "O termo de responsabilidade técnica do veterinário é renovado todo ano e "
                "conferido em cada renovação do cadastro, não só no primeiro pedido: a renovação "
                "só é pedida e aprovada com o termo válido."
            ),
            rule.cite("vet_term_yearly"),
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


def _sterilisation(p: Profile) -> list[RuleItem]:
    """The programme's yearly target where the law sets one (VV 10 §1)."""
    rule, out = p.sterilisation, _Items()
    if rule is None or rule.annual_target_percent is None:
        return out
    out.add(
        _(
            "Meta anual: castrar ao menos %(percent)d %% dos cães e gatos estimados no município "
            "em cada um dos três primeiros anos do programa intensivo. O CCZ registra a "
            "estimativa de cada ano e acompanha no portal o número de castrações feitas contra "
            "a meta.",
            percent=rule.annual_target_percent,
        ),
        rule.cite("annual_target_percent"),
    )
    out.add(
        _(
            "Depois do terceiro ano a lei pede uma porcentagem suficiente para o controle, sem "
            "número, e não diz quando o programa começou: o portal mantém os %(percent)d %% "
            "como referência em todos os anos, sem afirmar que a meta seja exigida nesses anos.",
            percent=rule.annual_target_percent,
        ),
        rule.cite("later_years"),
    )
    return out
