"""The procedure's common ground: its error, the documents that carry a petition, and every
term through the one date engine with the profile's ``notices`` rule (GRU 70, 95 §ú, 109, 114)."""

from __future__ import annotations

from datetime import UTC, date, datetime, time, timedelta

from flask_babel import gettext as _

from portal.domain import DomainError
from portal.models import (
    EnforcementDocument,
    EnforcementKind,
    EnforcementStatus,
    PetitionKind,
    ServiceMethod,
)
from portal.profiles.schema import Profile
from portal.services.clock import tz
from portal.services.dates import deadline
from portal.services.municipal_holidays import municipal_holidays


class EnforcementError(DomainError):
    """A rule of the procedure refuses the action; ``field`` names the input at fault."""


# Documents whose fine, once final, is charged (GRU 98 V; the infraction only proposes it).
FINE_KINDS = {EnforcementKind.PENALTY}
# Documents the addressee may petition against, and with what (GRU 96 V, 98 VI, 101).
PETITION_FOR = {
    EnforcementKind.INFRACTION: PetitionKind.DEFENCE,
    EnforcementKind.PENALTY: PetitionKind.APPEAL,
    EnforcementKind.APPREHENSION: PetitionKind.APPEAL,
}
OPEN_STATUSES = (EnforcementStatus.OPEN, EnforcementStatus.UNDER_REVIEW, EnforcementStatus.UPHELD)


# ---------------------------------------------------------------------------------------------
# Deadlines: the one date engine with the profile's rule
# ---------------------------------------------------------------------------------------------


def term_end(profile: Profile, start: date, days: int) -> date:
    """The last day of a term of ``days`` from ``start`` (the day of knowledge).

    GRU 114: the start day excluded, the last day included; GRU 114 §ú: moved to the next
    business day (national, state and municipal holidays) when the profile says so.
    """
    rule = profile.notices
    return deadline(
        start,
        days,
        rule.counting,
        state=profile.state,
        municipal_holidays=municipal_holidays([start, start + timedelta(days=days)]),
        moves_to_business_day=rule.moves_to_business_day,
    )


def knowledge_date(profile: Profile, method: str, service_on: date) -> date:
    """The day the addressee is deemed to know the document (it starts every term).

    In person (signed or refused) and by post (the AR's date): that day. By edital: the
    publication plus the profile's days (GRU 95 §ú, 96 §1, 109 III: "após 5 dias da publicação").
    """
    if method == ServiceMethod.EDITAL and profile.notices.edital_days:
        return deadline(
            service_on,
            profile.notices.edital_days,
            "calendar",
            state=profile.state,
            moves_to_business_day=False,
        )
    return service_on


def _end_of_day(day: date) -> datetime:
    return datetime.combine(day, time(23, 59, 59), tzinfo=tz()).astimezone(UTC)


def comply_choices(profile: Profile) -> list[tuple[str, str]]:
    """The terms an agent may give in a preliminary notice, from the profile."""
    rule = profile.notices
    choices: list[tuple[str, str]] = []
    for days in rule.preliminary_days:  # BJP 30 I: imediatamente, 7, 15, 30; VV 23 I: 7
        choices.append((f"d{days}", _("Imediatamente") if days == 0 else _("%(n)d dias", n=days)))
    if rule.preliminary_min_hours:  # GRU 70 §3: from one hour to 60 days
        for hours in (rule.preliminary_min_hours, 24, 48):
            choices.append((f"h{hours}", _("%(n)d hora(s)", n=hours)))
        for days in (5, 10, 15, 30, rule.preliminary_max_days or 60):
            choices.append((f"d{days}", _("%(n)d dias", n=days)))
    return list(dict.fromkeys(choices))


def _parse_term(profile: Profile, term: str | None) -> tuple[int | None, int | None]:
    allowed = {code for code, _label in comply_choices(profile)}
    if not term or term not in allowed:
        raise EnforcementError(
            "comply_term",
            "invalid",
            _("Escolha um prazo previsto em %(article)s.", article=profile.notices.article),
        )
    value = int(term[1:])
    return (value, None) if term[0] == "d" else (None, value)


def _set_comply_due(profile: Profile, doc: EnforcementDocument, served_at: datetime) -> None:
    if doc.comply_hours is not None:
        # GRU 70 §4: hours run minute by minute from the service, no business-day rule
        doc.comply_due_at = served_at + timedelta(hours=doc.comply_hours)
    elif doc.comply_days == 0:
        doc.comply_due_at = served_at  # BJP 30 I: "imediatamente"
    elif doc.comply_days is not None and doc.knowledge_on is not None:
        days = doc.comply_days + (doc.comply_extended_days or 0)
        doc.comply_due_at = _end_of_day(term_end(profile, doc.knowledge_on, days))
