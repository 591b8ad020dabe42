"""What happens next to a report, as its reporter reads it: the next step, who takes it and by
when (issue 25: the triage and inspection deadlines were shown on staff pages only).

The deadlines are the profile's ``reports.triage_days`` (calendar days from the report to the
triage decision) and ``reports.inspection_days`` (from the triage to the inspection). The laws set
none: they are the CCZ's own service targets (cited in the profile as the law's silence), and the
page says so. The reporter reads the deadline, never the date an agent was given: the reported
person must not learn the day of the visit.

A report the staff merged into another follows that case's state, with its deadlines counted from
this report's own dates when they are later: the page then promises no earlier than what the CCZ
owes this reporter, and says nothing about the other report's dates.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date, datetime, timedelta

from flask_babel import gettext as _

from portal.models import MaltreatmentReport, ReportState
from portal.profiles.schema import Profile, is_silent
from portal.services.clock import local_date


@dataclass(frozen=True)
class NextStep:
    """``what`` happens next, ``who`` does it (None: nobody, the report is over) and ``by`` when
    (None: no deadline); ``late`` once the deadline has passed without the step; ``article`` the
    provision setting the deadline (None: the law is silent, the deadline is the CCZ's own)."""

    what: str
    who: str | None = None
    by: date | None = None
    late: bool = False
    article: str | None = None


def merged_at(report: MaltreatmentReport) -> datetime | None:
    """When the staff merged ``report`` into another (None: never)."""
    moves = [e.at for e in report.events if e.kind == "state" and e.to_state == ReportState.MERGED]
    return max(moves) if moves else None


def _deadline(start: date, days: int, today: date) -> tuple[date, bool]:
    by = start + timedelta(days=days)
    return by, today > by


def _article(profile: Profile, field: str) -> str | None:
    citation = profile.reports.cite(field)
    return None if is_silent(citation) else citation


def next_step(report: MaltreatmentReport, profile: Profile, today: date) -> NextStep:
    """The next step of ``report`` (or of the case the staff merged it into) on ``today``."""
    case = report.merged_into if report.merged_into is not None else report
    rules = profile.reports
    if case.state == ReportState.TRIAGE:
        received = max(local_date(case.created_at), local_date(report.created_at))
        by, late = _deadline(received, rules.triage_days, today)
        return NextStep(
            _("A coordenação do CCZ analisa a denúncia e decide se cabe vistoria."),
            _("Coordenação do CCZ"),
            by,
            late,
            _article(profile, "triage_days"),
        )
    if case.state == ReportState.ASSIGNED:
        starts = [local_date(case.triaged_at or case.created_at)]
        merged = merged_at(report) if case is not report else None
        if merged is not None:
            starts.append(local_date(merged))
        by, late = _deadline(max(starts), rules.inspection_days, today)
        return NextStep(
            _("Um agente do CCZ vai ao local fazer a vistoria."),
            _("Agente do CCZ"),
            by,
            late,
            _article(profile, "inspection_days"),
        )
    if case.state == ReportState.INSPECTED:
        return NextStep(
            _(
                "A vistoria foi feita. O CCZ toma as providências previstas em lei com o "
                "responsável pelo animal (notificação ou recolhimento); quando terminar, a "
                "denúncia é encerrada e você vê o resultado aqui."
            ),
            _("Equipe do CCZ"),
        )
    if case.state == ReportState.FORWARDED:
        return NextStep(
            _(
                "A polícia cuida do caso a partir de agora. Se tiver novas informações, "
                "procure a delegacia de polícia; em perigo imediato, ligue 190."
            ),
            _("Polícia"),
        )
    return NextStep(_("A denúncia foi encerrada: não há próximo passo."))
