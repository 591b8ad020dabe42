"""The cadastro zoossanitário of establishments (GRU 11-13) and their accreditation to register
animals (GRU 14 §1-2; BJP 2, 9).

Terms: the first approval opens a term of ``validity_years`` (GRU 11 §2: one year, the same date
next year — a term from 29 February ends on 28 February). Every renewal runs from the day after
the old term ends (GRU 11 §3) to the next anniversary of the *first* issue, so the terms never
drift by a day a year. A renewal is requested in the ``renewal_window_days`` before expiry (GRU
11 §3: 60 days); the window's last day moves to the next business day when the expiry falls on a
weekend or holiday, because it is an act before the Administration (GRU 114 §ú).

Every function takes model objects and values, flushes, audits, and raises
:class:`EstablishmentError`.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date

from flask_babel import gettext as _
from sqlalchemy import select

from portal.domain import DomainError
from portal.extensions import db
from portal.models import (
    ApiClient,
    Establishment,
    EstablishmentEvent,
    EstablishmentInspection,
    EstablishmentStatus,
    StoredFile,
    User,
)
from portal.profiles.schema import EstablishmentRule, Profile
from portal.services import audit
from portal.services.api_auth import issue_client
from portal.services.dates import business_days_calendar, term_of_months_ends
from portal.services.identity import clean_cep, clean_cnpj
from portal.services.mail import send_email
from portal.urls import absolute_url

OPEN_STATUSES = (EstablishmentStatus.REQUESTED, EstablishmentStatus.ACTIVE)


class EstablishmentError(DomainError):
    pass


def rule_of(profile: Profile) -> EstablishmentRule:
    if profile.establishments is None:
        raise EstablishmentError(
            None,
            "not_in_profile",
            _("A lei deste município não prevê cadastro de estabelecimentos."),
        )
    return profile.establishments


def kind_label(kind: str) -> str:
    return {
        "pet_shop": _("Pet shop"),
        "clinic": _("Clínica veterinária"),
        "hospital": _("Hospital veterinário"),
        "kennel": _("Canil ou hotel para animais"),
        "breeder": _("Criador"),
        "trainer": _("Adestrador"),
        "groomer": _("Banho e tosa"),
    }.get(kind, kind)


def status_label(establishment: Establishment, today: date) -> str:
    if establishment.status == EstablishmentStatus.ACTIVE:
        return _("Válido") if is_valid(establishment, today) else _("Vencido")
    labels: dict[str, str] = {
        EstablishmentStatus.REQUESTED: _("Em análise"),
        EstablishmentStatus.REFUSED: _("Recusado"),
        EstablishmentStatus.CLOSED: _("Encerrado (baixa)"),
    }
    return labels.get(establishment.status, establishment.status)


def event_label(action: str) -> str:
    return {
        "requested": _("Pedido de cadastro"),
        "data_changed": _("Alteração de dados comunicada"),
        "inspected": _("Vistoria registrada"),
        "approved": _("Cadastro aprovado"),
        "refused": _("Pedido recusado"),
        "renewal_requested": _("Renovação pedida"),
        "renewed": _("Cadastro renovado"),
        "accredited": _("Credenciado para registrar animais"),
        "accreditation_revoked": _("Credenciamento suspenso"),
        "closed": _("Baixa do cadastro"),
    }.get(action, action)


# ---------------------------------------------------------------------------------------------
# Terms
# ---------------------------------------------------------------------------------------------


def anniversary(first_issued_on: date, years: int) -> date:
    """The same date ``years`` later; 29 February becomes 1 March in a common year (Código Civil
    art. 132 §3, the one rule for terms in years: portal.services.dates)."""
    return term_of_months_ends(first_issued_on, 12 * years)


def next_term_end(first_issued_on: date, after: date, years: int) -> date:
    """The first anniversary of the first issue (every ``years``) that falls after ``after``."""
    k = 1
    while (end := anniversary(first_issued_on, years * k)) <= after:
        k += 1
    return end


def is_valid(establishment: Establishment, on: date) -> bool:
    return (
        establishment.status == EstablishmentStatus.ACTIVE
        and establishment.valid_from is not None
        and establishment.valid_until is not None
        and establishment.valid_from <= on <= establishment.valid_until
    )


@dataclass(frozen=True)
class RenewalWindow:
    opens: date
    closes: date

    def contains(self, day: date) -> bool:
        return self.opens <= day <= self.closes


def renewal_window(establishment: Establishment, profile: Profile) -> RenewalWindow | None:
    """The days on which a renewal may be requested (GRU 11 §3)."""
    if establishment.valid_until is None or establishment.status != EstablishmentStatus.ACTIVE:
        return None
    rule = rule_of(profile)
    until = establishment.valid_until
    opens = date.fromordinal(until.toordinal() - rule.renewal_window_days)
    calendar = business_days_calendar(profile.state, _municipal_holidays())
    closes = calendar.next_business_day(until, include_day=True)  # GRU 114 §ú
    return RenewalWindow(opens, closes)


def _municipal_holidays() -> list[date]:
    from portal.services.municipal_holidays import municipal_holidays

    return municipal_holidays()


# ---------------------------------------------------------------------------------------------
# The establishment's side
# ---------------------------------------------------------------------------------------------


@dataclass
class CadastroData:
    cnpj: str
    legal_name: str
    trade_name: str | None
    kinds: list[str]
    facilities: str
    cep: str
    street: str
    number: str
    complement: str | None
    district: str
    phone: str | None
    email: str | None
    opening_hours: str | None
    vet_name: str | None
    vet_crmv: str | None
    vet_term_valid_until: date | None


def _event(
    establishment: Establishment,
    action: str,
    actor: User | None,
    note: str | None = None,
    **detail: object,
) -> None:
    establishment.events.append(
        EstablishmentEvent(
            action=action, note=note, detail=detail or None, actor_id=actor.id if actor else None
        )
    )
    audit.record(
        f"establishment.{action}", establishment, detail={"cnpj": establishment.cnpj, **detail}
    )


def _check(data: CadastroData, rule: EstablishmentRule, today: date) -> CadastroData:
    cnpj = clean_cnpj(data.cnpj)
    if cnpj is None:
        raise EstablishmentError("cnpj", "invalid_cnpj", _("CNPJ inválido: confira os 14 dígitos."))
    data.cnpj = cnpj
    cep = clean_cep(data.cep)
    if cep is None:
        raise EstablishmentError("cep", "invalid_cep", _("CEP inválido: use 8 dígitos."))
    data.cep = cep
    unknown = [k for k in data.kinds if k not in rule.kinds]
    if not data.kinds or unknown:
        raise EstablishmentError(
            "kinds", "invalid_kind", _("Escolha ao menos uma atividade da lista.")
        )
    if rule.responsible_vet_required:  # GRU 11 §1 V; GRU 13
        if not data.vet_name or not data.vet_crmv:
            raise EstablishmentError(
                "vet_crmv",
                "vet_required",
                _("Informe o médico veterinário responsável técnico e o CRMV dele."),
            )
        term = data.vet_term_valid_until
        if rule.vet_term_yearly and (term is None or term < today):
            # GRU 13 §1: the term of technical responsibility is renewed yearly. BJP 2 and
            # VV 45-46 name a responsible vet but no term: none is asked there.
            raise EstablishmentError(
                "vet_term_valid_until",
                "vet_term_expired",
                _("O termo de responsabilidade técnica precisa estar válido (renovação anual)."),
            )
    return data


def request_cadastro(
    user: User,
    data: CadastroData,
    *,
    profile: Profile,
    today: date,
    sketch: StoredFile | None = None,
) -> Establishment:
    """An establishment asks for its cadastro (GRU 11 §1). Raises EstablishmentError."""
    rule = rule_of(profile)
    data = _check(data, rule, today)
    if rule.sketch_required and sketch is None:  # GRU 11 §1 IV
        raise EstablishmentError(
            "sketch",
            "sketch_required",
            _(
                "Envie o croqui com a localização, as dimensões e a estrutura dos alojamentos dos "
                "animais."
            ),
        )
    taken = db.session.scalar(
        select(Establishment).where(
            Establishment.cnpj == data.cnpj, Establishment.status.in_(OPEN_STATUSES)
        )
    )
    if taken is not None:
        raise EstablishmentError(
            "cnpj",
            "duplicate_cnpj",
            _("Já existe um cadastro em andamento ou válido para este CNPJ."),
        )
    establishment = Establishment(requested_by_id=user.id, sketch=sketch, **vars(data))
    db.session.add(establishment)
    db.session.flush()
    _event(establishment, "requested", user)
    return establishment


def update_data(
    establishment: Establishment,
    user: User,
    data: CadastroData,
    *,
    profile: Profile,
    today: date,
    sketch: StoredFile | None = None,
) -> None:
    """GRU 11 §4: changes to the cadastro's data are reported to the CCZ (kept in the file)."""
    data = _check(data, rule_of(profile), today)
    if sketch is not None:
        establishment.sketch = sketch
    if data.cnpj != establishment.cnpj:
        raise EstablishmentError(
            "cnpj", "cnpj_fixed", _("O CNPJ não muda: para outro CNPJ, peça um novo cadastro.")
        )
    changed = sorted(k for k, v in vars(data).items() if getattr(establishment, k) != v)
    if sketch is not None:
        changed.append("sketch")
    for key, value in vars(data).items():
        setattr(establishment, key, value)
    db.session.flush()
    if changed:
        _event(establishment, "data_changed", user, fields=changed)


def request_renewal(
    establishment: Establishment, user: User, *, profile: Profile, today: date
) -> None:
    """GRU 11 §3: asked for within the 60 days before expiry."""
    window = renewal_window(establishment, profile)
    if window is None:
        raise EstablishmentError(None, "not_renewable", _("Este cadastro não pode ser renovado."))
    if establishment.renewal_requested_on is not None:
        raise EstablishmentError(None, "renewal_pending", _("A renovação já foi pedida."))
    if today < window.opens:
        raise EstablishmentError(
            None,
            "renewal_too_early",
            _(
                "A renovação pode ser pedida a partir de %(day)s (%(n)s dias antes do vencimento).",
                day=window.opens.strftime("%d/%m/%Y"),
                n=rule_of(profile).renewal_window_days,
            ),
        )
    if today > window.closes:
        raise EstablishmentError(
            None,
            "renewal_too_late",
            _(
                "O prazo para pedir a renovação terminou em %(day)s. Peça um novo cadastro.",
                day=window.closes.strftime("%d/%m/%Y"),
            ),
        )
    _check_vet_term(establishment, profile, today)  # GRU 13 §1
    establishment.renewal_requested_on = today
    db.session.flush()
    _event(establishment, "renewal_requested", user)


def _check_vet_term(establishment: Establishment, profile: Profile, on: date) -> None:
    """GRU 13 §1: the term of technical responsibility "deverá ser renovado anualmente", so a
    renewal of the cadastro is asked for and approved only with a term valid on ``on`` (the
    request's or decision's day), not only the first cadastro; the establishment updates the
    term in its data first (GRU 11 §4). Nothing where the law has no yearly term."""
    rule = rule_of(profile)
    if not (rule.responsible_vet_required and rule.vet_term_yearly):
        return
    term = establishment.vet_term_valid_until
    if term is not None and term >= on:
        return
    raise EstablishmentError(
        "vet_term_valid_until",
        "vet_term_expired",
        _(
            "O termo de responsabilidade técnica do veterinário venceu em %(day)s: ele é "
            "renovado todo ano e conferido em cada renovação do cadastro (%(article)s). "
            "Atualize os dados do cadastro com o termo novo e peça a renovação de novo.",
            day=term.strftime("%d/%m/%Y") if term else "—",
            article=rule.cite("vet_term_yearly"),
        ),
    )


def close(establishment: Establishment, actor: User, reason: str) -> None:
    """GRU 11 §5: closing the business ends the cadastro (baixa) and any accreditation."""
    if establishment.status == EstablishmentStatus.CLOSED:
        raise EstablishmentError(None, "already_closed", _("Este cadastro já foi encerrado."))
    establishment.status = EstablishmentStatus.CLOSED
    establishment.accredited = False
    if establishment.api_client is not None:
        establishment.api_client.active = False
    db.session.flush()
    _event(establishment, "closed", actor, note=reason.strip() or None)


# ---------------------------------------------------------------------------------------------
# The CCZ's side
# ---------------------------------------------------------------------------------------------


def record_inspection(
    establishment: Establishment,
    agent: User,
    *,
    inspected_on: date,
    findings: str,
    satisfactory: bool,
    today: date,
) -> EstablishmentInspection:
    if inspected_on > today:
        raise EstablishmentError(
            "inspected_on", "future_date", _("A data da vistoria não pode ser no futuro.")
        )
    if not findings.strip():
        raise EstablishmentError("findings", "required", _("Descreva o que foi verificado."))
    inspection = EstablishmentInspection(
        inspected_on=inspected_on,
        agent_id=agent.id,
        findings=findings.strip(),
        satisfactory=satisfactory,
    )
    establishment.inspections.append(inspection)
    db.session.flush()
    _event(
        establishment,
        "inspected",
        agent,
        satisfactory=satisfactory,
        inspected_on=inspected_on.isoformat(),
    )
    return inspection


def approve(establishment: Establishment, staff: User, *, profile: Profile, today: date) -> None:
    """The first cadastro: valid for ``validity_years`` from today (GRU 11 §2)."""
    rule = rule_of(profile)
    if establishment.status != EstablishmentStatus.REQUESTED:
        raise EstablishmentError(None, "not_pending", _("Este pedido já foi decidido."))
    if rule.inspection_before_approval and not any(
        i.satisfactory for i in establishment.inspections
    ):
        raise EstablishmentError(
            None, "inspection_required", _("Registre uma vistoria satisfatória antes de aprovar.")
        )
    establishment.status = EstablishmentStatus.ACTIVE
    establishment.first_issued_on = establishment.first_issued_on or today
    establishment.valid_from = today
    establishment.valid_until = next_term_end(
        establishment.first_issued_on, today, rule.validity_years
    )
    db.session.flush()
    _event(establishment, "approved", staff, valid_until=establishment.valid_until.isoformat())
    _notify(
        establishment,
        _("Cadastro zoossanitário aprovado"),
        _(
            "O cadastro de %(name)s foi aprovado e vale até %(until)s.",
            name=establishment.display_name,
            until=establishment.valid_until.strftime("%d/%m/%Y"),
        ),
    )


def refuse(establishment: Establishment, staff: User, reason: str) -> None:
    if establishment.status != EstablishmentStatus.REQUESTED:
        raise EstablishmentError(None, "not_pending", _("Este pedido já foi decidido."))
    if not reason.strip():
        raise EstablishmentError("reason", "required", _("Explique o motivo da recusa."))
    establishment.status = EstablishmentStatus.REFUSED
    establishment.refusal_reason = reason.strip()
    db.session.flush()
    _event(establishment, "refused", staff, note=reason.strip())
    _notify(
        establishment,
        _("Cadastro zoossanitário recusado"),
        _(
            "O pedido de cadastro de %(name)s foi recusado. Motivo: %(reason)s",
            name=establishment.display_name,
            reason=reason.strip(),
        ),
    )


def approve_renewal(
    establishment: Establishment, staff: User, *, profile: Profile, today: date | None = None
) -> None:
    """GRU 11 §3: the renewed term starts the day after the old one ends — even when the CCZ
    decides after that day, since the request was on time — and runs to the next anniversary of
    the first issue (GRU 11 §2). GRU 13 §1: the vet's term must still be valid on the decision's
    day (``today``; by default the new term's first day)."""
    rule = rule_of(profile)
    if establishment.renewal_requested_on is None or establishment.valid_until is None:
        raise EstablishmentError(None, "no_renewal", _("Não há pedido de renovação."))
    if establishment.status != EstablishmentStatus.ACTIVE:
        raise EstablishmentError(None, "not_active", _("Este cadastro não está ativo."))
    old_end = establishment.valid_until
    # GRU 11 §3: the old term stays in force to its last day, so a renewal approved early leaves
    # valid_from alone: the two terms run back to back as one validity
    start = date.fromordinal(old_end.toordinal() + 1)
    _check_vet_term(establishment, profile, today or start)  # GRU 13 §1: at every renewal
    establishment.valid_until = next_term_end(
        establishment.first_issued_on or old_end, old_end, rule.validity_years
    )
    establishment.renewal_requested_on = None
    db.session.flush()
    _event(
        establishment,
        "renewed",
        staff,
        valid_from=start.isoformat(),
        valid_until=establishment.valid_until.isoformat(),
    )
    _notify(
        establishment,
        _("Cadastro zoossanitário renovado"),
        _(
            "O cadastro de %(name)s foi renovado: vale de %(start)s a %(until)s.",
            name=establishment.display_name,
            start=start.strftime("%d/%m/%Y"),
            until=establishment.valid_until.strftime("%d/%m/%Y"),
        ),
    )


def accredit(
    establishment: Establishment, staff: User, *, profile: Profile, today: date
) -> str | None:
    """Accreditation to register animals (GRU 14 §2; BJP 2): the establishment's API token.

    Returns the new token (shown once) when one was issued, None when the establishment already
    had one (it is re-enabled)."""
    if not rule_of(profile).accreditation:
        raise EstablishmentError(
            None,
            "accreditation_not_in_law",
            _("A lei deste município não prevê credenciamento para registrar animais."),
        )
    if not is_valid(establishment, today):
        raise EstablishmentError(
            None,
            "cadastro_not_valid",
            _("Só um estabelecimento com cadastro válido pode ser credenciado."),
        )
    if not set(establishment.kinds) & {"clinic", "hospital", "pet_shop"}:
        raise EstablishmentError(
            None,
            "kind_cannot_register",
            _("Só clínicas, hospitais veterinários e pet shops registram animais."),
        )
    establishment.accredited = True
    token = None
    if establishment.api_client is None:
        client, token = issue_client(
            "establishment", establishment.display_name, user_id=establishment.requested_by_id
        )
        establishment.api_client = client
    else:
        establishment.api_client.active = True
    db.session.flush()
    _event(establishment, "accredited", staff)
    return token


def revoke_accreditation(establishment: Establishment, staff: User, reason: str) -> None:
    establishment.accredited = False
    if establishment.api_client is not None:
        establishment.api_client.active = False
    db.session.flush()
    _event(establishment, "accreditation_revoked", staff, note=reason.strip() or None)


def _notify(establishment: Establishment, subject: str, text: str) -> None:
    to = establishment.email or establishment.requested_by.email
    if to:
        send_email(
            to,
            subject,
            _(
                "%(text)s\n\nAcompanhe em: %(link)s",
                text=text,
                link=absolute_url("establishments.mine"),
            ),
        )


# ---------------------------------------------------------------------------------------------
# What other parts of the portal read
# ---------------------------------------------------------------------------------------------


def api_client_gate(client: ApiClient) -> tuple[str, str] | None:
    """An establishment's token works only while its cadastro is valid and it is accredited
    (GRU 14 §2). Tokens not tied to a cadastro (made by ``create-api-client``) are not judged
    here."""
    from portal.services.clock import local_today

    establishment = db.session.scalar(
        select(Establishment).where(Establishment.api_client_id == client.id)
    )
    if establishment is None:
        return None
    if not establishment.accredited or not is_valid(establishment, local_today()):
        return (
            "establishment_not_accredited",
            _(
                "O credenciamento deste estabelecimento não está em vigor (cadastro vencido, "
                "encerrado ou credenciamento suspenso). Procure o CCZ."
            ),
        )
    return None


def accredited_establishments(today: date) -> list[Establishment]:
    """For the public page "Onde registrar meu animal": valid and accredited, by district."""
    found = db.session.scalars(
        select(Establishment)
        .where(
            Establishment.status == EstablishmentStatus.ACTIVE,
            Establishment.accredited.is_(True),
            Establishment.valid_from <= today,
            Establishment.valid_until >= today,
        )
        .order_by(Establishment.district, Establishment.legal_name)
    )
    return list(found)
