"""Enforcement (GRU 70-114; BJP 30; VV 23; CABO 38-40): the administrative procedure's
documents, petitions and the consequences recorded on a person.

The rules live in ``portal.blueprints.enforcement.services``; these classes only hold the records.

* :class:`EnforcementDocument` — a *notificação preliminar*, *auto de infração*, *auto de imposição
  de penalidade*, *auto de apreensão* or VV 23 V *termo de compromisso*; numbered per year
  (``2026-000123``, :class:`EnforcementCounter`), with the access code printed on it, its
  addressee (a CPF or a CNPJ), its service record (who knew it and when) and its deadlines.
* :class:`Petition` — a defence or an appeal against a document; one decision each (GRU 101 §2).
* :class:`PersonConsequence` — loss of possession, the commitment never to keep animals, a
  definitive apprehension: recorded on the person (CPF) with the document that decided it, read
  by adoption and registration.
"""

from __future__ import annotations

import enum
from datetime import date, datetime
from typing import Any

from sqlalchemy import JSON, ForeignKey, String, Text, UniqueConstraint
from sqlalchemy.orm import Mapped, mapped_column, relationship

from portal.extensions import Model
from portal.models.base import utcnow
from portal.models.billing import PaymentItem
from portal.models.establishment import Establishment
from portal.models.upload import StoredFile
from portal.models.user import User


class EnforcementKind(enum.StrEnum):
    PRELIMINARY = "preliminary"  # notificação preliminar (GRU 70 §1, 95; BJP 30 I; VV 23 I)
    INFRACTION = "infraction"  # auto de infração (GRU 96)
    PENALTY = "penalty"  # auto de imposição de penalidade (GRU 97-98)
    APPREHENSION = "apprehension"  # auto de apreensão (GRU 72; definitive: GRU 88 §4)
    COMMITMENT = "commitment"  # termo de compromisso de não mais ter animais (VV 23 V)


class ServiceMethod(enum.StrEnum):
    SIGNED = "signed"  # in person, signed by the addressee (GRU 95 VIII, 96 VII)
    REFUSED = "refused"  # in person, refused to sign: the agent notes it (same articles)
    POST = "post"  # registered letter with AR: known on the AR date (GRU 95 §ú, 109 II)
    EDITAL = "edital"  # published once: known 5 days later (GRU 95 §ú, 96 §1, 109 III)


class EnforcementStatus(enum.StrEnum):
    ISSUED = "issued"  # written, not yet known to the addressee
    OPEN = "open"  # known: its deadline runs
    COMPLIED = "complied"  # preliminary notice: the irregularity was fixed in time
    NOT_COMPLIED = "not_complied"  # preliminary notice: the return visit found it unfixed
    UNDER_REVIEW = "under_review"  # a defence or appeal is pending
    UPHELD = "upheld"  # the defence or appeal was refused; the procedure goes on
    FINAL = "final"  # nothing more can be filed: the penalty stands
    CANCELLED = "cancelled"  # a petition was granted (GRU 105 §1) or the document withdrawn


class PetitionKind(enum.StrEnum):
    DEFENCE = "defence"  # defesa ou impugnação do auto de infração (GRU 96 V, 102)
    APPEAL = "appeal"  # recurso (GRU 98 VI, 101, 103)


class PetitionStatus(enum.StrEnum):
    PENDING = "pending"
    GRANTED = "granted"  # deferido
    DENIED = "denied"  # indeferido
    REFUSED = "refused"  # indeferido sem análise do mérito (GRU 107 §2)


class RepresentationStatus(enum.StrEnum):
    """Staff's reading of the power of attorney a representative filed (GRU 107 §2 III)."""

    PENDING = "pending"
    ACCEPTED = "accepted"  # the representative becomes an addressee (issue 26 High #2)
    REFUSED = "refused"


class ConsequenceKind(enum.StrEnum):
    # Same codes as ``portal.models.adoption.BarKind`` so the adoption rules read both alike.
    COMMITMENT_NEVER_KEEP = "commitment_never_keep"  # VV 23 V
    LOST_POSSESSION_MALTREATMENT = "lost_possession_maltreatment"  # VV 23 III b; BJP 30 §ú
    CAUSED_DEFINITIVE_APPREHENSION = "caused_definitive_apprehension"  # GRU 88 §4


class EnforcementCounter(Model):
    """The last document number issued in one year (numbers only count up)."""

    __tablename__ = "enforcement_counter"

    year: Mapped[int] = mapped_column(primary_key=True)
    last_value: Mapped[int] = mapped_column(default=0)


class EnforcementDocument(Model):
    __tablename__ = "enforcement_document"
    __table_args__ = (UniqueConstraint("year", "sequence", name="uq_enforcement_number"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    number: Mapped[str] = mapped_column(String(20), unique=True)  # "2026-000123"
    year: Mapped[int]
    sequence: Mapped[int]
    kind: Mapped[str] = mapped_column(String(20), index=True)
    status: Mapped[str] = mapped_column(String(20), default=EnforcementStatus.ISSUED, index=True)
    # The access code printed on the paper is derived (HMAC of the app secret and the document id,
    # ``enforcement.codes``), so nothing stored reveals it. Rows from before keep only an HMAC of
    # their old printed code here (the migration fills it and empties ``access_code``).
    access_code: Mapped[str | None] = mapped_column(String(12))
    access_code_hash: Mapped[str | None] = mapped_column(String(64))

    # Addressee (GRU 95 I, 96 I): a person by CPF or an establishment by CNPJ.
    addressee_name: Mapped[str] = mapped_column(String(200))
    addressee_cpf: Mapped[str | None] = mapped_column(String(11), index=True)
    addressee_cnpj: Mapped[str | None] = mapped_column(String(14), index=True)
    addressee_activity: Mapped[str | None] = mapped_column(String(200))  # ramo de atividade
    addressee_address: Mapped[str | None] = mapped_column(String(300))
    person_id: Mapped[int | None] = mapped_column(ForeignKey("user_account.id"), index=True)
    establishment_id: Mapped[int | None] = mapped_column(ForeignKey("establishment.id"), index=True)

    # The facts (GRU 95 II-V, 96 II-IV, 98 II-V).
    fact: Mapped[str] = mapped_column(Text)
    place: Mapped[str] = mapped_column(String(300))
    occurred_at: Mapped[datetime]
    legal_provision: Mapped[str] = mapped_column(String(200))  # disposição transgredida
    penalty_provision: Mapped[str | None] = mapped_column(String(200))  # dispositivo que comina
    required_action: Mapped[str | None] = mapped_column(Text)  # providência exigida
    # Term to comply with a preliminary notice: days (0 = immediately) or hours (GRU 70 §3-4).
    comply_days: Mapped[int | None]
    comply_hours: Mapped[int | None]
    comply_extended_days: Mapped[int | None]  # GRU 70 §3: +30 at the addressee's request
    comply_due_at: Mapped[datetime | None]  # the instant the term ends (hours: minute by minute)
    # The fine proposed/imposed: the fee service's inputs and its itemised result.
    fine_inputs: Mapped[dict[str, Any] | None] = mapped_column(JSON)
    fine_breakdown: Mapped[list[dict[str, Any]] | None] = mapped_column(JSON)
    fine_cents: Mapped[int | None]
    measures: Mapped[str | None] = mapped_column(Text)  # sanitary measures (never suspended)

    agent_id: Mapped[int] = mapped_column(ForeignKey("user_account.id"), index=True)
    agent_title: Mapped[str] = mapped_column(String(100))  # cargo (GRU 95 VI)
    issued_at: Mapped[datetime] = mapped_column(default=utcnow)

    # Service (ciência): how and when the addressee knew it; knowledge_on starts every term.
    service_method: Mapped[str | None] = mapped_column(String(10))
    service_on: Mapped[date | None]  # signature / AR / publication date
    service_note: Mapped[str | None] = mapped_column(Text)  # refusal noted by the agent
    knowledge_on: Mapped[date | None] = mapped_column(index=True)
    petition_due_on: Mapped[date | None] = mapped_column(index=True)  # defence / appeal term

    # Links: the notice this one follows, the report it came from.
    parent_id: Mapped[int | None] = mapped_column(ForeignKey("enforcement_document.id"), index=True)
    report_id: Mapped[int | None] = mapped_column(ForeignKey("maltreatment_report.id"), index=True)
    animal_id: Mapped[int | None] = mapped_column(ForeignKey("animal.id"), index=True)
    # The capture whose definitive apprehension this auto de apreensão carries (GRU 87; CABO 39 §4).
    capture_id: Mapped[int | None] = mapped_column(ForeignKey("capture.id"), index=True)
    # The document of the other person the same facts fine (BJP 19 §1 I and II).
    joint_of_id: Mapped[int | None] = mapped_column(ForeignKey("enforcement_document.id"))
    # A consequence on the person this document decides, recorded only at its final decision
    # (GRU 87 §ú): definitive apprehension (GRU 88 §4), loss of possession (VV 23 III b, BJP 30 §ú,
    # CABO 39 §4) — the kind and the article the agent chose on the issue form.
    consequence_kind: Mapped[str | None] = mapped_column(String(40))
    consequence_article: Mapped[str | None] = mapped_column(String(60))
    # BJP 17 §2, 16 §4, 2 §3: the day the person was intimated (the ladder counts from it).
    notified_on: Mapped[date | None]
    # GRU 87 V-VI: the motive of an autuação (a code of ``fines.apprehension_after``); the third
    # for the same motive makes the apprehension definitive (``enforcement.repeat_apprehension``).
    repeat_motive: Mapped[str | None] = mapped_column(String(40), index=True)
    # GRU 89: a preliminary notice that is an interdição of a criação for human consumption.
    interdiction: Mapped[bool] = mapped_column(default=False)
    # VV 23 II: the laudo period the agent set on a maus-tratos notice, and the next one due.
    laudo_every_days: Mapped[int | None]
    laudo_next_due_on: Mapped[date | None] = mapped_column(index=True)

    # The fine as a charge (GRU 99-100) and its suspension while an appeal is pending (GRU 110).
    payment_item_id: Mapped[int | None] = mapped_column(ForeignKey("payment_item.id"))
    fine_suspended: Mapped[bool] = mapped_column(default=False)
    # GRU 100: unpaid after the term, sent for collection (the city's *dívida ativa* export).
    collection_marked_on: Mapped[date | None] = mapped_column(index=True)

    person: Mapped[User | None] = relationship(foreign_keys=[person_id])
    establishment: Mapped[Establishment | None] = relationship()
    agent: Mapped[User] = relationship(foreign_keys=[agent_id])
    parent: Mapped[EnforcementDocument | None] = relationship(
        remote_side=[id], foreign_keys=[parent_id]
    )
    joint_of: Mapped[EnforcementDocument | None] = relationship(
        remote_side=[id], foreign_keys=[joint_of_id]
    )
    payment_item: Mapped[PaymentItem | None] = relationship()
    petitions: Mapped[list[Petition]] = relationship(
        back_populates="document", order_by="Petition.id"
    )

    @property
    def addressee_document(self) -> str | None:
        return self.addressee_cpf or self.addressee_cnpj

    def __repr__(self) -> str:
        return f"<EnforcementDocument {self.number} {self.kind} {self.status}>"


class Petition(Model):
    """A defence or appeal, filed online or typed by staff from paper; decided once."""

    __tablename__ = "enforcement_petition"

    id: Mapped[int] = mapped_column(primary_key=True)
    document_id: Mapped[int] = mapped_column(ForeignKey("enforcement_document.id"), index=True)
    kind: Mapped[str] = mapped_column(String(10))
    instance: Mapped[int] = mapped_column(default=1)  # GRU 102 first, 103 second (final)
    # A second-instance appeal is against a first-instance decision (GRU 103).
    against_id: Mapped[int | None] = mapped_column(ForeignKey("enforcement_petition.id"))
    filed_by_id: Mapped[int] = mapped_column(ForeignKey("user_account.id"), index=True)
    as_representative: Mapped[bool] = mapped_column(default=False)
    power_of_attorney_id: Mapped[int | None] = mapped_column(ForeignKey("stored_file.id"))
    # a representative's power of attorney: pending until staff accept or refuse it; None when
    # the addressee filed it themselves
    representation_status: Mapped[str | None] = mapped_column(String(10))
    representation_decided_by_id: Mapped[int | None] = mapped_column(ForeignKey("user_account.id"))
    representation_decided_at: Mapped[datetime | None]
    attachment_ids: Mapped[list[int]] = mapped_column(JSON, default=list)
    text: Mapped[str] = mapped_column(Text)
    filed_at: Mapped[datetime] = mapped_column(default=utcnow)
    filed_on: Mapped[date]  # the local day it was filed: compared with the term
    due_on: Mapped[date | None]  # the term it had to meet
    decide_by: Mapped[date | None] = mapped_column(index=True)  # GRU 102: 15 days
    suspends_fine: Mapped[bool] = mapped_column(default=False)  # GRU 110

    status: Mapped[str] = mapped_column(String(10), default=PetitionStatus.PENDING, index=True)
    decision_reason: Mapped[str | None] = mapped_column(Text)  # GRU 106 §ú: always reasoned
    decision_article: Mapped[str | None] = mapped_column(String(100))
    decided_by_id: Mapped[int | None] = mapped_column(ForeignKey("user_account.id"))
    decided_at: Mapped[datetime | None]
    decision_known_on: Mapped[date | None]  # GRU 109: the petitioner's knowledge of it
    next_due_on: Mapped[date | None]  # the term for the next appeal (GRU 103)
    # GRU 104: a granted petition goes to the issuing agent, who may order its re-examination
    # within 5 days; the grant takes effect only after that (or when the agent agrees).
    review_due_on: Mapped[date | None] = mapped_column(index=True)
    reexam_requested_at: Mapped[datetime | None]
    reexam_note: Mapped[str | None] = mapped_column(Text)

    document: Mapped[EnforcementDocument] = relationship(back_populates="petitions")
    filed_by: Mapped[User] = relationship(foreign_keys=[filed_by_id])
    decided_by: Mapped[User | None] = relationship(foreign_keys=[decided_by_id])
    against: Mapped[Petition | None] = relationship(remote_side=[id])
    power_of_attorney: Mapped[StoredFile | None] = relationship()


class RemedyFilingKind(enum.StrEnum):
    LAUDO = "laudo"  # VV 23 II: the veterinary laudo of the animal's physical integrity
    ADDRESS = "address"  # VV 23 II: a change of the animal's address


class RemedyFiling(Model):
    """What the owner presents during the remedy term of a maus-tratos notice (VV 23 II): a
    veterinary laudo (uploaded, or received on paper and recorded by staff) or a new address of
    the animal."""

    __tablename__ = "enforcement_remedy_filing"

    id: Mapped[int] = mapped_column(primary_key=True)
    document_id: Mapped[int] = mapped_column(ForeignKey("enforcement_document.id"), index=True)
    kind: Mapped[str] = mapped_column(String(10))
    text: Mapped[str | None] = mapped_column(Text)  # the new address, or a note on the laudo
    file_id: Mapped[int | None] = mapped_column(ForeignKey("stored_file.id"))
    received_on: Mapped[date]
    filed_by_id: Mapped[int] = mapped_column(ForeignKey("user_account.id"), index=True)
    filed_at: Mapped[datetime] = mapped_column(default=utcnow)

    document: Mapped[EnforcementDocument] = relationship()
    file: Mapped[StoredFile | None] = relationship()
    filed_by: Mapped[User] = relationship()


class PersonConsequence(Model):
    """A consequence recorded on a person by the document that decided it."""

    __tablename__ = "enforcement_consequence"

    id: Mapped[int] = mapped_column(primary_key=True)
    kind: Mapped[str] = mapped_column(String(40))
    cpf: Mapped[str] = mapped_column(String(11), index=True)
    person_name: Mapped[str] = mapped_column(String(200))
    document_id: Mapped[int] = mapped_column(ForeignKey("enforcement_document.id"), index=True)
    article: Mapped[str] = mapped_column(String(60))
    animal_id: Mapped[int | None] = mapped_column(ForeignKey("animal.id"), index=True)
    recorded_at: Mapped[datetime] = mapped_column(default=utcnow)
    revoked_at: Mapped[datetime | None]

    document: Mapped[EnforcementDocument] = relationship()

    @property
    def active(self) -> bool:
        return self.revoked_at is None
