"""What the CCZ does with a report: who may see the reporter, the state machine (triage,
assignment, merge, forwarding, closing), replies and the agent's inspection.

Who sees the reporter of a confidential report (:func:`may_see_reporter`): the coordinator, who
triages and may need to ask the reporter for details, and the agent assigned to the report, who may
need directions to the place. Nobody else: not admins (they run the system, not the case), not vets,
not other agents; never the reported person. Every view of the identity is audited."""

from __future__ import annotations

from datetime import UTC, date, datetime

from flask_babel import gettext as _
from flask_babel import lazy_gettext as _l
from sqlalchemy import select

from portal.blueprints.reports.common import (
    FEDERAL_CRIME,
    FINDINGS,
    MAX_PHOTOS,
    IllegalMove,
    PhotoUpload,
    ReportErrors,
    clean_text,
)
from portal.blueprints.reports.intake import store_photos
from portal.blueprints.reports.labels import STATE_LABELS
from portal.blueprints.reports.progress import next_step
from portal.extensions import db
from portal.models import (
    Inspection,
    InspectionOutcome,
    MaltreatmentReport,
    ReporterContact,
    ReportEvent,
    ReportState,
    User,
)
from portal.profiles.schema import Profile
from portal.services import audit
from portal.services.clock import current_profile, local_today
from portal.services.mail import send_email
from portal.urls import absolute_url

# ---------------------------------------------------------------------------------------------
# Who may see what
# ---------------------------------------------------------------------------------------------


def may_see_reporter(user: User, report: MaltreatmentReport) -> bool:
    """Coordinator, or the agent assigned to this report (see the module docstring)."""
    if not user.is_authenticated:
        return False
    if user.has_role("coordinator"):
        return True
    return bool(user.has_role("agent") and report.assigned_agent_id == user.id)


def reporter_for(user: User, report: MaltreatmentReport) -> ReporterContact | None:
    """The reporter's contact for an allowed viewer; the read is audited. None otherwise."""
    if report.contact is None or not may_see_reporter(user, report):
        return None
    audit.record("report.reporter_viewed", report, detail={"protocol": report.protocol})
    return report.contact


def police_letter_printed(report: MaltreatmentReport) -> None:
    """Staff printed the letter to the police about this report: audited."""
    audit.record("report.police_letter", report, detail={"protocol": report.protocol})


# ---------------------------------------------------------------------------------------------
# The state machine
# ---------------------------------------------------------------------------------------------

# (from, to) -> roles that may make the move. The assigned agent's moves are checked below too.
TRANSITIONS: dict[tuple[str, str], frozenset[str]] = {
    (ReportState.TRIAGE, ReportState.ASSIGNED): frozenset({"coordinator", "admin"}),
    (ReportState.TRIAGE, ReportState.MERGED): frozenset({"coordinator", "admin"}),
    (ReportState.TRIAGE, ReportState.CLOSED): frozenset({"coordinator", "admin"}),  # out of scope
    (ReportState.TRIAGE, ReportState.FORWARDED): frozenset({"coordinator", "admin"}),
    (ReportState.ASSIGNED, ReportState.ASSIGNED): frozenset({"coordinator", "admin"}),  # re-plan
    (ReportState.ASSIGNED, ReportState.MERGED): frozenset({"coordinator", "admin"}),
    (ReportState.ASSIGNED, ReportState.INSPECTED): frozenset({"agent", "coordinator"}),
    (ReportState.ASSIGNED, ReportState.CLOSED): frozenset({"agent", "coordinator"}),
    (ReportState.ASSIGNED, ReportState.FORWARDED): frozenset({"agent", "coordinator"}),
    (ReportState.INSPECTED, ReportState.CLOSED): frozenset({"coordinator", "admin"}),
    (ReportState.INSPECTED, ReportState.FORWARDED): frozenset({"coordinator", "admin"}),
}
# Moves an agent makes only on a report assigned to them (the inspection record).
_AGENT_OWN = {ReportState.INSPECTED, ReportState.CLOSED, ReportState.FORWARDED}


def _not_allowed() -> str:
    return _("Esta mudança não é permitida para esta denúncia ou para o seu perfil.")


def allowed(report: MaltreatmentReport, to_state: str, actor: User) -> bool:
    roles = TRANSITIONS.get((report.state, to_state))
    if not roles or not actor.has_role(*roles):
        return False
    if (
        report.state == ReportState.ASSIGNED
        and to_state in _AGENT_OWN
        and not actor.has_role("coordinator")
        and report.assigned_agent_id != actor.id
    ):
        return False
    return True


def move(
    report: MaltreatmentReport,
    to_state: str,
    actor: User,
    *,
    public_text: str | None = None,
    note: str | None = None,
) -> None:
    """Change the state, write the history, audit it and tell the reporter. Raises IllegalMove."""
    if not allowed(report, to_state, actor):
        raise IllegalMove(_not_allowed())
    from_state = report.state
    report.state = to_state
    report.updated_at = datetime.now(UTC)
    if from_state == ReportState.TRIAGE:
        report.triaged_at = datetime.now(UTC)
    public = from_state != to_state
    report.events.append(
        ReportEvent(
            kind="state",
            from_state=from_state,
            to_state=to_state,
            public=public,
            text=clean_text(public_text),
            actor_id=actor.id,
        )
    )
    if note:
        report.events.append(ReportEvent(kind="note", public=False, text=note, actor_id=actor.id))
    audit.record(
        "report.state",
        report,
        detail={"protocol": report.protocol, "from": from_state, "to": to_state},
    )
    db.session.flush()
    if public:
        notify_reporter(report, public_text)


def notify_reporter(
    report: MaltreatmentReport, public_text: str | None = None, *, state_changed: bool = True
) -> None:
    """E-mail the reporter (confidential, with e-mail) of this report about a public change: the
    new state and the CCZ's public reply only; never an agent's name or an internal note.

    The reporters of reports the staff merged into this one hear of a state change with the state
    only: the reply was written to this report's reporter, not to them (issue 26). They hear
    nothing of a reply that changes no state."""
    joined = (
        db.session.scalars(
            select(MaltreatmentReport).where(MaltreatmentReport.merged_into_id == report.id)
        ).all()
        if state_changed
        else []
    )
    state = STATE_LABELS[report.state]
    for item in [report, *joined]:
        contact = item.contact
        if contact is None or not contact.email:
            continue
        body = _(
            "A situação da sua denúncia %(protocol)s mudou: %(state)s.",
            protocol=item.protocol,
            state=state,
        )
        if public_text and item is report:
            body += "\n\n" + _("Resposta do CCZ: %(text)s", text=public_text)
        body += "\n\n" + _step_line(item)
        body += "\n\n" + _(
            "Acompanhe com o seu código em %(url)s", url=absolute_url("reports.track")
        )
        send_email(
            contact.email, _("Denúncia %(p)s: %(state)s", p=item.protocol, state=state), body
        )


def _step_line(report: MaltreatmentReport) -> str:
    """The next step as one sentence of an e-mail (issue 25: what, who and by when)."""
    profile = current_profile()
    step = next_step(report, profile, local_today(profile))
    line = _("Próximo passo: %(what)s", what=step.what)
    if step.who and step.by:
        line += " " + _(
            "Quem faz: %(who)s, até %(day)s.", who=step.who, day=step.by.strftime("%d/%m/%Y")
        )
    return line


def triage_valid(
    report: MaltreatmentReport, actor: User, agent: User, inspection_on: date, today: date
) -> None:
    """Valid report: assign an agent and schedule the inspection (also re-plans an assigned one).

    Raises ReportErrors or IllegalMove."""
    if not allowed(report, ReportState.ASSIGNED, actor):
        raise IllegalMove(_not_allowed())
    _check_assignment(agent, inspection_on, today)
    report.assigned_agent_id = agent.id
    report.inspection_on = inspection_on
    move(
        report,
        ReportState.ASSIGNED,
        actor,
        # No text: the state's own label already says "Vistoria programada" (issue 25: the history
        # read "Vistoria programada: Vistoria programada.").
        public_text=None,
        note=_(
            "Atribuída a %(name)s para %(day)s.",
            name=agent.full_name,
            day=inspection_on.strftime("%d/%m/%Y"),
        ),
    )
    if agent.email:  # no reporter in it: e-mails can be forwarded
        send_email(
            agent.email,
            _("Vistoria de maus-tratos %(p)s", p=report.protocol),
            _(
                "A denúncia %(p)s foi atribuída a você, com vistoria em %(day)s.\n%(url)s",
                p=report.protocol,
                day=inspection_on.strftime("%d/%m/%Y"),
                url=absolute_url("reports.staff_detail", protocol=report.protocol),
            ),
        )


def _check_assignment(agent: User, inspection_on: date | None, today: date) -> None:
    errors = []
    if not agent.has_role("agent") or not agent.active:
        errors.append(("agent_id", "agent", _("Escolha um agente da lista.")))
    if inspection_on is None:
        errors.append(("inspection_on", "required", _("Informe a data da vistoria.")))
    elif inspection_on < today:
        errors.append(("inspection_on", "past", _("A data da vistoria não pode estar no passado.")))
    if errors:
        raise ReportErrors(errors)


def triage_out_of_scope(report: MaltreatmentReport, actor: User, reason: str) -> None:
    reason = (reason or "").strip()
    if len(reason) < 10:
        raise ReportErrors(
            [
                (
                    "reason",
                    "required",
                    _("Explique ao denunciante, em uma frase, por que não é caso do CCZ."),
                )
            ]
        )
    report.public_reason = reason
    move(report, ReportState.CLOSED, actor, public_text=reason)


def merge(report: MaltreatmentReport, target: MaltreatmentReport | None, actor: User) -> None:
    """Staff merge a duplicate into another open protocol. Raises ReportErrors/IllegalMove."""
    if target is None or target.id == report.id:
        raise ReportErrors([("target", "target", _("Informe o protocolo de outra denúncia."))])
    if target.merged_into_id is not None or not target.is_open:
        raise ReportErrors(
            [("target", "closed", _("A denúncia %(p)s não está aberta.", p=target.protocol))]
        )
    report.merged_into = target
    move(
        report,
        ReportState.MERGED,
        actor,
        # No protocol, no word of the other report: its reporter and content stay theirs.
        public_text=_("O CCZ já acompanha este caso por outra denúncia e segue as duas juntas."),
    )
    for photo in list(report.photos):
        photo.report = target
    for other in db.session.scalars(
        select(MaltreatmentReport).where(MaltreatmentReport.merged_into_id == report.id)
    ):
        other.merged_into = target
    target.events.append(
        ReportEvent(
            kind="note",
            public=False,
            actor_id=actor.id,
            text=_("Denúncia %(p)s juntada a esta: %(d)s", p=report.protocol, d=report.description),
        )
    )
    db.session.flush()


def forward_to_police(report: MaltreatmentReport, actor: User, note: str | None = None) -> None:
    move(
        report,
        ReportState.FORWARDED,
        actor,
        public_text=_(
            "Encaminhada à polícia, por se tratar de possível crime (%(law)s).", law=FEDERAL_CRIME
        ),
        note=note,
    )


def close_after_handover(report: MaltreatmentReport, actor: User, public_text: str) -> None:
    """Close a report waiting for a notice or capture once that was handled elsewhere."""
    move(report, ReportState.CLOSED, actor, public_text=clean_text(public_text))


def add_reply(report: MaltreatmentReport, actor: User, text: str, public: bool) -> None:
    text = (text or "").strip()
    if not text:
        raise ReportErrors([("text", "required", _("Escreva a mensagem."))])
    report.events.append(
        ReportEvent(kind="reply" if public else "note", public=public, text=text, actor_id=actor.id)
    )
    audit.record(
        "report.reply" if public else "report.note", report, detail={"protocol": report.protocol}
    )
    db.session.flush()
    if public:
        notify_reporter(report, text, state_changed=False)


# ---------------------------------------------------------------------------------------------
# Inspection
# ---------------------------------------------------------------------------------------------

_OUTCOME_STATE = {
    InspectionOutcome.NOTHING_FOUND: ReportState.CLOSED,
    InspectionOutcome.ORIENTATION: ReportState.CLOSED,
    # The notice (enforcement) and the capture (impound) are later issues: until they exist the
    # protocol stays open in the queue "aguardando notificação/captura".
    InspectionOutcome.NOTICE_NEEDED: ReportState.INSPECTED,
    InspectionOutcome.CAPTURE_NEEDED: ReportState.INSPECTED,
    InspectionOutcome.FORWARDED_POLICE: ReportState.FORWARDED,
}

_OUTCOME_PUBLIC = {
    InspectionOutcome.NOTHING_FOUND: _l("Vistoria feita: não foram constatados maus-tratos."),
    InspectionOutcome.ORIENTATION: _l("Vistoria feita: o responsável recebeu orientação."),
    InspectionOutcome.NOTICE_NEEDED: _l(
        "Vistoria feita: o CCZ tomará as providências previstas em lei."
    ),
    InspectionOutcome.CAPTURE_NEEDED: _l(
        "Vistoria feita: o CCZ tomará as providências previstas em lei."
    ),
    InspectionOutcome.FORWARDED_POLICE: _l(
        "Vistoria feita: encaminhada à polícia, por se tratar de possível crime."
    ),
}


def outcome_public_text(outcome: str) -> str:
    return str(_OUTCOME_PUBLIC[InspectionOutcome(outcome)])


def record_inspection(
    profile: Profile,
    report: MaltreatmentReport,
    agent: User,
    *,
    visited_on: date,
    findings: dict[str, str],
    notes: str | None,
    people_present: str | None,
    outcome: str,
    photos: list[PhotoUpload],
    today: date,
) -> Inspection:
    """The agent's visit record; moves the report by its outcome.

    Raises ReportErrors or IllegalMove."""
    errors: list[tuple[str, str, str]] = []
    if outcome not in {o.value for o in InspectionOutcome}:
        errors.append(("outcome", "required", _("Escolha o resultado da vistoria.")))
    if visited_on > today:
        errors.append(("visited_on", "future", _("A data não pode estar no futuro.")))
    codes = [item.code for item in profile.reports.checklist]
    clean = {code: findings.get(code) or "not_checked" for code in codes}
    if any(value not in FINDINGS for value in clean.values()):
        errors.append(("findings", "value", _("Resposta inválida na lista de verificação.")))
    if len(photos) > MAX_PHOTOS:
        errors.append(("photos", "too_many", _("Envie no máximo %(n)d fotos.", n=MAX_PHOTOS)))
    if errors:
        raise ReportErrors(errors)
    to_state = _OUTCOME_STATE[InspectionOutcome(outcome)]
    if not allowed(report, to_state, agent):
        raise IllegalMove(_not_allowed())
    inspection = Inspection(
        report=report,
        agent_id=agent.id,
        visited_on=visited_on,
        findings=clean,
        notes=clean_text(notes),
        people_present=clean_text(people_present),
        outcome=outcome,
    )
    db.session.add(inspection)
    store_photos(report, photos, "inspection")
    report.outcome = outcome
    move(report, to_state, agent, public_text=outcome_public_text(outcome))
    return inspection
