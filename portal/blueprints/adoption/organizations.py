"""NGOs (*entidades protetoras*, VV 29; BJP 24; CAB 16): the registration request, staff
approval or refusal, members, the API token's organisation, and who manages which listing."""

from __future__ import annotations

from dataclasses import dataclass

from flask_babel import gettext as _
from sqlalchemy import func, select

from portal.blueprints.adoption.errors import AdoptionError
from portal.extensions import db
from portal.models import (
    ApiClient,
    Organization,
    OrganizationMember,
    OrganizationStatus,
    User,
)
from portal.models.base import utcnow
from portal.services import audit
from portal.services.identity import clean_cep, clean_cnpj
from portal.services.mail import send_email


@dataclass
class OrganizationData:
    legal_name: str
    cnpj: str
    responsible_name: str
    email: str
    phone: str
    cep: str
    street: str
    number: str
    district: str
    city: str
    state: str
    trade_name: str = ""
    complement: str = ""


def request_organization(user: User, data: OrganizationData) -> Organization:
    """A citizen asks to register an NGO; it waits for staff approval. Raises AdoptionError."""
    cnpj = clean_cnpj(data.cnpj)
    if cnpj is None:
        raise AdoptionError("cnpj", "invalid", _("CNPJ inválido: confira os 14 dígitos."))
    if db.session.scalar(select(Organization.id).where(Organization.cnpj == cnpj)) is not None:
        raise AdoptionError(
            "cnpj", "duplicate", _("Já existe uma entidade cadastrada com este CNPJ.")
        )
    cep = clean_cep(data.cep)
    if cep is None:
        raise AdoptionError("cep", "invalid", _("CEP deve ter 8 dígitos, por exemplo 07000-000."))
    org = Organization(
        legal_name=data.legal_name.strip(),
        trade_name=data.trade_name.strip() or None,
        cnpj=cnpj,
        responsible_name=data.responsible_name.strip(),
        email=data.email.strip().lower(),
        phone=data.phone.strip() or None,
        cep=cep,
        street=data.street.strip(),
        number=data.number.strip(),
        complement=data.complement.strip() or None,
        district=data.district.strip(),
        city=data.city.strip(),
        state=data.state,
        status=OrganizationStatus.PENDING,
        requested_by_id=user.id,
    )
    org.members.append(OrganizationMember(user_id=user.id))
    db.session.add(org)
    db.session.flush()
    audit.record("adoption.organization_requested", org, actor_id=user.id)
    if user.email:
        send_email(
            user.email,
            _("Cadastro de ONG recebido"),
            _(
                "Recebemos o pedido de cadastro de %(name)s. A equipe do CCZ vai conferir os "
                "dados e avisar por e-mail.",
                name=org.display_name,
            ),
        )
    return org


def approve_organization(org: Organization, staff: User) -> Organization:
    """Staff approve an NGO: its members receive the ``ngo`` role. Raises AdoptionError."""
    if org.status == OrganizationStatus.APPROVED:
        raise AdoptionError(None, "already_approved", _("Esta ONG já está aprovada."))
    org.status = OrganizationStatus.APPROVED
    org.refusal_reason = None
    org.reviewed_by_id = staff.id
    org.reviewed_at = utcnow()
    for member in org.members:
        member.user.add_role("ngo")
    db.session.flush()
    audit.record("adoption.organization_approved", org, actor_id=staff.id)
    for member in org.members:
        if member.user.email:
            send_email(
                member.user.email,
                _("ONG aprovada no portal do CCZ"),
                _(
                    "O cadastro de %(name)s foi aprovado. Você já pode publicar animais para "
                    'adoção e analisar os pedidos em "Gestão de adoções".',
                    name=org.display_name,
                ),
            )
    return org


def refuse_organization(org: Organization, staff: User, reason: str) -> Organization:
    """Staff refuse an NGO registration with a reason sent to the requester."""
    if not reason.strip():
        raise AdoptionError("reason", "required", _("Informe o motivo da recusa."))
    org.status = OrganizationStatus.REFUSED
    org.refusal_reason = reason.strip()
    org.reviewed_by_id = staff.id
    org.reviewed_at = utcnow()
    db.session.flush()
    audit.record("adoption.organization_refused", org, actor_id=staff.id)
    if org.requested_by and org.requested_by.email:
        send_email(
            org.requested_by.email,
            _("Cadastro de ONG não aprovado"),
            _(
                "O cadastro de %(name)s não foi aprovado. Motivo: %(reason)s",
                name=org.display_name,
                reason=org.refusal_reason,
            ),
        )
    return org


def link_api_client(client: ApiClient) -> Organization:
    """``create-api-client --kind ngo --name X``: link the approved NGO named X, or create one.

    Staff create the token, so an organisation made here is approved at once; its CNPJ can be
    filled in later by staff. Only an already approved NGO is ever linked: a pending or refused
    registration of the same name keeps its state, and its requester gets no role from a token
    (approving is a staff decision with its own review, :func:`approve_organization`).
    """
    name = client.name.strip()
    org = db.session.scalar(
        select(Organization)
        .where(
            (func.lower(Organization.legal_name) == name.lower())
            | (func.lower(Organization.trade_name) == name.lower()),
            Organization.status == OrganizationStatus.APPROVED,
        )
        .order_by(Organization.id)
        .limit(1)
    )
    if org is None:
        org = Organization(
            legal_name=name,
            responsible_name=name,
            status=OrganizationStatus.APPROVED,
            reviewed_at=utcnow(),
        )
        db.session.add(org)
    org.api_client = client
    if client.user_id is not None and all(m.user_id != client.user_id for m in org.members):
        org.members.append(OrganizationMember(user_id=client.user_id))
    db.session.flush()
    for member in org.members:
        member.user.add_role("ngo")
    audit.record("adoption.organization_api_client", org, detail={"api_client_id": client.id})
    return org


def add_member(org: Organization, user: User, staff: User) -> OrganizationMember:
    """Staff link one more account to an NGO (a volunteer who will review applications)."""
    if any(m.user_id == user.id for m in org.members):
        raise AdoptionError("email", "duplicate", _("Esta pessoa já está ligada à ONG."))
    member = OrganizationMember(user_id=user.id)
    org.members.append(member)
    db.session.flush()
    if org.is_approved:
        user.add_role("ngo")
    audit.record(
        "adoption.organization_member_added", org, actor_id=staff.id, detail={"user_id": user.id}
    )
    return member


def organizations_of(user: User) -> list[Organization]:
    """Approved NGOs the user acts for."""
    return list(
        db.session.scalars(
            select(Organization)
            .join(OrganizationMember)
            .where(
                OrganizationMember.user_id == user.id,
                Organization.status == OrganizationStatus.APPROVED,
            )
            .order_by(Organization.id)
        )
    )


def organizations_for_review() -> list[Organization]:
    """Staff's list: registrations waiting for a decision first, then the newest."""
    return list(
        db.session.scalars(
            select(Organization).order_by(
                (Organization.status != OrganizationStatus.PENDING), Organization.id.desc()
            )
        )
    )


def organizations_requested_by(user: User) -> list[Organization]:
    """Every NGO the user belongs to, whatever its review state (their registration page)."""
    return list(
        db.session.scalars(
            select(Organization)
            .join(OrganizationMember)
            .where(OrganizationMember.user_id == user.id)
            .order_by(Organization.id)
        )
    )


def organization_for_client(client: ApiClient) -> Organization | None:
    """The approved NGO an API token acts for."""
    return db.session.scalar(
        select(Organization).where(
            Organization.api_client_id == client.id,
            Organization.status == OrganizationStatus.APPROVED,
        )
    )
