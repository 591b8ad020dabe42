"""A residence's limit lowered by the agent (BJP 17 §1): "de acordo com a avaliação do Agente
Sanitário [...], que verificará a quantidade e porte dos animais, tratamento, espaço e condições
higiênico sanitárias [...], este número poderá ser reduzido, a partir de laudo técnico e intimação
do agente".

Staff set a lower number for one residence with the technical report attached; the household is
told by e-mail, sees it on "Meus animais" and in its to-do list, and the household-limit check uses
it (a registration, transfer or adoption into the residence is refused above it, citing the
report). Reading chosen: the reduced number caps the residence whatever licence it holds, since the
report judges the house itself (space, hygiene); a licence request cannot lift it, only staff can
(a new report, or lifting it). Only where the profile says ``household.agent_may_reduce``.
"""

from __future__ import annotations

from collections.abc import Iterator
from datetime import UTC, date, datetime
from typing import IO

from flask import url_for
from flask_babel import gettext as _
from sqlalchemy import select

from portal.blueprints.licences.common import LicenceError
from portal.extensions import db
from portal.models import Animal, AnimalStatus, ReducedHouseholdLimit, StoredFile, User
from portal.profiles.schema import Profile
from portal.services import audit
from portal.services.clock import current_profile, local_today
from portal.services.mail import send_email
from portal.services.todo import TodoItem
from portal.services.uploads import UploadError, store_document

REPORT_PURPOSE = "household_limit_report"  # the laudo técnico's StoredFile.purpose
# BJP 17 §1: the agent assesses and issues the report; the vet and the coordination may record it.
REDUCERS = ("agent", "vet", "coordinator", "admin")
# Days a new reduction stays on the to-do list of a household that already fits it: long enough
# to be read after the e-mail (portal choice, not law).
RECENT_DAYS = 30


def in_force(residence_key: str | None) -> ReducedHouseholdLimit | None:
    """The reduction in force at the residence: the newest one not lifted."""
    if not residence_key:
        return None
    return db.session.scalar(
        select(ReducedHouseholdLimit)
        .where(
            ReducedHouseholdLimit.residence_key == residence_key,
            ReducedHouseholdLimit.lifted_at.is_(None),
        )
        .order_by(ReducedHouseholdLimit.id.desc())
    )


def reduced_limit(profile: Profile, residence_key: str | None) -> ReducedHouseholdLimit | None:
    """The reduction that applies under ``profile`` (None where the law has no BJP 17 §1)."""
    if not profile.household.agent_may_reduce or profile.household.limit is None:
        return None
    return in_force(residence_key)


def _households(residence_key: str) -> list[User]:
    """The owners of the animals living at the residence (the people the limit binds)."""
    return list(
        db.session.scalars(
            select(User)
            .join(Animal, Animal.owner_id == User.id)
            .where(
                Animal.residence_key == residence_key,
                Animal.status != AnimalStatus.CLOSED,
            )
            .distinct()
            .order_by(User.id)
        )
    )


def set_reduced_limit(
    profile: Profile,
    first: Animal,
    *,
    max_animals: int | None,
    report: IO[bytes] | StoredFile | None,
    report_name: str | None,
    report_on: date | None,
    reason: str,
    staff: User,
    today: date,
) -> ReducedHouseholdLimit:
    """BJP 17 §1: lower the limit of ``first``'s residence to ``max_animals``, with the technical
    report (a PDF or photo, stored here once the rest is valid; or already stored, held by the
    form's draft across a refused post). Replaces an earlier reduction;
    e-mails the household. Raises LicenceError."""
    rule = profile.household
    if not rule.agent_may_reduce or rule.limit is None:
        raise LicenceError(
            None, "not_in_law", _("A lei deste município não prevê a redução do limite.")
        )
    article = rule.cite("agent_may_reduce")
    if not first.residence_key:
        raise LicenceError(
            None, "no_address", _("O endereço do proprietário está incompleto: corrija-o antes.")
        )
    if max_animals is None or not 0 <= max_animals < rule.limit:
        raise LicenceError(
            "max_animals",
            "reduction_range",
            _(
                "Informe um número de 0 a %(top)d: a redução fica abaixo do limite de %(limit)d "
                "(%(article)s).",
                top=rule.limit - 1,
                limit=rule.limit,
                article=article,
            ),
        )
    if report is None:
        raise LicenceError(
            "report",
            "report_required",
            _("Anexe o laudo técnico que fundamenta a redução (%(article)s).", article=article),
        )
    if report_on is None or report_on > today:
        raise LicenceError(
            "report_on", "report_date", _("Informe a data do laudo (hoje ou antes).")
        )
    if not reason.strip():
        raise LicenceError(
            "reason",
            "required",
            _("Resuma o que o agente verificou: porte dos animais, espaço, higiene."),
        )
    if isinstance(report, StoredFile):
        stored = report  # held by the form's draft (issue 25): now the reduction's, staff-only
        stored.purpose, stored.owner_id, stored.public = REPORT_PURPOSE, None, False
    else:
        try:
            stored = store_document(
                report, purpose=REPORT_PURPOSE, owner_id=None, filename=report_name
            )
        except UploadError as err:
            raise LicenceError("report", "invalid_file", err.message) from None
    earlier = in_force(first.residence_key)
    if earlier is not None:
        earlier.lifted_at = datetime.now(UTC)
        earlier.lifted_by_id = staff.id
        earlier.lift_reason = _("Substituída por novo laudo.")
    reduction = ReducedHouseholdLimit(
        residence_key=first.residence_key,
        address_line=first.owner.address_line,
        max_animals=max_animals,
        report=stored,
        report_on=report_on,
        reason=reason.strip(),
        set_by_id=staff.id,
    )
    db.session.add(reduction)
    db.session.flush()
    audit.record(
        "household.limit_reduced",
        reduction,
        detail={"max_animals": max_animals, "report_id": stored.id},
        actor_id=staff.id,
    )
    for person in _households(first.residence_key):
        if person.email:
            send_email(
                person.email,
                _("Limite de animais da sua residência reduzido"),
                _(
                    "Após a vistoria do agente sanitário, o limite de cães e gatos com mais de "
                    "%(days)d dias em %(address)s passou de %(limit)d para %(n)d, conforme o laudo "
                    "técnico de %(day)s (%(article)s).\n\nMotivo: %(reason)s\n\nO laudo está em "
                    "Meus animais, no portal. Enquanto a redução valer, o portal não registra nem "
                    "transfere para este endereço animais acima desse número.",
                    days=rule.min_age_days,
                    address=reduction.address_line,
                    limit=rule.limit,
                    n=max_animals,
                    day=report_on.strftime("%d/%m/%Y"),
                    article=article,
                    reason=reduction.reason,
                ),
            )
    return reduction


def lift_reduced_limit(
    reduction: ReducedHouseholdLimit, staff: User, *, profile: Profile, reason: str
) -> None:
    """The residence is back to the plain limit (a new assessment): audited, household told."""
    if reduction.lifted_at is not None:
        raise LicenceError(None, "already_lifted", _("Esta redução já foi retirada."))
    if not reason.strip():
        raise LicenceError("lift_reason", "required", _("Explique por que a redução termina."))
    reduction.lifted_at = datetime.now(UTC)
    reduction.lifted_by_id = staff.id
    reduction.lift_reason = reason.strip()
    db.session.flush()
    audit.record("household.limit_restored", reduction, actor_id=staff.id)
    for person in _households(reduction.residence_key):
        if person.email:
            send_email(
                person.email,
                _("Limite de animais da sua residência restabelecido"),
                _(
                    "O limite de cães e gatos em %(address)s voltou a ser %(limit)d "
                    "(%(article)s). Motivo: %(reason)s",
                    address=reduction.address_line,
                    limit=profile.household.limit or 0,
                    article=profile.household.article,
                    reason=reduction.lift_reason,
                ),
            )


def report_file_rule(user: User, stored: StoredFile) -> bool:
    """The laudo is read by staff and by the owners of animals at the residence it concerns."""
    if stored.purpose != REPORT_PURPOSE or not user.is_authenticated:
        return False
    if user.is_staff:
        return True
    reduction = db.session.scalar(
        select(ReducedHouseholdLimit).where(ReducedHouseholdLimit.report_id == stored.id)
    )
    return reduction is not None and any(
        person.id == user.id for person in _households(reduction.residence_key)
    )


def reduction_todo(user: User) -> Iterator[TodoItem]:
    """The household's to-do: a residence above its reduced number must adapt (BJP 17 §1-2);
    one that fits still sees the new number for the month after it was set."""
    from portal.blueprints.animals.common import owner_residence_key
    from portal.blueprints.animals.household import household_count

    profile = current_profile()
    reduction = reduced_limit(profile, owner_residence_key(user))
    if reduction is None:
        return
    today = local_today(profile)
    count = household_count(reduction.residence_key, today, profile)
    article = profile.household.cite("agent_may_reduce")
    url = url_for("animals.my_animals", _anchor="residencia")
    if count > reduction.max_animals:
        yield TodoItem(
            "household_reduction",
            _(
                "Sua residência tem %(count)d cães e gatos que contam no limite, reduzido para "
                "%(n)d pelo laudo técnico de %(day)s (%(article)s): adeque o número no prazo da "
                "intimação do agente.",
                count=count,
                n=reduction.max_animals,
                day=reduction.report_on.strftime("%d/%m/%Y"),
                article=article,
            ),
            url,
            _("Ver o laudo"),
            order=25,
        )
    elif (today - reduction.created_at.date()).days <= RECENT_DAYS:
        yield TodoItem(
            "household_reduction",
            _(
                "O limite de cães e gatos da sua residência agora é %(n)d (laudo técnico de "
                "%(day)s, %(article)s).",
                n=reduction.max_animals,
                day=reduction.report_on.strftime("%d/%m/%Y"),
                article=article,
            ),
            url,
            _("Ver o laudo"),
            order=70,
        )
