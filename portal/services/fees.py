"""The one fee service: what a person owes under the profile's law, line by line, in centavos.

    fee = compute_fee(profile, "reclaim", {"size": "small", "apprehended_on": d1,
                                           "capture_number": 2}, on=today)
    fee.total_cents            # integer centavos
    fee.lines                  # FeeLine(label, amount_cents, article, …): each cites its article
    fee.breakdown()            # the list stored in PaymentItem.breakdown

Kinds and their inputs: ``inputs`` is the kind's typed record (:class:`PriceInputs`,
:class:`AdoptionInputs`, :class:`ReclaimInputs`, :class:`FineInputs`), or a plain dict with the
same names, which :func:`parse_inputs` reads into the record first, so the web forms, the API and
other domains call it the same way (dates may be ``date`` objects or ISO strings):

``registration``, ``card_copy``, ``tag_copy``, ``licence``
    The city's price list (GRU 22; BJP 11). ``animals`` (default 1).
``adoption``
    The profile's adoption fee: a price (BJP 28) or, per day held, a unit multiple (CAB 17).
    ``days_held`` (CAB), ``animals`` (default 1).
``reclaim``
    Every ``profile.reclaim.charges`` line (CABO 44, CAB 17/19, VV 22 §5-6, BJP 28, GRU 82).
    ``size`` (small/medium/large), ``apprehended_on``, ``reclaimed_on`` (default ``on``),
    ``capture_number`` (1 = first capture, the default), ``owner_captures`` (the legal size
    classes of the owner's earlier captures: CAB 19 §2), ``tagged`` (default True), ``animals``
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

Import everything from here. This module holds :func:`compute_fee` and the price-list, adoption
and reclaim fees; :mod:`portal.services.fee_base` the error, :class:`Fee`, the price list and the
typed inputs with their parsing; :mod:`portal.services.fee_fines` fines and recoverable expenses.
"""

from __future__ import annotations

from collections.abc import Mapping
from datetime import date
from typing import Any

from flask_babel import force_locale
from flask_babel import gettext as _

from portal.profiles.schema import Profile, ReclaimCharge, SizeClass
from portal.services.dates import deadline, impound_release_date
from portal.services.fee_base import (
    FEE_KINDS,
    INPUTS_OF,
    PRICE_KEYS,
    PRICE_KINDS,
    AdoptionInputs,
    Expense,
    Fee,
    FeeError,
    FeeInputs,
    FeeLine,
    FineInputs,
    JointFine,
    PriceEntry,
    PriceInputs,
    ReclaimInputs,
    Repeats,
    _amount_cents,
    _holidays,
    _price_label,
    _times,
    _times_line,
    parse_inputs,
    price_cents,
    price_list,
    unknown_kind,
)
from portal.services.fee_fines import _expense_lines, _fine
from portal.services.money import UnitValueMissing

__all__ = [
    "FEE_KINDS",
    "PRICE_KEYS",
    "PRICE_KINDS",
    "AdoptionInputs",
    "Expense",
    "Fee",
    "FeeError",
    "FeeInputs",
    "FeeLine",
    "FineInputs",
    "JointFine",
    "PriceEntry",
    "PriceInputs",
    "ReclaimInputs",
    "Repeats",
    "compute_fee",
    "parse_inputs",
    "price_cents",
    "price_list",
]

# ---------------------------------------------------------------------------------------------
# The service
# ---------------------------------------------------------------------------------------------


def compute_fee(
    profile: Profile, kind: str, inputs: FeeInputs | Mapping[str, Any] | None, on: date
) -> Fee:
    """What is owed for ``kind`` under ``profile`` on ``on`` (the issue day). See the module doc.

    ``inputs``: the kind's record, or a dict that :func:`parse_inputs` reads into it.
    Raises FeeError for unknown kinds, bad inputs or a missing unit value; TypeError for a record
    of another kind.
    """
    # Labels end up on guias and receipts, which are official documents in Portuguese.
    with force_locale("pt_BR"):
        if kind not in FEE_KINDS:
            raise unknown_kind(kind)
        record = inputs if isinstance(inputs, FeeInputs) else parse_inputs(kind, inputs)
        if not isinstance(record, INPUTS_OF[kind]):
            raise TypeError(f"{type(record).__name__} does not price a {kind}")
        try:
            if isinstance(record, PriceInputs):
                lines = _price_fee(profile, kind, record, on)
            elif isinstance(record, AdoptionInputs):
                lines = _adoption_fee(profile, record, on)
            elif isinstance(record, ReclaimInputs):
                lines = _reclaim_fee(profile, record, on)
            else:
                lines = _fine(profile, record, on)
        except UnitValueMissing as err:
            raise FeeError(None, "unit_value_missing", str(err)) from err
        available = tuple(profile.exemptions_for(kind)) if kind != "fine" else ()  # type: ignore[arg-type]
        lines = _apply_exemption(profile, kind, record.exemption, lines)
    return Fee(kind=kind, on=on, lines=tuple(lines), exemptions=available)


def _apply_exemption(
    profile: Profile, kind: str, code: str | None, lines: list[FeeLine]
) -> list[FeeLine]:
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


def _price_fee(profile: Profile, kind: str, inputs: PriceInputs, on: date) -> list[FeeLine]:
    if kind == "registration" and not profile.registration.fee:
        return []  # the law charges nothing for the RGA (CABO 19; CAB —)
    if kind not in profile.prices:
        return []
    entry = price_cents(profile, kind, on)  # GRU 22; BJP 11
    return [_times(_price_label(kind), entry.amount_cents, inputs.animals, entry.article)]


def _adoption_fee(profile: Profile, inputs: AdoptionInputs, on: date) -> list[FeeLine]:
    rule = profile.adoption
    if rule.fee is None:
        return []
    animals = inputs.animals
    per_unit = _amount_cents(profile, rule.fee, on)
    if rule.fee_per == "day_held":
        # CAB 17: "por cabeça e por dia de apreensão"
        days = inputs.days_held
        if days is None:
            raise FeeError("days_held", "required", _("Informe o número de dias."))
        line = _times(
            _("Taxa de adoção por dia de apreensão"), per_unit, days, rule.cite("fee"), unit="day"
        )
        return [_times_line(line, animals)] if animals > 1 else [line]
    return [_times(_("Taxa de adoção"), per_unit, animals, rule.cite("fee"))]  # BJP 28


def _reclaim_fee(profile: Profile, inputs: ReclaimInputs, on: date) -> list[FeeLine]:
    apprehended = inputs.apprehended_on
    reclaimed = inputs.reclaimed_on or on
    if reclaimed < apprehended:
        raise FeeError(
            "reclaimed_on",
            "before_apprehension",
            _("A data do resgate não pode ser anterior à da apreensão."),
        )
    capture, animals = inputs.capture_number, inputs.animals
    holidays = _holidays(inputs.municipal_holidays, apprehended, inputs.reclaimed_on)

    lines: list[FeeLine] = []
    for charge in profile.reclaim.charges:
        if (charge.applies_on == "first" and capture > 1) or (
            charge.applies_on == "repeat" and capture == 1
        ):
            continue  # CABO 44: the "Reincidência" column replaces the daily rate
        if charge.only_away_from_home and not _away_from_home(inputs):
            continue  # VV 22 §6: only a repeat capture "longe do domicílio"
        amount = charge.amount.for_size(inputs.size)
        if amount is None:
            continue  # CAB 19 §1: the per-head fine is for medium and large animals only
        base = _amount_cents(profile, amount, on)
        article = charge.article
        repeat = capture
        if charge.repeat_counts_owner:
            # CAB 19 §2: "com relação ao animal ou com relação ao proprietário"
            repeat = max(capture, 1 + _owner_repeats(inputs.owner_captures, charge))
        if charge.repeat_growth == "double_each" and repeat > 1:
            # CAB 17 §ú, 19 §2: doubled at each recapture, relative to the last one
            base *= 2 ** (repeat - 1)
            article = f"{charge.article}; {charge.cite('repeat_growth')}"
        if charge.per == "day":
            days = _charged_days(
                profile, charge, inputs.size, apprehended, reclaimed, inputs.tagged, holidays
            )
            if days == 0:
                continue  # VV 22 §5: free within the first 5 business days
            line = _times(charge.label, base, days, article, kind=charge.kind, unit="day")
        else:
            line = FeeLine(charge.label, base, article, kind=charge.kind)
        lines.append(_times_line(line, animals) if animals > 1 else line)
    # CABO 10 §ú f, 41; GRU 72 §1: the CCZ's expenses, paid back before the animal goes home
    return lines + _expense_lines(profile, "reclaim", inputs.expenses, None)


def _away_from_home(inputs: ReclaimInputs) -> bool:
    """VV 22 §6 charges a repeat capture "longe do domicílio": the answer is required there."""
    if inputs.away_from_home is None:
        raise FeeError("away_from_home", "required", _("Responda sim ou não."))
    return inputs.away_from_home


def _owner_repeats(sizes: tuple[SizeClass, ...], charge: ReclaimCharge) -> int:
    """The owner's earlier captures this charge applies to (CAB 19 §2: the fine of §1, for
    medium and large animals); ``sizes`` are their legal size classes."""
    return sum(1 for size in sizes if charge.amount.for_size(size) is not None)


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
