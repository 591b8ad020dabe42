"""Writing the audit trail, and reading it back in words a person uses (labels, object names)."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from datetime import date, datetime, time, timedelta
from typing import Any
from zoneinfo import ZoneInfo

from flask_babel import gettext as _
from flask_babel import lazy_gettext as _l
from flask_login import current_user
from sqlalchemy import func, or_, select

from portal.extensions import db
from portal.models import AuditEvent


def record(
    action: str,
    subject: Any = None,
    *,
    detail: dict[str, Any] | None = None,
    actor_id: int | None = None,
) -> AuditEvent:
    """Append one audit event; the actor defaults to the signed-in user.

    ``subject`` is a model instance (its class name and id are kept) or None. Never put a CPF in
    ``detail``: the log is read by more people than the record.
    """
    if actor_id is None and current_user and current_user.is_authenticated:
        actor_id = current_user.id
    event = AuditEvent(
        action=action,
        actor_id=actor_id,
        subject_type=type(subject).__name__ if subject is not None else None,
        subject_id=str(subject.id) if subject is not None and hasattr(subject, "id") else None,
        detail=detail,
    )
    db.session.add(event)
    return event


# -- reading the trail --------------------------------------------------------------------------
# Every action written with ``record`` has its Portuguese label here (a test scans the code for
# ``audit.record("...")`` and fails on an action without one).
ACTION_LABELS: dict[str, Any] = {
    "account.exported": _l("Baixou os próprios dados (LGPD)"),
    "account.updated": _l("Alterou os dados da conta"),
    "account.password_changed": _l("Trocou a senha"),
    "account.suggestion_accepted": _l("Aceitou correção de contato sugerida"),
    "account.suggestion_dismissed": _l("Descartou correção de contato sugerida"),
    "account.activated": _l("Ativou a conta pelo link enviado por e-mail"),
    "account.unconfirmed_purged": _l("Excluiu cadastro nunca confirmado"),
    "contact_suggestion.viewed": _l("Consultou sugestão de contato de estabelecimento"),
    "contact_suggestion.accepted": _l("Aplicou sugestão de contato de estabelecimento"),
    "contact_suggestion.rejected": _l("Recusou sugestão de contato de estabelecimento"),
    "admin.outbox_viewed": _l("Consultou os e-mails do portal"),
    "admin.roles_changed": _l("Alterou papéis de usuário"),
    "admin.second_factor_reset": _l("Redefiniu a verificação em duas etapas de usuário"),
    "auth.second_factor_enrolled": _l("Ativou a verificação em duas etapas"),
    "auth.second_factor_ok": _l("Entrou com a verificação em duas etapas"),
    "auth.second_factor_locked": _l("Código de verificação bloqueado após muitos erros"),
    "admin.user_search": _l("Buscou usuários"),
    "admin.user_viewed": _l("Consultou um usuário"),
    "adoption.application_approved": _l("Aprovou pedido de adoção"),
    "adoption.application_refused": _l("Recusou pedido de adoção"),
    "adoption.application_viewed": _l("Consultou pedido de adoção"),
    "adoption.bar_recorded": _l("Registrou impedimento de adoção"),
    "adoption.bar_revoked": _l("Revogou impedimento de adoção"),
    "adoption.bars_viewed": _l("Consultou impedimentos de adoção"),
    "adoption.completed": _l("Concluiu a entrega de animal adotado"),
    "adoption.document_attached": _l("Anexou documento a pedido de adoção"),
    "adoption.document_reviewed": _l("Analisou documento de adotante"),
    "adoption.listing_state": _l("Mudou a situação de anúncio de adoção"),
    "adoption.organization_api_client": _l("Ligou ONG a um acesso à API"),
    "adoption.organization_approved": _l("Aprovou ONG"),
    "adoption.organization_member_added": _l("Incluiu membro em ONG"),
    "adoption.organization_refused": _l("Recusou ONG"),
    "adoption.organization_requested": _l("Pediu cadastro de ONG"),
    "animal.approved": _l("Aprovou registro de animal (RGA)"),
    "animal.card_printed": _l("Imprimiu carteira do RGA"),
    "animal.closed": _l("Deu baixa em RGA"),
    "animal.copies_listed": _l("Consultou pedidos de segunda via"),
    "animal.copy_issued": _l("Emitiu segunda via"),
    "animal.pending_listed": _l("Consultou registros pendentes"),
    "animal.proof_accepted": _l("Aceitou comprovante de vacinação"),
    "animal.proof_refused": _l("Recusou comprovante de vacinação"),
    "animal.registered_by_api": _l("Registrou animal pela API"),
    "animal.searched": _l("Buscou animais"),
    "animal.sterilised": _l("Registrou no RGA a castração feita no programa"),
    "animal.vaccinated": _l("Registrou vacinação"),
    "animal.viewed": _l("Consultou registro de animal"),
    "establishment.viewed": _l("Consultou cadastro de estabelecimento"),
    "enforcement.issued": _l("Emitiu notificação ou auto"),
    "enforcement.served": _l("Registrou a ciência de notificação ou auto"),
    "enforcement.extended": _l("Prorrogou o prazo de notificação preliminar"),
    "enforcement.return_visit": _l("Registrou o retorno de notificação preliminar"),
    "enforcement.consequence": _l(
        "Registrou consequência na pessoa (perda de posse, termo, apreensão)"
    ),
    "enforcement.petition_filed": _l("Apresentou defesa ou recurso"),
    "enforcement.petition_decided": _l("Decidiu defesa ou recurso"),
    "enforcement.grant_reviewed": _l("Deu vista ao deferimento de defesa ou recurso"),
    "enforcement.collection": _l("Encaminhou multa vencida para cobrança"),
    "enforcement.collection_exported": _l("Exportou as multas para a dívida ativa (CSV)"),
    "enforcement.viewed": _l("Consultou notificação ou auto"),
    "enforcement.code_opened": _l("Abriu documento com o código de acesso"),
    "enforcement.representation_decided": _l("Aceitou ou recusou a procuração de um representante"),
    "establishment.requested": _l("Pediu cadastro de estabelecimento"),
    "establishment.data_changed": _l("Comunicou alteração de dados do estabelecimento"),
    "establishment.inspected": _l("Registrou vistoria de estabelecimento"),
    "establishment.approved": _l("Aprovou cadastro de estabelecimento"),
    "establishment.refused": _l("Recusou cadastro de estabelecimento"),
    "establishment.renewal_requested": _l("Pediu renovação de cadastro de estabelecimento"),
    "establishment.renewed": _l("Renovou cadastro de estabelecimento"),
    "establishment.accredited": _l("Credenciou estabelecimento para registrar animais"),
    "establishment.accreditation_revoked": _l("Suspendeu credenciamento de estabelecimento"),
    "establishment.closed": _l("Deu baixa em cadastro de estabelecimento"),
    "holiday.created": _l("Cadastrou feriado municipal"),
    "holiday.updated": _l("Alterou feriado municipal"),
    "holiday.deleted": _l("Excluiu feriado municipal"),
    "licence.approved": _l("Aprovou licença para mais animais"),
    "licence.assigned": _l("Designou agente para pedido de licença"),
    "licence.cancelled": _l("Cancelou licença para mais animais"),
    "licence.household_viewed": _l("Consultou residência acima do limite de animais"),
    "licence.info_answered": _l("Respondeu pedido de informações da licença"),
    "licence.info_requested": _l("Pediu mais informações sobre pedido de licença"),
    "licence.inspected": _l("Registrou vistoria de pedido de licença"),
    "licence.inspection_scheduled": _l("Agendou vistoria de pedido de licença"),
    "licence.refused": _l("Recusou pedido de licença para mais animais"),
    "licence.renewal_requested": _l("Pediu renovação de licença para mais animais"),
    "licence.requested": _l("Pediu licença para mais animais"),
    "licence.viewed": _l("Consultou pedido de licença para mais animais"),
    "payment.cancelled": _l("Cancelou cobrança"),
    "payment.checkout_started": _l("Iniciou pagamento on-line"),
    "payment.counter_paid": _l("Deu baixa de guia no balcão"),
    "payment.exemption_accepted": _l("Aceitou pedido de isenção"),
    "payment.exemption_refused": _l("Recusou pedido de isenção"),
    "payment.exemption_requested": _l("Pediu isenção de taxa"),
    "payment.exemption_viewed": _l("Consultou pedido de isenção"),
    "payment.flag_resolved": _l("Resolveu pendência de conciliação"),
    "payment.flagged": _l("Marcou cobrança para conferência"),
    "payment.guia_printed": _l("Imprimiu guia"),
    "payment.list_viewed": _l("Consultou lista de cobranças"),
    "payment.paid_online": _l("Pagamento on-line confirmado"),
    "payment.receipt_viewed": _l("Consultou recibo"),
    "payment.refunded": _l("Estornou pagamento"),
    "payment.viewed": _l("Consultou cobrança"),
    "impound.alert_created": _l("Cadastrou aviso de animal perdido"),
    "impound.alert_matched": _l("Avisou dono de animal perdido sobre captura parecida"),
    "impound.captured": _l("Registrou captura de animal"),
    "impound.cause_ended": _l("Confirmou que cessaram as causas da captura"),
    "impound.certificate_decided": _l("Registrou exame de certidão de captura"),
    "impound.certificate_requested": _l("Pediu certidão negativa de captura"),
    "impound.definitive_decided": _l("Registrou decisão final de apreensão definitiva"),
    "impound.definitive_opened": _l("Abriu apreensão definitiva de animal"),
    "impound.destined": _l("Decidiu a destinação de animal recolhido"),
    "impound.euthanasia_proposed": _l("Registrou laudo que propõe eutanásia e avisou as ONGs"),
    "impound.laudo_supervised": _l("Supervisionou laudo de eutanásia (veterinário coordenador)"),
    "impound.laudo_withdrawn": _l("Retirou laudo que propunha eutanásia"),
    "impound.ngo_claimed": _l("ONG resgatou animal com laudo de eutanásia"),
    "impound.owner_notified": _l("Avisou o proprietário sobre a captura"),
    "impound.rabies_checked": _l("Registrou vacina antirrábica no resgate"),
    "impound.reclaim_started": _l("Iniciou resgate de animal recolhido"),
    "impound.registered_on_reclaim": _l("Registrou animal (RGA) no resgate"),
    "impound.released": _l("Devolveu animal recolhido ao proprietário"),
    "impound.viewed": _l("Consultou captura de animal"),
    "price.set": _l("Alterou preço público"),
    "reminders.preferences_changed": _l("Alterou preferências de lembretes"),
    "report.note": _l("Anotou em denúncia"),
    "report.police_letter": _l("Emitiu ofício à polícia sobre denúncia"),
    "report.reply": _l("Respondeu a quem denunciou"),
    "report.reporter_viewed": _l("Consultou a identidade de quem denunciou"),
    "report.state": _l("Mudou a situação de denúncia"),
    "sterilisation.cancelled": _l("Cancelou castração agendada ou pedido na fila"),
    "sterilisation.day_viewed": _l("Consultou a lista de um dia de castrações"),
    "sterilisation.from_waitlist": _l("Vaga de castração dada ao próximo da fila"),
    "sterilisation.outcome": _l("Registrou o resultado de uma castração"),
    "sterilisation.requested": _l("Pediu castração (agendada ou na fila)"),
    "sterilisation.site_active": _l("Ativou ou desativou local de castração"),
    "sterilisation.site_saved": _l("Cadastrou ou alterou local de castração"),
    "sterilisation.slot_capacity": _l("Alterou as vagas de um dia de castrações"),
    "sterilisation.slot_opened": _l("Abriu um dia de castrações"),
    "unit_value.created": _l("Cadastrou valor de unidade fiscal"),
    "workspace.bulk_action": _l("Ação em lote numa fila de trabalho"),
    "workspace.queue_exported": _l("Exportou fila de trabalho"),
    "workspace.queue_listed": _l("Consultou fila de trabalho"),
    "workspace.searched": _l("Buscou na área de trabalho"),
}

# What each kind of audited object is called, for the filter and for objects without a namer.
SUBJECT_TYPE_LABELS: dict[str, Any] = {
    "Animal": _l("Animal (RGA)"),
    "PaymentItem": _l("Cobrança (guia)"),
    "AdoptionApplication": _l("Pedido de adoção"),
    "Listing": _l("Anúncio de adoção"),
    "Organization": _l("ONG"),
    "User": _l("Pessoa"),
    "PersonBar": _l("Impedimento de adoção"),
    "ApplicantDocument": _l("Documento de adotante"),
    "ExemptionRequest": _l("Pedido de isenção"),
    "MunicipalHoliday": _l("Feriado municipal"),
    "UnitValue": _l("Valor de unidade fiscal"),
    "PriceOverride": _l("Preço público"),
    "MaltreatmentReport": _l("Denúncia de maus-tratos"),
    "Establishment": _l("Estabelecimento"),
    "ExcessLicence": _l("Licença para mais animais"),
    "EnforcementDocument": _l("Notificação ou auto"),
    "Capture": _l("Captura de animal"),
    "CaptureCertificate": _l("Certidão de captura"),
    "LostAnimalAlert": _l("Aviso de animal perdido"),
    "ContactSuggestion": _l("Sugestão de contato de estabelecimento"),
    "SterilisationBooking": _l("Pedido de castração"),
    "SterilisationSite": _l("Local de castração"),
    "SterilisationSlot": _l("Dia de castrações"),
}


def action_label(action: str) -> str:
    """The Portuguese name of an audited action (the code itself for one not labelled yet)."""
    label = ACTION_LABELS.get(action)
    return str(label) if label is not None else action


def subject_type_label(subject_type: str | None) -> str:
    label = SUBJECT_TYPE_LABELS.get(subject_type or "")
    return str(label) if label is not None else (subject_type or "")


def _namers() -> dict[str, tuple[type, Callable[[Any], str]]]:
    """How a person names each kind of object: the RGA number, the guia reference, the
    animal's name… never a CPF (the trail is read by more people than the record)."""
    from portal.models import (
        AdoptionApplication,
        Animal,
        ApplicantDocument,
        Listing,
        MunicipalHoliday,
        Organization,
        PaymentItem,
        PersonBar,
        User,
    )

    return {
        "Animal": (Animal, lambda a: _("RGA %(rga)s (%(name)s)", rga=a.rga, name=a.name)),
        "PaymentItem": (
            PaymentItem,
            lambda p: _(
                "Guia %(reference)s – %(description)s",
                reference=p.formatted_reference,
                description=p.description,
            ),
        ),
        "AdoptionApplication": (
            AdoptionApplication,
            lambda a: _("Pedido de adoção nº %(id)d (%(animal)s)", id=a.id, animal=a.listing.name),
        ),
        "Listing": (Listing, lambda item: _("Anúncio de %(name)s", name=item.name)),
        "Organization": (Organization, lambda o: _("ONG %(name)s", name=o.display_name)),
        "User": (User, lambda u: u.full_name),
        **_report_namer(),
        "PersonBar": (PersonBar, lambda b: _("Impedimento de %(name)s", name=b.person_name or "—")),
        "ApplicantDocument": (
            ApplicantDocument,
            lambda d: _("Documento de %(name)s", name=d.person.full_name if d.person else "—"),
        ),
        "MunicipalHoliday": (
            MunicipalHoliday,
            lambda h: _(
                "Feriado de %(day)s (%(name)s)", day=h.day.strftime("%d/%m/%Y"), name=h.name
            ),
        ),
    }


def _report_namer() -> dict[str, tuple[type, Callable[[Any], str]]]:
    """Reports are named by protocol, once the reports domain is installed."""
    try:
        from portal.models.report import MaltreatmentReport
    except ImportError:
        return {}
    return {
        "MaltreatmentReport": (
            MaltreatmentReport,
            lambda r: _("Denúncia protocolo %(protocol)s", protocol=r.protocol),
        )
    }


def subject_names(events: Iterable[AuditEvent]) -> dict[tuple[str, str], str]:
    """``{(subject_type, subject_id): name}`` for a page of events, one query per kind."""
    wanted: dict[str, set[int]] = {}
    for event in events:
        if event.subject_type and event.subject_id and event.subject_id.isdigit():
            wanted.setdefault(event.subject_type, set()).add(int(event.subject_id))
    namers = _namers()
    names: dict[tuple[str, str], str] = {}
    for kind, ids in wanted.items():
        if kind not in namers:
            continue
        model, namer = namers[kind]
        rows: Iterable[Any] = db.session.scalars(select(model).where(model.id.in_(ids)))  # type: ignore[attr-defined]
        for obj in rows:
            names[(kind, str(obj.id))] = namer(obj)
    return names


def subject_name(event: AuditEvent, names: Mapping[tuple[str, str], str]) -> str:
    """The object of an event as a person would name it; the kind and number when it is gone."""
    if not event.subject_type:
        return ""
    known = names.get((event.subject_type, event.subject_id or ""))
    if known:
        return known
    return _(
        "%(kind)s nº %(id)s",
        kind=subject_type_label(event.subject_type),
        id=event.subject_id or "—",
    )


def find_subject(text: str) -> tuple[str, str] | None:
    """The object a staff member typed in the audit filter: an RGA number, a report protocol or a
    guia reference."""
    from portal.blueprints.animals.rga import InvalidRgaNumber, normalise_rga
    from portal.models import Animal, PaymentItem

    text = (text or "").strip()
    try:
        rga = normalise_rga(text)
    except InvalidRgaNumber:
        rga = None
    if rga:
        animal_id = db.session.scalar(select(Animal.id).where(Animal.rga == rga))
        return ("Animal", str(animal_id)) if animal_id else None
    try:
        from portal.models.report import MaltreatmentReport
    except ImportError:  # the reports domain is not installed
        MaltreatmentReport = None  # type: ignore[assignment,misc]  # noqa: N806
    if MaltreatmentReport is not None:
        report_id = db.session.scalar(
            select(MaltreatmentReport.id).where(MaltreatmentReport.protocol == text.upper())
        )
        if report_id:
            return ("MaltreatmentReport", str(report_id))
    reference = "".join(ch for ch in text if ch.isalnum()).upper()
    if reference:
        item_id = db.session.scalar(
            select(PaymentItem.id).where(PaymentItem.reference == reference)
        )
        if item_id:
            return ("PaymentItem", str(item_id))
    return None


@dataclass(frozen=True)
class AuditQuery:
    """The audit log's filters: who (name or e-mail), what action, which object, which days."""

    who: str | None = None
    action: str | None = None
    subject_type: str | None = None
    subject: tuple[str, str] | None = None  # (type, id) found from what was typed
    since: date | None = None  # local calendar days, inclusive
    until: date | None = None


def find_events(
    query: AuditQuery, timezone: str, *, page: int = 1, per_page: int = 100
) -> list[AuditEvent]:
    """One page of events, most recent first, matching every filter given."""
    from portal.models import User

    zone = ZoneInfo(timezone)
    stmt = select(AuditEvent)
    if query.who:
        needle = f"%{query.who.lower()}%"
        stmt = stmt.join(User, User.id == AuditEvent.actor_id).where(
            or_(func.lower(User.full_name).like(needle), func.lower(User.email).like(needle))
        )
    if query.action:
        stmt = stmt.where(AuditEvent.action == query.action)
    if query.subject_type:
        stmt = stmt.where(AuditEvent.subject_type == query.subject_type)
    if query.subject:
        stmt = stmt.where(
            AuditEvent.subject_type == query.subject[0], AuditEvent.subject_id == query.subject[1]
        )
    if query.since:
        stmt = stmt.where(AuditEvent.at >= datetime.combine(query.since, time(), zone))
    if query.until:
        stmt = stmt.where(
            AuditEvent.at < datetime.combine(query.until + timedelta(days=1), time(), zone)
        )
    stmt = stmt.order_by(AuditEvent.id.desc()).limit(per_page).offset((page - 1) * per_page)
    return list(db.session.scalars(stmt))
