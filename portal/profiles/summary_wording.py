"""Wording helpers of the "Regras do município" page (:mod:`portal.profiles.summary`): amounts,
terms, size classes and the labels of profile codes, in Brazilian Portuguese through gettext.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from decimal import Decimal

from flask_babel import gettext as _
from flask_babel import ngettext

from portal.models.animal import size_class_name
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

    def add_practice(self, text: str, article: str) -> None:
        """A term the profile cites: where the law is silent (``"GRU —"``) the sentence says it
        is the CCZ's practice and cites nothing."""
        if is_silent(article):
            text += " " + _("A lei não fixa esse prazo: é a prática do CCZ.")
            article = ""
        self.add(text, article)


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
    if charge.repeat_counts_owner:
        # CAB 19 §2: "com relação ao animal ou com relação ao proprietário"
        parts.append(
            _(
                "a reincidência conta pelo animal ou pelo dono: a captura anterior de outro "
                "animal do mesmo dono sujeito a esta multa também conta"
            )
        )
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
    return _join([size_class_name(size) for size in sizes])


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
        "sterilized": _("esterilizado"),
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
