"""Bars on the adopter: the commitment never to keep animals (VV 23 V), the loss of possession
for maus-tratos (VV 23 III b; BJP 30 §ú), the definitive apprehension of this animal (GRU 88 §4)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from flask_babel import gettext as _
from sqlalchemy import select

from portal.blueprints.adoption.rule_results import (
    FAIL,
    PASS,
    RuleResult,
    rule_result,
)
from portal.extensions import db
from portal.models import (
    BarKind,
    Listing,
    PersonBar,
    User,
)
from portal.profiles.schema import Profile
from portal.wiring import wiring


def active_bars(cpf: str | None) -> list[Any]:
    """Every bar in force for a CPF (revoked bars no longer count): those staff typed
    (``PersonBar``) and those the enforcement procedure recorded with their deciding document
    (:func:`enforcement_bars`)."""
    if not cpf:
        return []
    typed: list[Any] = list(
        db.session.scalars(
            select(PersonBar)
            .where(PersonBar.cpf == cpf, PersonBar.revoked_at.is_(None))
            .order_by(PersonBar.id)
        )
    )
    return typed + enforcement_bars(cpf)


@dataclass(frozen=True)
class EnforcementBar:
    """A consequence recorded by a notice (VV 23 V, VV 23 III b, BJP 30 §ú, GRU 88 §4), read
    like a ``PersonBar``: same ``kind`` codes; GRU 88 §4 bars the one animal."""

    kind: str
    reason: str
    document_number: str
    listing_id: int | None = None
    animal_id: int | None = None


def enforcement_bars(cpf: str | None) -> list[EnforcementBar]:
    """The consequences the enforcement domain recorded on this CPF."""
    return [
        EnforcementBar(s.kind, s.article, s.document_number, None, s.animal_id)
        for s in wiring().sanctions(cpf)  # enforcement.hooks.cpf_sanctions
    ]


def check_bars(
    profile: Profile, person: User, listing: Listing, reviewer: bool
) -> list[RuleResult]:
    bars = active_bars(person.cpf)
    contact = "" if reviewer else _("Se acredita que há um engano, procure o CCZ.")
    results = []

    # VV 23 V: the person signed a term never again to keep animals under their care.
    if any(b.kind == BarKind.COMMITMENT_NEVER_KEEP for b in bars):
        results.append(
            rule_result(
                profile,
                "bar_commitment",
                FAIL,
                (
                    _(
                        "Consta um termo de compromisso assinado pela pessoa de não "
                        "mais ter animais sob sua guarda."
                    )
                    if reviewer
                    else _(
                        "Consta um termo de compromisso assinado por você de não mais "
                        "ter animais sob sua guarda. "
                    )
                    + contact
                ),
            )
        )
    else:
        results.append(
            rule_result(
                profile,
                "bar_commitment",
                PASS,
                _("Não há termo de compromisso de não ter animais."),
            )
        )

    # VV 23 III b ("perda da posse do animal. O animal em questão será apreendido [...] e colocado
    # em adoção"); BJP 30 §ú II ("perda da posse do animal"): the law takes *that* animal, it does
    # not bar adopting another (that is VV 23 V's commitment). A bar naming its animal bars only
    # it; one that names none (typed by staff without the animal) still bars, as it cannot tell.
    lost = [b for b in bars if b.kind == BarKind.LOST_POSSESSION_MALTREATMENT]
    if any(_names_animal(b) and _is_this_animal(b, listing) for b in lost):
        results.append(
            rule_result(
                profile,
                "bar_maltreatment",
                FAIL,
                _(
                    "A pessoa perdeu a posse deste animal por maus-tratos; a posse dele "
                    "não pode voltar a ela."
                )
                if reviewer
                else _(
                    "Você perdeu a posse deste animal por maus-tratos; a posse dele não pode "
                    "voltar a você. Você pode adotar outro animal."
                ),
            )
        )
    elif any(not _names_animal(b) for b in lost):
        results.append(
            rule_result(
                profile,
                "bar_maltreatment",
                FAIL,
                (_("Consta perda da posse de animal por maus-tratos. ") + contact).strip(),
            )
        )
    else:
        results.append(
            rule_result(
                profile,
                "bar_maltreatment",
                PASS,
                _("Não há perda de posse de animal por maus-tratos."),
            )
        )

    # GRU 88 §4: the possession never returns to whoever caused the definitive apprehension; only
    # this animal is barred, matched by listing or by its RGA record.
    this_animal = any(
        b.kind == BarKind.CAUSED_DEFINITIVE_APPREHENSION and _is_this_animal(b, listing)
        for b in bars
    )
    if this_animal:
        results.append(
            rule_result(
                profile,
                "bar_apprehension",
                FAIL,
                _(
                    "A pessoa deu causa à apreensão definitiva deste animal; a posse "
                    "dele não pode voltar a ela."
                )
                if reviewer
                else _(
                    "Você deu causa à apreensão definitiva deste animal; a posse dele "
                    "não pode voltar a você. Você pode adotar outro animal."
                ),
            )
        )
    else:
        results.append(
            rule_result(
                profile,
                "bar_apprehension",
                PASS,
                _("A pessoa não deu causa à apreensão deste animal.")
                if reviewer
                else _("Você não deu causa à apreensão deste animal."),
            )
        )
    return results


def _names_animal(bar: Any) -> bool:
    return bar.listing_id is not None or bar.animal_id is not None


def _is_this_animal(bar: Any, listing: Listing) -> bool:
    """The bar names this listing, or the RGA record the listing is for."""
    return (bar.listing_id is not None and bar.listing_id == listing.id) or (
        bar.animal_id is not None and bar.animal_id == listing.animal_id
    )
