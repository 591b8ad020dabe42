"""The one fee service: what a person owes under the profile's law, line by line, in centavos.

    fee = compute_fee(profile, "reclaim", {"size": "small", "apprehended_on": d1,
                                           "capture_number": 2}, on=today)
    fee.total_cents            # integer centavos
    fee.lines                  # FeeLine(label, amount_cents, article, …): each cites its article
    fee.breakdown()            # the list stored in PaymentItem.breakdown

Kinds and their inputs (``inputs`` is a plain dict so the web forms, the API and other domains call
it the same way; dates may be ``date`` objects or ISO strings):

``registration``, ``card_copy``, ``tag_copy``, ``licence``
    The city's price list (GRU 22; BJP 11). ``animals`` (default 1).
``adoption``
    The profile's adoption fee: a price (BJP 28) or, per day held, a unit multiple (CAB 17).
    ``days_held`` (CAB), ``animals`` (default 1).
``reclaim``
    Every ``profile.reclaim.charges`` line (CABO 44, CAB 17/19, VV 22 §5-6, BJP 28, GRU 82).
    ``size`` (small/medium/large), ``apprehended_on``, ``reclaimed_on`` (default ``on``),
    ``capture_number`` (1 = first capture, the default), ``tagged`` (default True), ``animals``
    (default 1), ``away_from_home`` (required for a VV repeat capture: VV 22 §6),
    ``municipal_holidays`` (default: the ones staff entered), ``expenses``.
``fine``
    ``severity`` (a key of ``profile.fines.severities``) or ``specific`` (a code of
    ``profile.fines.specific``) or neither when the law has a default fine (VV 50 I).
    ``infraction_on`` (default ``on``): the unit value, the repeat window and the prescription are
    read on that day (GRU 113: ``prescription_interrupted_on`` restarts it, §1).
    ``units`` + ``units_reason`` only where the law gives the agent a range or a minimum (GRU 69
    II, CABO 39); a fixed fine refuses them (``fixed_by_law``).
    ``animals`` for per-animal fines; ``animal_died`` (VV 32 §1 II, 43 §2); ``notified_on`` for
    fines that come after an intimation's term (BJP 2 §3, 16 §4, 17 §2; VV 34 §2).
    Repeats: ``previous_offences`` (dates of earlier penalties for the same legal provision; only
    those inside the window, GRU 79, and not prescribed, GRU 113, count; ``previous_offence_on``
    is one such date) or ``repeat`` (True or a count, laws without a window);
    ``previous_amount_cents`` where the law doubles the previous penalty (CAB 40 §2).
    ``joint``: fines the same facts impose on other people (BJP 19 §1 II), each with its own
    repeat record; their lines carry their ``payer``. ``expenses`` where the law recovers them.
``expenses`` (reclaim, fine)
    ``[{"kind": "transport", "amount_cents": 4500, "description": "..."}]``, one line each, only
    the kinds the profile's law lists (CABO 10 §ú f, 41; GRU 72 §1); never waived by an exemption.

Every kind accepts ``exemption``: the code of an exemption staff accepted (GRU 23, 82 §3;
VV 12 §3-4). The lines stay, and one negative line cancels them, so the document shows what was
waived and why.

Unit values (UFM, UFG, minimum wage) are those in force on ``on``, the issue day, and for fines
on ``infraction_on`` (:func:`portal.services.money.units_to_cents`); price-list amounts are the
city's overrides in force on ``on``, else the profile's shipped (example) amounts.

Raises :class:`FeeError` (with the input ``field`` at fault) for inputs the law cannot price, and
for a unit value missing on that day.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from datetime import date, datetime
from decimal import ROUND_HALF_UP, Decimal, InvalidOperation
from typing import Any, get_args

from flask_babel import force_locale
from flask_babel import gettext as _
from sqlalchemy import select

from portal.extensions import db
from portal.models import PriceOverride
from portal.profiles.schema import (
    BRL,
    SIZE_CLASSES,
    Amount,
    Exemption,
    PriceKey,
    Profile,
    ReclaimCharge,
    SizeClass,
    SpecificFine,
)
from portal.services.dates import deadline, impound_release_date, term_of_years_ends
from portal.services.money import UnitValueMissing, format_brl, units_to_cents

FEE_KINDS = ("registration", "card_copy", "tag_copy", "licence", "adoption", "reclaim", "fine")
PRICE_KINDS = ("registration", "card_copy", "tag_copy", "licence")
PRICE_KEYS: tuple[str, ...] = get_args(PriceKey)


class FeeError(ValueError):
    """The inputs cannot be priced; ``field`` names the input at fault (None: the whole request)."""

    def __init__(self, field: str | None, code: str, message: str) -> None:
        super().__init__(message)
        self.field = field
        self.code = code
        self.message = message


@dataclass(frozen=True)
class FeeLine:
    """One line of a fee: what, how much, and the article that charges it."""

    label: str
    amount_cents: int
    article: str
    # "fee" (taxa / preço), "fine" (multa), "expense" (despesa ressarcida) or "exemption" (negative)
    kind: str = "fee"
    quantity: int = 1
    unit_cents: int | None = None  # the price of one day / animal when quantity > 1
    # Who pays a fine: "offender", or the role the law names (BJP 19 §1: "owner", "trainer").
    payer: str | None = None
    note: str | None = None  # the agent's reason for a graded amount (GRU 69 II, 76)

    def as_dict(self) -> dict[str, Any]:
        data: dict[str, Any] = {
            "label": self.label,
            "amount_cents": self.amount_cents,
            "article": self.article,
            "kind": self.kind,
        }
        if self.quantity != 1 or self.unit_cents is not None:
            data["quantity"] = self.quantity
            data["unit_cents"] = self.unit_cents
        if self.payer is not None:
            data["payer"] = self.payer
        if self.note is not None:
            data["note"] = self.note
        return data


@dataclass(frozen=True)
class Fee:
    """An itemised amount. ``total_cents`` is 0 when the law charges nothing or it was waived."""

    kind: str
    on: date
    lines: tuple[FeeLine, ...] = ()
    # Exemptions the payer may still ask for on this kind (proof reviewed by staff).
    exemptions: tuple[Exemption, ...] = field(default=())

    @property
    def total_cents(self) -> int:
        return sum(line.amount_cents for line in self.lines)

    @property
    def charged(self) -> bool:
        """True when the law charges something for this kind (even if an exemption waived it)."""
        return any(line.kind != "exemption" and line.amount_cents > 0 for line in self.lines)

    def breakdown(self) -> list[dict[str, Any]]:
        return [line.as_dict() for line in self.lines]


# ---------------------------------------------------------------------------------------------
# Price list
# ---------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class PriceEntry:
    """One line of the city's price list as it stands on a day."""

    key: str
    amount_cents: int
    article: str
    example: bool  # True while the profile's shipped placeholder applies
    effective_from: date | None  # of the override in force; None for the shipped value
    note: str | None = None


def price_list(profile: Profile, on: date) -> list[PriceEntry]:
    """The price list in force on ``on``: the profile's lines with the city's latest override."""
    overrides = db.session.scalars(
        select(PriceOverride)
        .where(PriceOverride.profile_key == profile.key, PriceOverride.effective_from <= on)
        .order_by(PriceOverride.effective_from)
    ).all()
    latest = {o.key: o for o in overrides}  # ordered by date: the last one wins
    entries = []
    for key in PRICE_KEYS:
        price = profile.prices.get(key)  # type: ignore[call-overload]
        if price is None:
            continue  # the law does not charge it: the city cannot add it here
        override = latest.get(key)
        if override is None:
            entries.append(PriceEntry(key, price.amount_cents, price.article, price.example, None))
        else:
            entries.append(
                PriceEntry(
                    key,
                    override.amount_cents,
                    price.article,
                    False,
                    override.effective_from,
                    override.note,
                )
            )
    return entries


def price_cents(profile: Profile, key: str, on: date) -> PriceEntry:
    """One price-list line in force on ``on``. Raises FeeError when the list has no such line."""
    for entry in price_list(profile, on):
        if entry.key == key:
            return entry
    raise FeeError(None, "not_charged", _("A tabela de preços do município não tem este item."))


# ---------------------------------------------------------------------------------------------
# The service
# ---------------------------------------------------------------------------------------------


def compute_fee(profile: Profile, kind: str, inputs: Mapping[str, Any] | None, on: date) -> Fee:
    """What is owed for ``kind`` under ``profile`` on ``on`` (the issue day). See the module doc.

    Raises FeeError for unknown kinds, bad inputs or a missing unit value.
    """
    inputs = dict(inputs or {})
    # Labels end up on guias and receipts, which are official documents in Portuguese.
    with force_locale("pt_BR"):
        if kind not in FEE_KINDS:
            raise FeeError(
                "kind", "unknown_kind", _("Tipo de cobrança desconhecido: %(kind)s.", kind=kind)
            )
        try:
            if kind in PRICE_KINDS:
                lines = _price_fee(profile, kind, inputs, on)
            elif kind == "adoption":
                lines = _adoption_fee(profile, inputs, on)
            elif kind == "reclaim":
                lines = _reclaim_fee(profile, inputs, on)
            else:
                lines = _fine(profile, inputs, on)
        except UnitValueMissing as err:
            raise FeeError(None, "unit_value_missing", str(err)) from err
        available = tuple(profile.exemptions_for(kind)) if kind != "fine" else ()  # type: ignore[arg-type]
        lines = _apply_exemption(profile, kind, inputs.get("exemption"), lines)
    return Fee(kind=kind, on=on, lines=tuple(lines), exemptions=available)


def _apply_exemption(profile: Profile, kind: str, code: Any, lines: list[FeeLine]) -> list[FeeLine]:
    if not code:
        return lines
    exemption = next(
        (e for e in profile.exemptions if e.code == code and kind in e.fee_kinds), None
    )
    if exemption is None:
        raise FeeError(
            "exemption", "unknown_exemption", _("Esta isenção não se aplica a esta cobrança.")
        )
    # GRU 23, GRU 82 §3 ("dispensados do pagamento das respectivas taxas"), VV 12 §3-4: the
    # exemption waives the fees; expenses the law has the owner pay back (GRU 72 §1) stay.
    subtotal = sum(line.amount_cents for line in lines if line.kind == "fee")
    if subtotal <= 0:
        return lines
    return [
        *lines,
        FeeLine(
            _("Isenção: %(label)s", label=exemption.label),
            -subtotal,
            exemption.article,
            kind="exemption",
        ),
    ]


def _price_fee(profile: Profile, kind: str, inputs: dict[str, Any], on: date) -> list[FeeLine]:
    if kind == "registration" and not profile.registration.fee:
        return []  # the law charges nothing for the RGA (CABO 19; CAB —)
    if kind not in profile.prices:
        return []
    entry = price_cents(profile, kind, on)  # GRU 22; BJP 11
    animals = _positive_int(inputs, "animals", 1)
    return [_times(_price_label(kind), entry.amount_cents, animals, entry.article)]


def _adoption_fee(profile: Profile, inputs: dict[str, Any], on: date) -> list[FeeLine]:
    rule = profile.adoption
    if rule.fee is None:
        return []
    animals = _positive_int(inputs, "animals", 1)
    per_unit = _amount_cents(profile, rule.fee, on)
    if rule.fee_per == "day_held":
        # CAB 17: "por cabeça e por dia de apreensão"
        days = _non_negative_int(inputs, "days_held", None)
        line = _times(_("Taxa de adoção por dia de apreensão"), per_unit, days, rule.cite("fee"))
        return [_times_line(line, animals)] if animals > 1 else [line]
    return [_times(_("Taxa de adoção"), per_unit, animals, rule.cite("fee"))]  # BJP 28


def _reclaim_fee(profile: Profile, inputs: dict[str, Any], on: date) -> list[FeeLine]:
    size = inputs.get("size")
    if size not in SIZE_CLASSES:
        raise FeeError("size", "invalid", _("Informe o porte: pequeno, médio ou grande."))
    apprehended = _date(inputs, "apprehended_on", None)
    reclaimed = _date(inputs, "reclaimed_on", on)
    if reclaimed < apprehended:
        raise FeeError(
            "reclaimed_on",
            "before_apprehension",
            _("A data do resgate não pode ser anterior à da apreensão."),
        )
    capture = _positive_int(inputs, "capture_number", 1)
    animals = _positive_int(inputs, "animals", 1)
    tagged = _flag(inputs, "tagged", default=True)
    holidays = _holidays(inputs)

    lines: list[FeeLine] = []
    for charge in profile.reclaim.charges:
        if (charge.applies_on == "first" and capture > 1) or (
            charge.applies_on == "repeat" and capture == 1
        ):
            continue  # CABO 44: the "Reincidência" column replaces the daily rate
        if charge.only_away_from_home and not _flag(inputs, "away_from_home", default=None):
            continue  # VV 22 §6: only a repeat capture "longe do domicílio"
        amount = charge.amount.for_size(size)
        if amount is None:
            continue  # CAB 19 §1: the per-head fine is for medium and large animals only
        base = _amount_cents(profile, amount, on)
        article = charge.article
        if charge.repeat_growth == "double_each" and capture > 1:
            # CAB 17 §ú, 19 §2: doubled at each recapture, relative to the last one
            base *= 2 ** (capture - 1)
            article = f"{charge.article}; {charge.cite('repeat_growth')}"
        if charge.per == "day":
            days = _charged_days(profile, charge, size, apprehended, reclaimed, tagged, holidays)
            if days == 0:
                continue  # VV 22 §5: free within the first 5 business days
            line = _times(charge.label, base, days, article, kind=charge.kind, unit="day")
        else:
            line = FeeLine(charge.label, base, article, kind=charge.kind)
        lines.append(_times_line(line, animals) if animals > 1 else line)
    # CABO 10 §ú f, 41; GRU 72 §1: the CCZ's expenses, paid back before the animal goes home
    return lines + _expense_lines(profile, "reclaim", inputs, None)


def _charged_days(
    profile: Profile,
    charge: ReclaimCharge,
    size: SizeClass,
    apprehended: date,
    reclaimed: date,
    tagged: bool,
    holidays: list[date],
) -> int:
    """Days a per-day reclaim charge applies to.

    Days held are counted as nights in the CCZ (apprehension day excluded, reclaim day included),
    at least one: an animal reclaimed the day it was caught still used one day of the kennel.
    """
    held = max((reclaimed - apprehended).days, 1)
    if charge.only_beyond_hold:
        # GRU 82 §5: charged for the days beyond the reclaim term
        last_day = impound_release_date(profile, size, apprehended, tagged, holidays)
        return max((reclaimed - last_day).days, 0)
    if charge.free_days:
        # VV 22 §5: free when reclaimed within 5 business days of the apprehension; after that
        # term, each further day is charged (read as: only the days beyond the free term).
        free_until = deadline(
            apprehended,
            charge.free_days,
            charge.free_days_counting,
            state=profile.state,
            municipal_holidays=holidays,
            moves_to_business_day=False,
        )
        return max((reclaimed - free_until).days, 0)
    return held


def _fine(profile: Profile, inputs: dict[str, Any], on: date) -> list[FeeLine]:
    rule = profile.fines
    severity_key, specific_code = inputs.get("severity"), inputs.get("specific")
    if severity_key and specific_code:
        raise FeeError(
            "specific", "ambiguous", _("Informe a gravidade ou a infração específica, não ambas.")
        )
    # The fine is the one in force when the infraction happened: its unit value, its repeat
    # window and its prescription are read on that day, not on the day the notice is typed.
    infraction_on = _date(inputs, "infraction_on", on)
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
        return lines + _expense_lines(profile, "fine", inputs, fine.payer)

    if severity_key:
        severity = rule.severities.get(severity_key)
        if severity is None:
            raise FeeError("severity", "unknown", _("Gravidade desconhecida nesta lei."))
        label = _("Multa por infração %(level)s", level=severity.label.lower())
        if severity.amount is not None:
            _refuse_units(inputs, rule.article)
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
        _refuse_units(inputs, rule.cite("default"))
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
    previous = _previous_offences(profile, inputs, infraction_on)
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
    return lines + _expense_lines(profile, "fine", inputs, "offender")


def _specific(profile: Profile, code: Any, field_name: str) -> SpecificFine:
    fine = next((f for f in profile.fines.specific if f.code == code), None)
    if fine is None:
        raise FeeError(field_name, "unknown", _("Infração desconhecida nesta lei."))
    return fine


def _specific_fine(
    profile: Profile, fine: SpecificFine, inputs: dict[str, Any], infraction_on: date
) -> list[FeeLine]:
    """A fine the law writes next to the infraction, for the one person it names (``payer``)."""
    _refuse_units(inputs, fine.article)  # the law fixed the amount: nothing for the agent to grade
    previous = _previous_offences(profile, inputs, infraction_on)
    _check_comply_terms(profile, fine, inputs, infraction_on, previous.last)
    per_unit = _amount_cents(profile, fine.amount, infraction_on)
    animals = _positive_int(inputs, "animals", 1) if fine.per_animal else 1  # VV 33 §4, 43 §1
    base = _times(
        _("Multa: %(what)s", what=fine.label),
        per_unit,
        animals,
        fine.article,
        kind="fine",
        unit="animal",
        payer=fine.payer,
    )
    lines = [base]
    subtotal = base.amount_cents
    if _flag(inputs, "animal_died"):
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


_REPEAT_INPUTS = ("previous_offences", "previous_offence_on", "repeat", "previous_amount_cents")


def _joint_fines(
    profile: Profile, fine: SpecificFine, inputs: dict[str, Any]
) -> list[tuple[SpecificFine, dict[str, Any]]]:
    """The fines the same facts impose on other people (BJP 19 §1 I owner -> II trainer).

    ``inputs["joint"]``: codes, or ``{"code": ..., "previous_offences": [...]}`` with that
    person's own record: a repeat of the owner is not a repeat of the trainer.
    """
    given = inputs.get("joint")
    if given in (None, "", [], ()):
        return []
    if not isinstance(given, list | tuple):
        raise FeeError("joint", "invalid", _("Informe as outras pessoas multadas pelo mesmo fato."))
    shared = {k: v for k, v in inputs.items() if k not in _REPEAT_INPUTS and k != "joint"}
    result = []
    for entry in given:
        own = dict(entry) if isinstance(entry, Mapping) else {"code": entry}
        code = own.pop("code", None)
        if code not in fine.joint:
            raise FeeError(
                "joint",
                "not_joint",
                _("Esta infração não gera multa para outra pessoa pelo mesmo fato."),
            )
        unknown = set(own) - set(_REPEAT_INPUTS)
        if unknown:
            raise FeeError(
                "joint", "invalid", _("Informe as outras pessoas multadas pelo mesmo fato.")
            )
        result.append((_specific(profile, code, "joint"), {**shared, **own}))
    return result


def _refuse_units(inputs: dict[str, Any], article: str) -> None:
    if inputs.get("units") not in (None, ""):
        raise FeeError(
            "units",
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


def _previous_offences(profile: Profile, inputs: dict[str, Any], infraction_on: date) -> _Previous:
    """Previous infractions of the same legal provision that make this one a repeat.

    ``previous_offences`` (dates, one per earlier final penalty; ``previous_offence_on``: one date)
    or, where the law has no window, ``repeat`` (True or the number of earlier penalties).
    """
    rule = profile.fines
    window, prescription = rule.repeat_window_years, rule.prescription_years
    raw: list[Any] = []
    many = inputs.get("previous_offences")
    if many not in (None, ""):
        if not isinstance(many, list | tuple):
            raise FeeError(
                "previous_offences", "invalid", _("Informe as datas das infrações anteriores.")
            )
        raw += [("previous_offences", v) for v in many]
    if inputs.get("previous_offence_on") not in (None, ""):
        raw.append(("previous_offence_on", inputs["previous_offence_on"]))
    if raw:
        counted = []
        for name, value in raw:
            previous = _date({name: value}, name, None)
            if previous > infraction_on:
                raise FeeError(
                    name, "future", _("A infração anterior não pode ser posterior a esta.")
                )
            if _still_counts(previous, infraction_on, window, prescription):
                counted.append(previous)
        count, last = len(counted), max(counted, default=None)
    elif inputs.get("repeat") not in (None, "", False, 0):
        if window is not None:
            raise FeeError(
                "previous_offence_on",
                "required",
                _(
                    "Informe a data da infração anterior: a reincidência vale por %(years)d anos.",
                    years=window,
                ),
            )
        count = 1 if inputs["repeat"] is True else _positive_int(inputs, "repeat", 1)
        last = None
    else:
        return _Previous()
    amount = None
    if count and inputs.get("previous_amount_cents") is not None:
        amount = _non_negative_int(inputs, "previous_amount_cents", None)
    return _Previous(count, last, amount)


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
    profile: Profile, inputs: dict[str, Any], infraction_on: date, on: date
) -> None:
    """GRU 113: infractions prescribe in five years; an act of the authority restarts it (§1)."""
    years = profile.fines.prescription_years
    if years is None:
        return
    since = _date(inputs, "prescription_interrupted_on", infraction_on)
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
    inputs: dict[str, Any],
    infraction_on: date,
    last_fine: date | None,
) -> None:
    """The fine comes only after the intimation's term (BJP 2 §3, 16 §4, 17 §2; VV 34 §2)."""
    if fine.comply_days is None:
        return
    notified = _date(inputs, "notified_on", None)
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
            municipal_holidays=_holidays(inputs),
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


def _graded_units(profile: Profile, severity: Any, inputs: dict[str, Any]) -> tuple[Decimal, str]:
    """Units the agent set for a fine graded by regulation or above a legal minimum, and why."""
    rule = profile.fines
    raw = inputs.get("units")
    try:
        units = Decimal(str(raw)) if raw not in (None, "") else None
    except InvalidOperation:
        units = None
    if units is None or not units.is_finite() or units <= 0:
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
    reason = inputs.get("units_reason")
    reason = reason.strip() if isinstance(reason, str) else ""
    if not reason:
        # GRU 76: the grading weighs the facts; the agent's reason goes on the record
        raise FeeError(
            "units_reason",
            "required",
            _("Explique por que a multa tem este valor (gravidade e consequências)."),
        )
    return units, reason


def _expense_lines(
    profile: Profile, fee_kind: str, inputs: dict[str, Any], payer: str | None
) -> list[FeeLine]:
    """The CCZ's expenses the law lets it recover, one line each (CABO 10 §ú f, 41; GRU 72 §1).

    ``inputs["expenses"]``: ``[{"kind": "transport", "amount_cents": 4500, "description": ...}]``.
    """
    given = inputs.get("expenses")
    if given in (None, "", [], ()):
        return []
    rule = profile.expense_rule(fee_kind)
    if rule is None:
        raise FeeError(
            "expenses",
            "not_recoverable",
            _("Esta lei não prevê o ressarcimento de despesas nesta cobrança."),
        )
    if not isinstance(given, list | tuple):
        raise FeeError("expenses", "invalid", _("Informe cada despesa com o tipo e o valor."))
    lines = []
    for item in given:
        if not isinstance(item, Mapping):
            raise FeeError("expenses", "invalid", _("Informe cada despesa com o tipo e o valor."))
        kind = item.get("kind")
        if kind not in rule.kinds:
            raise FeeError(
                "expenses",
                "not_recoverable",
                _("Esta despesa não está entre as previstas em %(article)s.", article=rule.article),
            )
        amount = item.get("amount_cents")
        if isinstance(amount, bool) or not isinstance(amount, int) or amount <= 0:
            raise FeeError(
                "expenses",
                "invalid",
                _("Informe o valor de cada despesa em centavos, maior que zero."),
            )
        label = _("Despesa: %(what)s", what=_expense_label(str(kind)))
        description = item.get("description")
        if isinstance(description, str) and description.strip():
            label = f"{label} ({description.strip()})"
        lines.append(FeeLine(label, amount, rule.article, kind="expense", payer=payer))
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


# ---------------------------------------------------------------------------------------------
# Helpers
# ---------------------------------------------------------------------------------------------


def _amount_cents(profile: Profile, amount: Amount, on: date) -> int:
    """Centavos of an Amount: price list (with the city's overrides), units in force on ``on``."""
    if amount.price is not None:
        return price_cents(profile, amount.price, on).amount_cents
    if amount.units is not None and amount.unit is not None:
        return units_to_cents(amount.units, amount.unit, on)
    return profile.amount_cents(amount, {})


def _amount_units(amount: Amount | None) -> Decimal:
    if amount is None:
        return Decimal(0)
    if amount.units is not None:
        return amount.units
    return Decimal(amount.cents or 0) / 100


def _times(
    label: str,
    unit_cents: int,
    quantity: int,
    article: str,
    *,
    kind: str = "fee",
    unit: str = "animal",
    payer: str | None = None,
) -> FeeLine:
    if quantity == 1:
        return FeeLine(label, unit_cents, article, kind=kind, payer=payer)
    what = _("dias") if unit == "day" else _("animais")
    return FeeLine(
        f"{label} ({quantity} {what} × {format_brl(unit_cents)})",
        unit_cents * quantity,
        article,
        kind=kind,
        quantity=quantity,
        unit_cents=unit_cents,
        payer=payer,
    )


def _times_line(line: FeeLine, animals: int) -> FeeLine:
    """A per-animal line multiplied by the number of animals of the same size."""
    return FeeLine(
        f"{line.label} × {animals} {_('animais')}",
        line.amount_cents * animals,
        line.article,
        kind=line.kind,
        quantity=line.quantity * animals,
        unit_cents=line.unit_cents or line.amount_cents,
    )


def _price_label(kind: str) -> str:
    return {
        "registration": _("Registro do animal (RGA)"),
        "card_copy": _("Segunda via da carteira do RGA"),
        "tag_copy": _("Segunda via da plaqueta"),
        "licence": _("Licença especial para animais acima do limite"),
    }[kind]


def _units_text(units: Decimal, unit: str) -> str:
    if unit == BRL:
        return format_brl(int(units * 100))
    return f"{_num(units)} {unit}"


def _num(value: Decimal | None) -> str:
    if value is None:
        return "—"
    text = f"{value.normalize():f}"
    return text.replace(".", ",")


def _holidays(inputs: dict[str, Any]) -> list[date]:
    given = inputs.get("municipal_holidays")
    if given is not None:
        return [d if isinstance(d, date) else date.fromisoformat(str(d)) for d in given]
    from portal.services.municipal_holidays import municipal_holidays

    around = [
        d
        for d in (_optional_date(inputs, "apprehended_on"), _optional_date(inputs, "reclaimed_on"))
        if d is not None
    ]
    return municipal_holidays(around)  # yearly holidays expanded for the years of the term


def _optional_date(inputs: dict[str, Any], name: str) -> date | None:
    try:
        found = _date(inputs, name, date.min)
    except FeeError:
        return None  # reported with its field by the caller that needs the date
    return None if found == date.min else found


def _date(inputs: dict[str, Any], name: str, default: date | None) -> date:
    value = inputs.get(name)
    if value in (None, ""):
        if default is None:
            raise FeeError(name, "required", _("Informe a data."))
        return default
    if isinstance(value, datetime):
        return value.date()
    if isinstance(value, date):
        return value
    try:
        return date.fromisoformat(str(value))
    except ValueError:
        raise FeeError(name, "invalid", _("Data inválida: use AAAA-MM-DD.")) from None


def _flag(inputs: dict[str, Any], name: str, default: bool | None = False) -> bool:
    """A yes/no input (JSON true/false or the form's "true"/"false"); ``default=None``: required."""
    value = inputs.get(name)
    if value is None or value == "":
        if default is None:
            raise FeeError(name, "required", _("Responda sim ou não."))
        return default
    if isinstance(value, bool):
        return value
    if isinstance(value, str) and value.lower() in ("true", "false"):
        return value.lower() == "true"
    raise FeeError(name, "invalid", _("Responda sim ou não."))


def _positive_int(inputs: dict[str, Any], name: str, default: int) -> int:
    value = inputs.get(name, default)
    if isinstance(value, bool) or not isinstance(value, int | str):
        raise FeeError(name, "invalid", _("Informe um número inteiro maior que zero."))
    try:
        number = int(value)
    except ValueError:
        raise FeeError(name, "invalid", _("Informe um número inteiro maior que zero.")) from None
    if number < 1:
        raise FeeError(name, "invalid", _("Informe um número inteiro maior que zero."))
    return number


def _non_negative_int(inputs: dict[str, Any], name: str, default: int | None) -> int:
    value = inputs.get(name, default)
    if value is None:
        raise FeeError(name, "required", _("Informe o número de dias."))
    if isinstance(value, bool) or not isinstance(value, int | str):
        raise FeeError(name, "invalid", _("Informe um número inteiro (zero ou mais)."))
    try:
        number = int(value)
    except ValueError:
        raise FeeError(name, "invalid", _("Informe um número inteiro (zero ou mais).")) from None
    if number < 0:
        raise FeeError(name, "invalid", _("Informe um número inteiro (zero ou mais)."))
    return number
