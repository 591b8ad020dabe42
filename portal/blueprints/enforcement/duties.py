"""Rules of issue 27 on a document: the definitive apprehension that repeated autuações for one
motive bring (GRU 87 V-VI, computed from the person's record), the interdição of a criação for
human consumption (GRU 89) and the owner's duties during the remedy term of a maus-tratos notice
(VV 23 II: report address changes, present veterinary laudos on the agent's schedule).

Each applies only where the profile has the rule; another city's documents see nothing of it.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, date, datetime, timedelta

from flask_babel import gettext as _
from sqlalchemy import select

from portal.blueprints.enforcement.addressees import recipient
from portal.blueprints.enforcement.common import EnforcementError
from portal.blueprints.enforcement.repeats import provision_key
from portal.extensions import db
from portal.models import (
    EnforcementDocument,
    EnforcementKind,
    EnforcementStatus,
    RemedyFiling,
    RemedyFilingKind,
    StoredFile,
    User,
)
from portal.profiles.schema import Profile, RepeatApprehension
from portal.services import audit
from portal.services.clock import local_date, local_today
from portal.services.dates import term_of_years_ends
from portal.services.mail import send_email
from portal.urls import absolute_url

AUTUACOES = (EnforcementKind.INFRACTION, EnforcementKind.PENALTY)


def _day(value: date) -> str:
    return value.strftime("%d/%m/%Y")


# -- GRU 87 V-VI: definitive apprehension after repeated autuações -------------------------------


@dataclass(frozen=True)
class RepeatFinding:
    """What the record says about one autuação's motive (GRU 87 V-VI, 79)."""

    motive: RepeatApprehension
    earlier: list[EnforcementDocument]  # the earlier autuações that count, oldest first
    window_years: int
    window_article: str

    @property
    def applies(self) -> bool:
        return len(self.earlier) >= self.motive.prior

    def reason(self) -> str:
        """Why, in one sentence naming the earlier documents and the articles."""
        listed = ", ".join(
            _("nº %(n)s de %(d)s", n=d.number, d=_day(local_date(d.occurred_at)))
            for d in self.earlier
        )
        if not self.applies:
            return _(
                "Autuações anteriores pelo mesmo motivo em %(y)d anos (%(w)s): %(c)d de %(p)d "
                "(%(l)s). A apreensão definitiva (%(a)s) ainda não se aplica.",
                y=self.window_years,
                w=self.window_article,
                c=len(self.earlier),
                p=self.motive.prior,
                l=listed or _("nenhuma"),
                a=self.motive.article,
            )
        return _(
            "Apreensão definitiva dos animais (%(a)s): a pessoa já foi autuada %(c)d vezes por "
            "%(m)s nos %(y)d anos anteriores (%(l)s; reincidência, %(w)s) e recebeu nova "
            "autuação pelo mesmo motivo. A pena só é efetivada após a decisão condenatória "
            "definitiva (GRU 87 §ú).",
            a=self.motive.article,
            c=len(self.earlier),
            m=self.motive.label.lower(),
            y=self.window_years,
            l=listed,
            w=self.window_article,
        )


def _autuacao(doc: EnforcementDocument) -> EnforcementDocument:
    """The auto de infração a penalty notice follows: one autuação, not two."""
    parent = doc.parent
    if doc.kind == EnforcementKind.PENALTY and parent is not None:
        if parent.kind == EnforcementKind.INFRACTION:
            return parent
    return doc


def repeat_finding(profile: Profile, doc: EnforcementDocument) -> RepeatFinding | None:
    """GRU 87 V-VI: the earlier autuações of the same offender (CPF, or CNPJ) for the same motive,
    not cancelled, inside the repeat window (GRU 79: an earlier one counts while this one falls
    on or before the last day of the three years counted from it, GRU 114, CC 132 §3). None when
    the document is not an autuação with a motive the profile knows."""
    if doc.kind not in AUTUACOES:
        return None
    doc = _autuacao(doc)
    motive = profile.fines.motive(doc.repeat_motive)
    window = profile.fines.repeat_window_years
    if motive is None or window is None:
        return None
    if doc.addressee_cpf:
        who = EnforcementDocument.addressee_cpf == doc.addressee_cpf
    elif doc.addressee_cnpj:
        who = EnforcementDocument.addressee_cnpj == doc.addressee_cnpj
    else:
        return None
    rows = db.session.scalars(
        select(EnforcementDocument).where(
            who,
            EnforcementDocument.repeat_motive == motive.code,
            EnforcementDocument.kind.in_(AUTUACOES),
            EnforcementDocument.status != EnforcementStatus.CANCELLED,
            EnforcementDocument.id != (doc.id or 0),
        )
    )
    this_day = local_date(doc.occurred_at)
    earlier = []
    for row in rows:
        if _autuacao(row) is not row:
            continue  # the penalty notice of an auto already counted
        if (_instant(row.occurred_at), row.id) >= (_instant(doc.occurred_at), doc.id or 0):
            continue  # not before this one
        if this_day <= term_of_years_ends(local_date(row.occurred_at), window):  # GRU 79
            earlier.append(row)
    earlier.sort(key=lambda d: (_instant(d.occurred_at), d.id))
    return RepeatFinding(motive, earlier, window, profile.fines.cite("repeat_window_years"))


def _instant(value: datetime) -> datetime:
    return value if value.tzinfo else value.replace(tzinfo=UTC)  # SQLite gives them naive


def motive_choices(profile: Profile) -> list[tuple[str, str]]:
    return [(m.code, f"{m.label} ({m.article})") for m in profile.fines.apprehension_after]


# -- on the issue form -----------------------------------------------------------------------------


def interdiction_action(profile: Profile) -> str:
    """GRU 89: what the interdição intimates, and who pays (§ú)."""
    rule = profile.notices.interdiction
    assert rule is not None
    return _(
        "Interdição da criação destinada ao consumo humano (%(a)s): encaminhar os animais a um "
        "abatedouro licenciado, acompanhado da autoridade sanitária, no prazo desta notificação. "
        "Todas as despesas de transporte dos animais e de acompanhamento da autoridade sanitária "
        "e de outros servidores ao abatedouro correm por conta do infrator (%(b)s).",
        a=rule.article,
        b=rule.cite("expenses"),
    )


def duties_apply(profile: Profile, doc: EnforcementDocument) -> bool:
    """VV 23 II: a preliminary notice for maus-tratos (a conduct the law lists, or VV 23 I)."""
    rule = profile.notices.remedy_duties
    if rule is None or doc.kind != EnforcementKind.PRELIMINARY:
        return False
    mine = provision_key(doc.legal_provision)
    listed = list(rule.provisions) + [c.article for c in profile.reports.categories]
    return any(provision_key(p) == mine for p in listed)


def apply_on_issue(
    profile: Profile,
    doc: EnforcementDocument,
    *,
    repeat_motive: str | None = None,
    interdiction: bool = False,
    laudo_every_days: int | None = None,
) -> None:
    """What the agent set for these rules on the issue form; raises EnforcementError by field."""
    if repeat_motive:
        if profile.fines.motive(repeat_motive) is None:
            raise EnforcementError(
                "repeat_motive", "invalid", _("A lei deste município não prevê este motivo.")
            )
        if doc.kind not in AUTUACOES:
            raise EnforcementError(
                "repeat_motive",
                "not_autuacao",
                _("O motivo da autuação vale só para auto de infração (GRU 87 V-VI)."),
            )
        doc.repeat_motive = repeat_motive
    if interdiction:
        rule = profile.notices.interdiction
        if rule is None:
            raise EnforcementError(
                "interdiction", "invalid", _("A lei deste município não prevê esta interdição.")
            )
        if doc.kind != EnforcementKind.PRELIMINARY:
            raise EnforcementError(
                "interdiction",
                "preliminary_only",
                _(
                    "A interdição intima o infrator no prazo de uma notificação preliminar "
                    "(%(a)s): escolha notificação preliminar.",
                    a=rule.article,
                ),
            )
        doc.interdiction = True
        action = interdiction_action(profile)
        if action not in (doc.required_action or ""):
            doc.required_action = (
                f"{doc.required_action}\n{action}" if doc.required_action else action
            )
    _set_laudo_period(profile, doc, laudo_every_days)
    db.session.flush()


def _set_laudo_period(profile: Profile, doc: EnforcementDocument, days: int | None) -> None:
    rule = profile.notices.remedy_duties
    if not duties_apply(profile, doc):
        if days:
            raise EnforcementError(
                "laudo_every_days",
                "not_maltreatment",
                _("Os laudos periódicos valem só na notificação por maus-tratos."),
            )
        return
    assert rule is not None
    if days is None or not rule.laudo_min_days <= days <= rule.laudo_max_days:
        raise EnforcementError(
            "laudo_every_days",
            "required",
            _(
                "Informe de quantos em quantos dias o responsável apresenta o laudo veterinário "
                "(de %(min)d a %(max)d dias; %(a)s).",
                min=rule.laudo_min_days,
                max=rule.laudo_max_days,
                a=rule.article,
            ),
        )
    doc.laudo_every_days = days


# -- VV 23 II: the remedy term ----------------------------------------------------------------


def laudos_of(doc: EnforcementDocument) -> list[RemedyFiling]:
    return list(
        db.session.scalars(
            select(RemedyFiling)
            .where(RemedyFiling.document_id == doc.id)
            .order_by(RemedyFiling.received_on, RemedyFiling.id)
        )
    )


def next_laudo_due(doc: EnforcementDocument, laudos: int) -> date | None:
    """Laudo k is due k periods after the day of knowledge (the agent's schedule, VV 23 II)."""
    if not doc.laudo_every_days or doc.knowledge_on is None:
        return None
    return doc.knowledge_on + timedelta(days=doc.laudo_every_days * (laudos + 1))


def duties_open(doc: EnforcementDocument) -> bool:
    """The remedy term runs until the return visit closes the notice."""
    return bool(doc.laudo_every_days) and doc.status == EnforcementStatus.OPEN


def on_served(profile: Profile, doc: EnforcementDocument) -> None:
    """The notice is known: the laudo schedule starts and the person is told by e-mail."""
    person = recipient(doc)
    link = absolute_url("enforcement.detail", doc_id=doc.id)
    if doc.laudo_every_days:
        doc.laudo_next_due_on = next_laudo_due(doc, 0)
        rule = profile.notices.remedy_duties
        if person is not None and person.email and doc.laudo_next_due_on is not None:
            send_email(
                person.email,
                _("Deveres no prazo para sanar – documento %(n)s", n=doc.number),
                _(
                    "Olá, %(name)s.\n\nEnquanto corre o prazo para sanar as irregularidades do "
                    "documento %(n)s (%(a)s), você deve:\n- avisar o CCZ de qualquer mudança de "
                    "endereço do animal;\n- apresentar a cada %(k)d dias um laudo veterinário "
                    "da integridade física do animal. O primeiro vence em %(d)s.\n\nEnvie o "
                    "laudo e o novo endereço em:\n%(link)s",
                    name=person.full_name,
                    n=doc.number,
                    a=rule.article if rule else "",
                    k=doc.laudo_every_days,
                    d=_day(doc.laudo_next_due_on),
                    link=link,
                ),
            )
    if doc.interdiction and person is not None and person.email:
        due = local_date(doc.comply_due_at) if doc.comply_due_at else None
        send_email(
            person.email,
            _("Interdição – documento %(n)s", n=doc.number),
            _(
                "Olá, %(name)s.\n\n%(what)s\nPrazo: %(d)s.\n\nVeja o documento em:\n%(link)s",
                name=person.full_name,
                what=interdiction_action(profile),
                d=_day(due) if due else _("imediatamente"),
                link=link,
            ),
        )
    finding = repeat_finding(profile, doc) if _autuacao(doc) is doc else None  # told once
    if finding is not None and finding.applies and person is not None and person.email:
        send_email(
            person.email,
            _("Autuação repetida – documento %(n)s", n=doc.number),
            _(
                "Olá, %(name)s.\n\n%(why)s\n\nVeja o documento, a defesa e os prazos em:\n%(link)s",
                name=person.full_name,
                why=finding.reason(),
                link=link,
            ),
        )


def file_laudo(
    profile: Profile,
    doc: EnforcementDocument,
    actor: User,
    *,
    file: StoredFile | None = None,
    received_on: date | None = None,
    note: str | None = None,
) -> RemedyFiling:
    """A veterinary laudo presented (VV 23 II): uploaded by the person, or received on paper and
    recorded by staff; the next one falls due one period later."""
    today = local_today()
    received_on = received_on or today
    if not duties_open(doc):
        raise EnforcementError(
            "laudo", "closed", _("Este documento não pede laudo veterinário agora.")
        )
    if file is None and not actor.is_staff:
        raise EnforcementError("laudo", "required", _("Anexe o laudo veterinário (PDF ou foto)."))
    if received_on > today:
        raise EnforcementError("received_on", "future", _("A data não pode estar no futuro."))
    if doc.knowledge_on and received_on < doc.knowledge_on:
        raise EnforcementError(
            "received_on", "before", _("A data não pode ser anterior à ciência do documento.")
        )
    filing = RemedyFiling(
        document_id=doc.id,
        kind=RemedyFilingKind.LAUDO,
        text=(note or "").strip() or None,
        file_id=file.id if file else None,
        received_on=received_on,
        filed_by_id=actor.id,
    )
    db.session.add(filing)
    db.session.flush()
    count = sum(1 for f in laudos_of(doc) if f.kind == RemedyFilingKind.LAUDO)
    doc.laudo_next_due_on = next_laudo_due(doc, count)
    audit.record(
        "enforcement.laudo_filed",
        doc,
        detail={"number": doc.number, "received_on": received_on.isoformat()},
        actor_id=actor.id,
    )
    _tell(
        doc,
        _("Laudo veterinário recebido – documento %(n)s", n=doc.number),
        _(
            "O CCZ registrou o laudo veterinário de %(d)s no documento %(n)s (%(a)s). O próximo "
            "vence em %(next)s, enquanto o prazo para sanar estiver correndo.",
            d=_day(received_on),
            n=doc.number,
            a=_article(profile),
            next=_day(doc.laudo_next_due_on) if doc.laudo_next_due_on else "—",
        ),
    )
    db.session.flush()
    return filing


def report_address(
    profile: Profile, doc: EnforcementDocument, actor: User, address: str
) -> RemedyFiling:
    """VV 23 II: the owner tells the CCZ the animal's new address; the agent who issued the
    notice is told (the return visit goes there)."""
    address = (address or "").strip()
    if not duties_open(doc):
        raise EnforcementError(
            "address", "closed", _("Este documento não pede aviso de mudança de endereço agora.")
        )
    if len(address) < 8 or len(address) > 300:
        raise EnforcementError(
            "address",
            "invalid",
            _("Informe o novo endereço do animal: rua, número, bairro e cidade."),
        )
    filing = RemedyFiling(
        document_id=doc.id,
        kind=RemedyFilingKind.ADDRESS,
        text=address,
        received_on=local_today(),
        filed_by_id=actor.id,
    )
    db.session.add(filing)
    db.session.flush()
    audit.record(
        "enforcement.address_changed", doc, detail={"number": doc.number}, actor_id=actor.id
    )
    _tell(
        doc,
        _("Mudança de endereço registrada – documento %(n)s", n=doc.number),
        _(
            "O CCZ registrou o novo endereço do animal no documento %(n)s (%(a)s): %(addr)s.",
            n=doc.number,
            a=_article(profile),
            addr=address,
        ),
    )
    if doc.agent is not None and doc.agent.email:
        send_email(
            doc.agent.email,
            _("Animal mudou de endereço – documento %(n)s", n=doc.number),
            _(
                "O responsável informou um novo endereço do animal (%(a)s): %(addr)s.\n%(link)s",
                a=_article(profile),
                addr=address,
                link=absolute_url("enforcement.staff_detail", doc_id=doc.id),
            ),
        )
    return filing


def _article(profile: Profile) -> str:
    rule = profile.notices.remedy_duties
    return rule.article if rule else ""


def _tell(doc: EnforcementDocument, subject: str, body: str) -> None:
    person = recipient(doc)
    if person is not None and person.email:
        link = absolute_url("enforcement.detail", doc_id=doc.id)
        send_email(person.email, subject, f"{body}\n\n{link}")


def duty_text(profile: Profile, doc: EnforcementDocument, today: date) -> str | None:
    """The person's to-do line for the remedy duties, or None when nothing is asked now."""
    due = doc.laudo_next_due_on
    if not duties_open(doc) or due is None:
        return None
    if due < today:
        return _(
            "Documento %(n)s: o laudo veterinário do animal venceu em %(d)s e não foi "
            "apresentado (%(a)s). Envie-o agora; avise também se o animal mudou de endereço.",
            n=doc.number,
            d=_day(due),
            a=_article(profile),
        )
    return _(
        "Documento %(n)s: apresente o laudo veterinário do animal até %(d)s (%(a)s) e avise o "
        "CCZ se o animal mudar de endereço.",
        n=doc.number,
        d=_day(due),
        a=_article(profile),
    )
