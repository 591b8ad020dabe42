"""Fines and recoverable expenses of the fee service (:func:`portal.services.fees.compute_fee`
with ``kind="fine"``; expenses also for ``"reclaim"``): severities, fines the law writes next to
the infraction, joint fines, repeat offences, prescription and intimation terms.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace
from datetime import date
from decimal import ROUND_HALF_UP, Decimal
from typing import Any

from flask_babel import gettext as _

from portal.profiles.schema import Profile, SpecificFine
from portal.services.dates import deadline, term_of_years_ends
from portal.services.fee_base import (
    Expense,
    FeeError,
    FeeLine,
    FineInputs,
    Repeats,
    _amount_cents,
    _amount_units,
    _holidays,
    _num,
    _times,
    _units_text,
)
from portal.services.money import format_brl, units_to_cents


def _fine(profile: Profile, inputs: FineInputs, on: date) -> list[FeeLine]:
    rule = profile.fines
    severity_key, specific_code = inputs.severity, inputs.specific  # not both: parse_inputs
    # The fine is the one in force when the infraction happened: its unit value, its repeat
    # window and its prescription are read on that day, not on the day the notice is typed.
    infraction_on = inputs.infraction_on or on
    if infraction_on > on:
        raise FeeError(
            "infraction_on", "future", _("A data da infração não pode ser posterior à da autuação.")
        )
    _check_prescription(profile, inputs, infraction_on, on)

    if specific_code:
        fine = _specific(profile, specific_code, "specific")
        lines = _specific_fine(profile, fine, inputs, infraction_on)
        for joint, joint_inputs in _joint_fines(profile, fine, inputs):
            lines += _specific_fine(profile, joint, joint_inputs, infraction_on)
        return lines + _expense_lines(profile, "fine", inputs.expenses, fine.payer)

    if severity_key:
        severity = rule.severities.get(severity_key)
        if severity is None:
            raise FeeError("severity", "unknown", _("Gravidade desconhecida nesta lei."))
        label = severity_fine_label(rule.severities, severity.label)
        if severity.amount is not None:
            _refuse_units(inputs.units_given, rule.article)
            cents = _amount_cents(profile, severity.amount, infraction_on)  # CAB 40 I-III
            base = FeeLine(label, cents, rule.article, kind="fine", payer="offender")
        else:
            # GRU 69 II (range), CABO 39 (minimums): the agent grades it and says why
            units, reason = _graded_units(profile, severity, inputs)
            cents = units_to_cents(units, rule.unit, infraction_on)
            base = FeeLine(
                f"{label} ({_units_text(units, rule.unit)})",
                cents,
                rule.article,
                kind="fine",
                payer="offender",
                note=reason,
            )
    elif rule.default is not None:
        _refuse_units(inputs.units_given, rule.cite("default"))
        cents = _amount_cents(profile, rule.default, infraction_on)  # VV 50 I
        base = FeeLine(
            _("Multa (infração sem valor próprio na lei)"),
            cents,
            rule.cite("default"),
            kind="fine",
            payer="offender",
        )
    else:
        raise FeeError("severity", "required", _("Informe a gravidade ou a infração."))

    lines = [base]
    previous = _previous_offences(profile, inputs.repeats, infraction_on)
    # GRU 80; CABO 39 §2; VV 50 II; BJP 30 §ú: twice the fine set for the infraction.
    # CAB 40 §2: twice the previous penalty ("em relação à penalidade anterior").
    growth = "double_previous" if rule.repeat_compounds else "double"
    extra = _repeat_extra(base.amount_cents, growth, previous, rule.repeat_multiplier)
    if extra:
        lines.append(
            FeeLine(
                _repeat_label(growth, previous.count),
                extra,
                rule.cite("repeat_multiplier"),
                kind="fine",
                payer="offender",
            )
        )
    return lines + _expense_lines(profile, "fine", inputs.expenses, "offender")


def severity_fine_label(severities: Mapping[str, Any], level: str) -> str:
    """The fine's line as the citizen reads it (issue 25: not "Multa por infração médio").

    GRU 77 classifies infractions in "níveis" (leve, médio, grave, gravíssimo: masculine, the
    level's): "Multa por infração de nível médio". CAB 40 and CABO 39 grade the infraction itself
    (leve, grave, gravíssima): "Multa por infração gravíssima"."""
    by_level = any(s.label.lower().endswith("o") for s in severities.values())
    if by_level:
        return _("Multa por infração de nível %(level)s", level=level.lower())
    return _("Multa por infração %(level)s", level=level.lower())


def _specific(profile: Profile, code: str | None, field_name: str) -> SpecificFine:
    fine = next((f for f in profile.fines.specific if f.code == code), None)
    if fine is None:
        raise FeeError(field_name, "unknown", _("Infração desconhecida nesta lei."))
    return fine


def _specific_fine(
    profile: Profile, fine: SpecificFine, inputs: FineInputs, infraction_on: date
) -> list[FeeLine]:
    """A fine the law writes next to the infraction, for the one person it names (``payer``)."""
    note = None
    if fine.range_max is not None:
        # BJP 30 II: the decree's range per animal; the authority sets the amount within it
        per_unit, note = _amount_in_range(fine, inputs)
    else:
        # the law fixed it: nothing to grade
        _refuse_units(inputs.units_given, fine.article)
        _refuse_units(inputs.amount_cents_given, fine.article, "amount_cents")
        per_unit = _amount_cents(profile, fine.amount, infraction_on)
    previous = _previous_offences(profile, inputs.repeats, infraction_on)
    _check_comply_terms(profile, fine, inputs, infraction_on, previous.last)
    animals = inputs.animals if fine.per_animal else 1  # VV 33 §4, 43 §1
    article = f"{fine.article}; {fine.decree}" if fine.decree else fine.article
    base = _times(
        _("Multa: %(what)s", what=fine.label),
        per_unit,
        animals,
        article,
        kind="fine",
        payer=fine.payer,
    )
    if note is not None:
        base = replace(base, note=note)
    lines = [base]
    subtotal = base.amount_cents
    if inputs.animal_died:
        if fine.died_multiplier is None:
            raise FeeError(
                "animal_died",
                "not_applicable",
                _("Esta lei não agrava esta multa pela morte do animal."),
            )
        # VV 32 §1 II, VV 43 §2: "multa em dobro" / "dobro da multa" when the animal dies
        extra = subtotal * (fine.died_multiplier - 1)
        lines.append(
            FeeLine(
                _("Morte do animal: multa em dobro"),
                extra,
                fine.cite("died_multiplier"),
                kind="fine",
                payer=fine.payer,
            )
        )
        subtotal += extra
    extra = _repeat_extra(subtotal, fine.repeat, previous, 2)
    if extra:
        lines.append(
            FeeLine(
                _repeat_label(fine.repeat, previous.count),
                extra,
                fine.cite("repeat"),
                kind="fine",
                payer=fine.payer,
            )
        )
    return lines


def _joint_fines(
    profile: Profile, fine: SpecificFine, inputs: FineInputs
) -> list[tuple[SpecificFine, FineInputs]]:
    """The fines the same facts impose on other people (BJP 19 §1 I owner -> II trainer): the
    same facts, each person with their own repeat record."""
    result = []
    for joint in inputs.joint:
        if joint.code not in fine.joint:
            raise FeeError(
                "joint",
                "not_joint",
                _("Esta infração não gera multa para outra pessoa pelo mesmo fato."),
            )
        own = replace(inputs, repeats=joint.repeats, joint=())
        result.append((_specific(profile, joint.code, "joint"), own))
    return result


def _amount_in_range(fine: SpecificFine, inputs: FineInputs) -> tuple[int, str]:
    """The amount per animal the authority set inside the decree's range, and why (BJP 30 II;
    Decreto 6.514/2008 art. 29: R$ 500,00 to R$ 3.000,00 "por indivíduo")."""
    assert fine.range_max is not None and fine.range_max.cents is not None
    low, high = fine.amount.cents or 0, fine.range_max.cents
    cents = inputs.amount_cents
    reais = inputs.units if not inputs.amount_cents_given else None
    if reais is not None:
        # the issue form's value field: the decree's range is in reais, so ``units`` are R$
        cents = int((reais * 100).quantize(Decimal("1"), ROUND_HALF_UP))
    if cents is None:
        raise FeeError(
            "amount_cents",
            "required",
            _(
                "Informe o valor da multa por animal, entre %(low)s e %(high)s (%(decree)s).",
                low=format_brl(low),
                high=format_brl(high),
                decree=fine.decree,
            ),
        )
    if not low <= cents <= high:
        raise FeeError(
            "amount_cents",
            "out_of_range",
            _(
                "A multa por animal deve ficar entre %(low)s e %(high)s (%(decree)s).",
                low=format_brl(low),
                high=format_brl(high),
                decree=fine.decree,
            ),
        )
    return cents, _reason(inputs)


def _reason(inputs: FineInputs) -> str:
    """Why the agent or the authority set a graded amount (GRU 76: the grading weighs the facts;
    BJP 30 II: the decree's range): required, it goes on the record as the fine line's note."""
    if not inputs.units_reason:
        raise FeeError(
            "units_reason",
            "required",
            _("Explique por que a multa tem este valor (gravidade e consequências)."),
        )
    return inputs.units_reason


def _refuse_units(given: bool, article: str, field_name: str = "units") -> None:
    """Refuse a value typed (``units`` or ``amount_cents``) for a fine the law fixed."""
    if given:
        raise FeeError(
            field_name,
            "fixed_by_law",
            _(
                "O valor desta multa é fixado em lei (%(article)s): não há faixa para escolher.",
                article=article,
            ),
        )


@dataclass(frozen=True)
class _Previous:
    """The repeat record of one person for one legal provision, as the law counts it."""

    count: int = 0  # previous infractions that still count (0: not a repeat)
    last: date | None = None
    amount_cents: int | None = None  # the previous fine, where the law doubles it


def _previous_offences(profile: Profile, repeats: Repeats, infraction_on: date) -> _Previous:
    """Previous infractions of the same legal provision that make this one a repeat.

    ``previous_offences`` (dates, one per earlier final penalty; ``previous_offence_on``: one date)
    or, where the law has no window, ``repeat`` (the number of earlier penalties).
    """
    rule = profile.fines
    window, prescription = rule.repeat_window_years, rule.prescription_years
    given = [("previous_offences", d) for d in repeats.previous_offences]
    if repeats.previous_offence_on is not None:
        given.append(("previous_offence_on", repeats.previous_offence_on))
    if given:
        counted = []
        for name, previous in given:
            if previous > infraction_on:
                raise FeeError(
                    name, "future", _("A infração anterior não pode ser posterior a esta.")
                )
            if _still_counts(previous, infraction_on, window, prescription):
                counted.append(previous)
        count, last = len(counted), max(counted, default=None)
    elif repeats.repeat:
        if window is not None:
            raise FeeError(
                "previous_offence_on",
                "required",
                _(
                    "Informe a data da infração anterior: a reincidência vale por %(years)d anos.",
                    years=window,
                ),
            )
        count, last = repeats.repeat, None
    else:
        return _Previous()
    return _Previous(count, last, repeats.previous_amount_cents if count else None)


def _still_counts(
    previous: date, infraction_on: date, window: int | None, prescription: int | None
) -> bool:
    """Whether an earlier infraction still makes ``infraction_on`` a repeat.

    GRU 79: "dentro do período de três anos" — a period counted from the earlier infraction like
    every term of the law (GRU 114: the start day excluded, the last day included; a term in years
    ends on the day of the same number, or the next one when there is none: Código Civil art. 132
    §3). So an infraction exactly three years after the earlier one is still inside the period: a
    repeat; the day after is not. GRU 114 §ú (start and end on business days) is for acts before
    the Administration, not for this period, so a weekend end does not stretch it.
    """
    if window is not None and infraction_on > term_of_years_ends(previous, window):
        return False  # GRU 79
    if prescription is not None and infraction_on > term_of_years_ends(previous, prescription):
        return False  # GRU 113: a prescribed infraction counts for nothing
    return True


def _check_prescription(
    profile: Profile, inputs: FineInputs, infraction_on: date, on: date
) -> None:
    """GRU 113: infractions prescribe in five years; an act of the authority restarts it (§1)."""
    years = profile.fines.prescription_years
    if years is None:
        return
    since = inputs.prescription_interrupted_on or infraction_on
    if since < infraction_on or since > on:
        raise FeeError(
            "prescription_interrupted_on",
            "invalid",
            _("A interrupção da prescrição deve ficar entre a infração e a autuação."),
        )
    if on > term_of_years_ends(since, years):  # the last day of the five years still counts
        raise FeeError(
            "infraction_on",
            "prescribed",
            _(
                "A infração prescreveu: passaram mais de %(years)d anos (%(article)s).",
                years=years,
                article=profile.fines.cite("prescription_years"),
            ),
        )


def _check_comply_terms(
    profile: Profile,
    fine: SpecificFine,
    inputs: FineInputs,
    infraction_on: date,
    last_fine: date | None,
) -> None:
    """The fine comes only after the intimation's term (BJP 2 §3, 16 §4, 17 §2; VV 34 §2)."""
    if fine.comply_days is None:
        return
    notified = inputs.notified_on
    if notified is None:
        raise FeeError("notified_on", "required", _("Informe a data."))
    if notified > infraction_on:
        raise FeeError(
            "notified_on", "after_infraction", _("A intimação não pode ser posterior à infração.")
        )
    terms = [(notified, fine.comply_days, fine.cite("comply_days"))]
    if fine.renewed_comply_days and last_fine is not None:
        # BJP 17 §2 II: after each fine a new term of 30 days before the next one
        terms.append((last_fine, fine.renewed_comply_days, fine.cite("renewed_comply_days")))
    rule = profile.notices
    for start, days, article in terms:
        ends = deadline(
            start,
            days,
            rule.counting,
            state=profile.state,
            municipal_holidays=_holidays(inputs.municipal_holidays),
            moves_to_business_day=rule.moves_to_business_day,
        )
        if infraction_on <= ends:
            raise FeeError(
                "infraction_on",
                "term_running",
                _(
                    "O prazo de %(days)d dias para regularizar vai até %(date)s (%(article)s): a "
                    "multa só cabe depois dele.",
                    days=days,
                    date=f"{ends:%d/%m/%Y}",
                    article=article,
                ),
            )


def _repeat_extra(subtotal: int, growth: str, previous: _Previous, multiplier: int) -> int:
    """What a repeat adds on top of the fine (see ``RepeatGrowth`` in the profile schema)."""
    n = previous.count
    if n == 0 or growth == "none":
        return 0
    if growth == "plus_50_percent_each":
        # BJP 16 §4 III, VV 34 §2 III: "acrescida de 50 % a cada reincidência" -> x 1,5^n
        total = (Decimal(subtotal) * Decimal("1.5") ** n).quantize(Decimal("1"), ROUND_HALF_UP)
        return int(total) - subtotal
    if growth == "double_previous":
        if previous.amount_cents is not None:
            # CAB 40 §2: twice the previous penalty, as it was imposed
            return max(previous.amount_cents * multiplier - subtotal, 0)
        # each repeat doubles the previous fine: x 2^n (BJP 17 §2 III, 19 §1, 31 §ú)
        return subtotal * (multiplier**n - 1)
    return subtotal * (multiplier - 1)  # "aplicada em dobro": twice the fine set for it (GRU 80)


def _repeat_label(growth: str, count: int) -> str:
    if growth == "plus_50_percent_each":
        return _("Reincidência (%(n)dª): multa acrescida de 50%% a cada reincidência", n=count)
    if growth == "double_previous":
        return _("Reincidência (%(n)dª): o dobro da multa anterior", n=count)
    return _("Reincidência: multa em dobro")


def _graded_units(profile: Profile, severity: Any, inputs: FineInputs) -> tuple[Decimal, str]:
    """Units the agent set for a fine graded by regulation or above a legal minimum, and why."""
    rule = profile.fines
    units = inputs.units
    if units is None or units <= 0:
        raise FeeError(
            "units", "required", _("Informe o valor da multa em %(unit)s.", unit=rule.unit)
        )
    if severity.by_regulation:
        low, high = rule.range_min_units, rule.range_max_units
        if (low is not None and units < low) or (high is not None and units > high):
            # GRU 69 II: from 42 to 42 000 UFG, both included
            raise FeeError(
                "units",
                "out_of_range",
                _(
                    "A multa deve ficar entre %(low)s e %(high)s %(unit)s (%(article)s).",
                    low=_num(low),
                    high=_num(high),
                    unit=rule.unit,
                    article=rule.article,
                ),
            )
    else:
        minimum = _amount_units(severity.minimum)
        too_low = units <= minimum if severity.minimum_exclusive else units < minimum
        if too_low:
            # CABO 39 table: leve from 0,1; grave above 1; gravíssima above 5
            word = _("acima de") if severity.minimum_exclusive else _("a partir de")
            raise FeeError(
                "units",
                "below_minimum",
                _(
                    "Para esta gravidade a multa é %(word)s %(min)s %(unit)s (%(article)s).",
                    word=word,
                    min=_num(minimum),
                    unit=rule.unit,
                    article=rule.article,
                ),
            )
    return units, _reason(inputs)  # GRU 76: the agent's reason goes on the record


def _expense_lines(
    profile: Profile, fee_kind: str, expenses: tuple[Expense, ...], payer: str | None
) -> list[FeeLine]:
    """The CCZ's expenses the law lets it recover, one line each (CABO 10 §ú f, 41; GRU 72 §1)."""
    if not expenses:
        return []
    rule = profile.expense_rule(fee_kind)
    if rule is None:
        raise FeeError(
            "expenses",
            "not_recoverable",
            _("Esta lei não prevê o ressarcimento de despesas nesta cobrança."),
        )
    lines = []
    for expense in expenses:
        if expense.kind not in rule.kinds:
            raise FeeError(
                "expenses",
                "not_recoverable",
                _("Esta despesa não está entre as previstas em %(article)s.", article=rule.article),
            )
        label = _("Despesa: %(what)s", what=_expense_label(str(expense.kind)))
        if expense.description:
            label = f"{label} ({expense.description})"
        lines.append(
            FeeLine(label, expense.amount_cents, rule.article, kind="expense", payer=payer)
        )
    return lines


def _expense_label(kind: str) -> str:
    return {
        "capture": _("captura e remoção"),
        "transport": _("transporte"),
        "food": _("alimentação"),
        "veterinary": _("assistência veterinária"),
        "storage": _("depósito"),
        "other": _("outras despesas"),
    }[kind]
