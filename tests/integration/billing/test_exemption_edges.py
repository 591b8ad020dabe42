"""Edges of the fee exemptions (portal/blueprints/billing/exemptions.py): who may ask, for which
item statuses, profiles and fee kinds, the article cited, the proof, each error's field and code,
the staff's decision, every stored value, the history, the audit trail and the e-mail.

The law: GRU 23 (owners unemployed for more than three months, or with an income below two
minimum wages, are exempt from the registration fees of art. 22 "ao fazerem o registro"); GRU 82
§3 (owners unemployed for more than three months are exempt from the reclaim fees); VV 12 §3-4
(registration is part of the sterilisation/adoption programme; owners outside it pay a fee).
BJP, Cabo and Cabeceira have no exemption. The service is called directly: its errors carry the
field and code the views and the API show.
"""

from __future__ import annotations

import io
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import timedelta
from typing import Any

import pytest
from sqlalchemy import func, select

from portal.blueprints.billing.exemptions import (
    decide_exemption,
    exemptions_for_item,
    request_exemption,
)
from portal.blueprints.billing.items import BillingError, close_exemption_requests
from portal.extensions import db
from portal.models import (
    CheckoutSession,
    ExemptionRequest,
    OutboxMessage,
    PaymentItem,
    StoredFile,
)
from portal.models.base import utcnow
from portal.profiles import load_profile
from tests import factories
from tests.factories import audit_events, make_item, png_bytes, profile_app

PROOF_PDF = b"%PDF-1.4\n% carteira de trabalho com a baixa\n%%EOF\n"
UNEMPLOYED = "unemployed_3_months"
LOW_INCOME = "income_below_2_minimum_wages"
PROGRAMME = "programme_participant"
UNEMPLOYED_LABEL = "Desempregado há mais de três meses"
LOW_INCOME_LABEL = "Renda inferior a dois salários mínimos"
PROGRAMME_LABEL = "Animal no programa municipal de esterilização ou adoção"


# -- helpers ---------------------------------------------------------------------------------------


@contextmanager
def _city(make_app: Any, key: str = "guarulhos", *, lang: str | None = None) -> Iterator[Any]:
    """A profile's app inside app and request contexts; ``lang`` is the signed-in staff's choice
    of language (``?lang=en`` puts it in the session like the language switch does)."""
    if lang is None:
        with profile_app(make_app, key) as profile:
            yield profile
        return
    app = make_app(PORTAL_PROFILE=key)
    with app.app_context(), app.test_request_context(f"/?lang={lang}"):
        yield app.extensions["portal_profile"]


def _payer(**fields: Any):  # type: ignore[no-untyped-def]
    fields.setdefault("full_name", "Maria Pagadora da Silva")
    return factories.user(roles=("citizen",), **fields)


def _staff():  # type: ignore[no-untyped-def]
    return factories.user(roles=("agent",), full_name="Agente Decisor")


def _ask(
    item: PaymentItem,
    requester: Any,
    profile: Any,
    *,
    code: str = UNEMPLOYED,
    statement: str | None = "Desempregada desde janeiro.",
    data: bytes = PROOF_PDF,
    filename: str | None = "carteira.pdf",
) -> ExemptionRequest:
    return request_exemption(
        item,
        requester,
        profile=profile,
        code=code,
        statement=statement,
        proof=io.BytesIO(data),
        filename=filename,
    )


def _error(call: Any) -> tuple[str | None, str, str]:
    with pytest.raises(BillingError) as caught:
        call()
    return caught.value.field, caught.value.code, caught.value.message


def _count(model: Any) -> int:
    return db.session.scalar(select(func.count()).select_from(model))


def _mails() -> list[OutboxMessage]:
    return list(db.session.scalars(select(OutboxMessage).order_by(OutboxMessage.id)))


def _history(item: PaymentItem) -> list[tuple[str | None, str, str | None, int | None]]:
    return [(e.from_status, e.to_status, e.note, e.actor_id) for e in item.events]


def _nothing_requested(item: PaymentItem) -> None:
    assert _count(ExemptionRequest) == 0
    assert _count(StoredFile) == 0
    assert audit_events("payment.exemption_requested") == []
    assert _history(item) == [(None, "pending", "created", None)]


# -- which exemptions the law gives for a fee ------------------------------------------------------


@pytest.mark.parametrize(
    ("key", "kind", "expected"),
    [
        # GRU 23: registration fees (art. 22), two grounds, both cited as GRU 23
        ("guarulhos", "registration", [(UNEMPLOYED, "GRU 23"), (LOW_INCOME, "GRU 23")]),
        # GRU 82 §3: reclaim fees, unemployment only
        ("guarulhos", "reclaim", [(UNEMPLOYED, "GRU 82 §3")]),
        # GRU 23 "ao fazerem o registro": not a second copy (art. 22 II), not a fine
        ("guarulhos", "card_copy", []),
        ("guarulhos", "fine", []),
        # VV 12 §3-4: registration inside the sterilisation/adoption programme
        ("vilavelha", "registration", [(PROGRAMME, "VV 12 §3-4")]),
        ("vilavelha", "reclaim", []),
        # no exemption in these laws
        ("bjp", "registration", []),
        ("bjp", "reclaim", []),
        ("cabo", "registration", []),
        ("cabo", "reclaim", []),
        ("cabeceira", "registration", []),
        ("cabeceira", "reclaim", []),
    ],
)
def test_gru_23_82_par3_vv_12_par3_exemptions_by_profile_and_fee_kind(
    key: str, kind: str, expected: list[tuple[str, str]]
) -> None:
    profile = load_profile(key)
    item = PaymentItem(kind=kind, amount_cents=2500, api_client_id=None)
    assert [(e.code, e.article) for e in exemptions_for_item(profile, item)] == expected


def test_gru_22_par2_no_exemption_on_an_establishments_own_charge(make_app) -> None:
    # GRU 22 I, §2: the accredited clinic pays for the registrations it makes; GRU 23 exempts
    # "os proprietários", so a charge of an API client has no exemption at all.
    from portal.services.api_auth import issue_client

    profile = load_profile("guarulhos")
    assert exemptions_for_item(profile, PaymentItem(kind="registration", api_client_id=7)) == []
    with _city(make_app) as profile:
        clinic_user = factories.user(roles=("establishment",), full_name="Clínica Vet Centro")
        clinic, _token = issue_client("establishment", "Clínica Vet Centro", user_id=clinic_user.id)
        db.session.flush()
        item = make_item(clinic_user, api_client_id=clinic.id)
        assert exemptions_for_item(profile, item) == []
        field, code, _message = _error(lambda: _ask(item, clinic_user, profile))
        assert (field, code) == ("code", "invalid")
        _nothing_requested(item)


# -- the payer's request ---------------------------------------------------------------------------


def test_gru_23_unemployed_request_stores_every_value(make_app) -> None:
    # GRU 23: "os proprietários que comprovarem situação de desemprego por mais de três meses"
    with _city(make_app) as profile:
        payer = _payer()
        item = make_item(payer)
        req = _ask(item, payer, profile, statement="  Desempregada desde janeiro.  ")
        db.session.commit()
        db.session.expire_all()
        stored = db.session.scalar(select(ExemptionRequest))
        assert req is stored and req.id is not None
        assert stored.item_id == item.id and stored.requester_id == payer.id
        assert (stored.code, stored.label) == (UNEMPLOYED, UNEMPLOYED_LABEL)
        assert stored.article == "GRU 23"
        assert stored.statement == "Desempregada desde janeiro."
        assert stored.status == "pending"
        assert (stored.decided_at, stored.decided_by_id, stored.decision_reason) == (None,) * 3
        proof = db.session.get(StoredFile, stored.proof_file_id)
        assert proof is stored.proof
        assert proof.purpose == "exemption_proof"
        assert proof.owner_id is None and proof.public is False
        assert proof.content_type == "application/pdf"
        assert proof.original_name == "carteira.pdf"
        assert proof.size_bytes == len(PROOF_PDF)
        item = db.session.get(PaymentItem, item.id)
        # the item stays payable while staff look at the proof
        assert item.status == "pending" and item.payable
        assert item.open_exemption_request is stored
        assert _history(item) == [
            (None, "pending", "created", None),
            ("pending", "pending", "Pedido de isenção enviado (GRU 23)", payer.id),
        ]
        [event] = audit_events("payment.exemption_requested")
        assert event.subject_type == "PaymentItem" and event.subject_id == str(item.id)
        assert event.detail == {"code": UNEMPLOYED, "article": "GRU 23"}
        assert event.actor_id == payer.id
        assert _mails() == []  # nobody is told before the decision


def test_gru_23_low_income_is_the_exemption_chosen(make_app) -> None:
    # GRU 23: "e os proprietários que comprovarem renda inferior a dois salários mínimos"
    with _city(make_app) as profile:
        payer = _payer()
        item = make_item(payer)
        req = _ask(item, payer, profile, code=LOW_INCOME)
        assert (req.code, req.label, req.article) == (LOW_INCOME, LOW_INCOME_LABEL, "GRU 23")
        [event] = audit_events("payment.exemption_requested")
        assert event.detail == {"code": LOW_INCOME, "article": "GRU 23"}


def test_gru_82_par3_reclaim_fee_exemption_is_unemployment_only(make_app) -> None:
    # GRU 82 §3: "os proprietários que comprovarem estar desempregados há mais de 3 (três) meses
    # estarão dispensados do pagamento das respectivas taxas": no income ground for reclaims.
    with _city(make_app) as profile:
        payer = _payer()
        reclaim = make_item(payer, kind="reclaim", description="Resgate do animal Rex")
        field, code, _message = _error(lambda: _ask(reclaim, payer, profile, code=LOW_INCOME))
        assert (field, code) == ("code", "invalid")
        _nothing_requested(reclaim)
        req = _ask(reclaim, payer, profile, code=UNEMPLOYED)
        assert (req.code, req.label, req.article) == (UNEMPLOYED, UNEMPLOYED_LABEL, "GRU 82 §3")
        assert _history(reclaim)[-1] == (
            "pending",
            "pending",
            "Pedido de isenção enviado (GRU 82 §3)",
            payer.id,
        )
        [event] = audit_events("payment.exemption_requested")
        assert event.detail == {"code": UNEMPLOYED, "article": "GRU 82 §3"}


def test_gru_23_no_exemption_for_a_second_copy(make_app) -> None:
    # GRU 23 exempts "ao fazerem o registro": the second copy of art. 22 II is paid.
    with _city(make_app) as profile:
        payer = _payer()
        item = make_item(payer, kind="card_copy", description="Segunda via da carteira")
        field, code, _message = _error(lambda: _ask(item, payer, profile))
        assert (field, code) == ("code", "invalid")
        _nothing_requested(item)


def test_vv_12_par3_programme_participant_and_no_guarulhos_grounds(make_app) -> None:
    # VV 12 §3: registration comes with the sterilisation/adoption programme; §4: others pay.
    with _city(make_app, "vilavelha") as profile:
        payer = _payer()
        item = make_item(payer)
        for foreign in (UNEMPLOYED, LOW_INCOME, "friend_of_the_mayor"):
            field, code, _message = _error(lambda c=foreign: _ask(item, payer, profile, code=c))
            assert (field, code) == ("code", "invalid")
        _nothing_requested(item)
        req = _ask(item, payer, profile, code=PROGRAMME)
        assert (req.code, req.label, req.article) == (PROGRAMME, PROGRAMME_LABEL, "VV 12 §3-4")
        assert _history(item)[-1][2] == "Pedido de isenção enviado (VV 12 §3-4)"
        [event] = audit_events("payment.exemption_requested")
        assert event.detail == {"code": PROGRAMME, "article": "VV 12 §3-4"}


@pytest.mark.parametrize("key", ["bjp", "cabo", "cabeceira"])
def test_bjp_cabo_cabeceira_laws_have_no_fee_exemption(make_app, key: str) -> None:
    # BJP 11, Cabo, Cabeceira: fees without any exemption article
    with _city(make_app, key) as profile:
        payer = _payer()
        item = make_item(payer)
        for code_asked in (UNEMPLOYED, LOW_INCOME, PROGRAMME):
            field, code, _message = _error(lambda c=code_asked: _ask(item, payer, profile, code=c))
            assert (field, code) == ("code", "invalid")
        _nothing_requested(item)


def test_gru_23_only_the_payer_may_ask(make_app) -> None:
    # GRU 23: the owner who pays the fee proves their own situation
    with _city(make_app) as profile:
        payer = _payer()
        neighbour = _payer(full_name="Vizinho Curioso")
        item = make_item(payer)
        field, code, message = _error(lambda: _ask(item, neighbour, profile))
        assert (field, code) == (None, "invalid")
        assert "Só quem deve" in message
        _nothing_requested(item)


@pytest.mark.parametrize(
    ("status", "label"),
    [
        ("paid", "pago"),
        ("exempt", "isento"),
        ("cancelled", "cancelado"),
        ("processing", "em processamento"),
        ("refunded", "estornado"),
    ],
)
def test_gru_23_no_request_on_an_item_that_is_not_payable(make_app, status, label) -> None:
    # GRU 23 dispenses a fee still owed: nothing to exempt once it is settled, cancelled or
    # being paid online
    with _city(make_app) as profile:
        payer = _payer()
        item = make_item(payer)
        item.status = status
        db.session.flush()
        field, code, message = _error(lambda: _ask(item, payer, profile))
        assert (field, code) == (None, "invalid")
        assert f"está {label}:" in message  # the item's status, in lower case
        assert _count(ExemptionRequest) == 0 and _count(StoredFile) == 0


def test_gru_23_a_failed_payment_may_still_be_exempted(make_app) -> None:
    # GRU 23: a boleto or card that failed leaves the fee owed, so the exemption is still asked
    with _city(make_app) as profile:
        payer = _payer()
        item = make_item(payer)
        item.status = "failed"
        db.session.flush()
        req = _ask(item, payer, profile)
        assert req.status == "pending" and item.status == "failed"
        assert _history(item)[-1] == (
            "failed",
            "failed",
            "Pedido de isenção enviado (GRU 23)",
            payer.id,
        )
        decide_exemption(req, accept=True, reason=None, actor=_staff())
        assert item.status == "exempt" and req.status == "accepted"
        assert _history(item)[-1][:2] == ("failed", "exempt")


def test_gru_23_one_request_at_a_time_and_a_new_one_after_a_refusal(make_app) -> None:
    # GRU 23: the owner may prove again with another document once a proof was refused
    with _city(make_app) as profile:
        payer = _payer()
        staff = _staff()
        item = make_item(payer)
        first = _ask(item, payer, profile)
        # while the first waits, no second one (not even on the other ground, not a bad code)
        for code_asked in (UNEMPLOYED, LOW_INCOME, "friend_of_the_mayor"):
            field, code, message = _error(lambda c=code_asked: _ask(item, payer, profile, code=c))
            assert (field, code) == (None, "invalid")
            assert "em análise" in message
        assert _count(ExemptionRequest) == 1 and _count(StoredFile) == 1
        decide_exemption(first, accept=False, reason="Sem a data da demissão.", actor=staff)
        assert item.open_exemption_request is None
        second = _ask(item, payer, profile, code=LOW_INCOME, data=png_bytes().getvalue())
        assert second is not first and second.status == "pending"
        assert (second.code, second.article) == (LOW_INCOME, "GRU 23")
        assert [r.status for r in item.exemption_requests] == ["refused", "pending"]
        assert item.open_exemption_request is second
        assert len(audit_events("payment.exemption_requested")) == 2


def test_gru_23_no_new_request_once_exempt(make_app) -> None:
    # GRU 23: the fee is dispensed once; an exempt item has nothing left to waive
    with _city(make_app) as profile:
        payer = _payer()
        item = make_item(payer)
        decide_exemption(_ask(item, payer, profile), accept=True, reason=None, actor=_staff())
        field, code, message = _error(lambda: _ask(item, payer, profile, code=LOW_INCOME))
        assert (field, code) == (None, "invalid")
        assert "está isento:" in message
        assert _count(ExemptionRequest) == 1


def test_gru_23_the_statement_is_trimmed_cut_at_2000_or_left_empty(make_app) -> None:
    # GRU 23 "comprovarem": the proof is the document; the statement is optional free text
    cases = [
        (None, None),
        ("", None),
        ("   \n ", None),
        ("x" * 1999, "x" * 1999),
        ("y" * 2000, "y" * 2000),
        ("z" * 2001, "z" * 2000),
        ("  " + "w" * 2000 + "  ", "w" * 2000),
    ]
    with _city(make_app) as profile:
        payer = _payer()
        for statement, expected in cases:
            item = make_item(payer)
            req = _ask(item, payer, profile, statement=statement)
            assert req.statement == expected, statement


def test_gru_23_a_photo_of_the_proof_is_re_encoded_and_kept_private(make_app) -> None:
    # GRU 23 "comprovarem": a photo of the document is accepted, stripped of its metadata
    with _city(make_app) as profile:
        payer = _payer()
        item = make_item(payer)
        req = _ask(item, payer, profile, data=png_bytes().getvalue(), filename="ctps/foto.png")
        proof = req.proof
        assert proof.id == req.proof_file_id
        assert proof.content_type == "image/jpeg"  # re-encoded, not kept as sent
        assert proof.purpose == "exemption_proof"
        assert proof.owner_id is None and proof.public is False
        assert proof.original_name == "foto.png"
        other = make_item(payer)
        unnamed = _ask(other, payer, profile, filename=None)
        assert unnamed.proof.original_name is None


def test_gru_23_a_proof_that_is_not_a_document_is_refused_on_the_proof_field(make_app) -> None:
    # GRU 23 "comprovarem": without an acceptable proof there is no request
    with _city(make_app) as profile:
        payer = _payer()
        item = make_item(payer)
        field, code, message = _error(
            lambda: _ask(item, payer, profile, data=b"MZ\x90\x00 executavel", filename="a.pdf")
        )
        assert (field, code) == ("proof", "invalid_upload")
        assert message == "Envie um PDF ou uma foto (JPEG, PNG, WebP ou HEIC) do documento."
        _nothing_requested(item)


# -- the staff's decision --------------------------------------------------------------------------


def test_gru_23_accepted_item_becomes_exempt_with_every_value(make_app) -> None:
    # GRU 23: "estarão dispensados de efetuar o pagamento": accepted, the item is exempt
    with _city(make_app) as profile:
        payer = _payer()
        staff = _staff()
        item = make_item(payer, amount_cents=12345, description="Registro do animal Rex (RGA)")
        req = _ask(item, payer, profile)
        before = utcnow()
        decide_exemption(req, accept=True, reason=None, actor=staff)
        after = utcnow()
        assert req.status == "accepted"
        assert before <= req.decided_at <= after
        assert req.decided_by_id == staff.id
        assert req.decision_reason is None  # no reason is needed to grant
        assert item.status == "exempt" and not item.payable
        assert item.open_exemption_request is None
        assert _history(item)[1:] == [
            ("pending", "pending", "Pedido de isenção enviado (GRU 23)", payer.id),
            ("pending", "exempt", "Isenção concedida (GRU 23)", staff.id),
        ]
        [event] = audit_events("payment.exemption_accepted")
        assert event.subject_type == "PaymentItem" and event.subject_id == str(item.id)
        assert event.detail == {"request_id": req.id, "code": UNEMPLOYED}
        assert event.actor_id == staff.id
        assert audit_events("payment.exemption_refused") == []
        db.session.commit()
        db.session.expire_all()
        stored = db.session.get(ExemptionRequest, req.id)
        assert stored.status == "accepted" and stored.decided_by_id == staff.id
        assert stored.decided_at is not None
        assert db.session.get(PaymentItem, item.id).status == "exempt"
        [mail] = _mails()
        assert mail.to == payer.email
        assert mail.subject == "Isenção concedida"
        body = mail.body
        assert "Maria" in body and "Pagadora" not in body  # first name only
        assert "Registro do animal Rex (RGA)" in body
        assert "R$ 123,45" in body
        assert item.formatted_reference in body
        assert "(GRU 23)" in body
        assert f"http://localhost/pagamentos/{item.id}\n" in body
        assert "None" not in body


def test_gru_23_a_note_given_with_a_grant_is_kept_trimmed(make_app) -> None:
    # GRU 23: granting needs no reason, but one given is kept (trimmed) and audited
    with _city(make_app) as profile:
        payer = _payer()
        staff = _staff()
        item = make_item(payer)
        req = _ask(item, payer, profile)
        decide_exemption(req, accept=True, reason="  CTPS conferida no balcão  ", actor=staff)
        assert req.decision_reason == "CTPS conferida no balcão"
        [event] = audit_events("payment.exemption_accepted")
        assert event.detail == {
            "request_id": req.id,
            "code": UNEMPLOYED,
            "reason": "CTPS conferida no balcão",
        }


@pytest.mark.parametrize("reason", [None, "", "   \n\t "])
def test_gru_23_a_refusal_needs_a_reason(make_app, reason) -> None:
    # GRU 23 "comprovarem": the applicant is told why the proof failed (and may prove again),
    # so a refusal without a reason is not taken
    with _city(make_app) as profile:
        payer = _payer()
        staff = _staff()
        item = make_item(payer)
        req = _ask(item, payer, profile)
        field, code, _message = _error(
            lambda: decide_exemption(req, accept=False, reason=reason, actor=staff)
        )
        assert (field, code) == ("reason", "invalid")
        assert req.status == "pending"
        assert (req.decided_at, req.decided_by_id, req.decision_reason) == (None,) * 3
        assert item.status == "pending" and len(item.events) == 2
        assert audit_events("payment.exemption_refused") == []
        assert _mails() == []


def test_gru_23_refused_item_stays_to_be_paid_and_the_reason_is_mailed(make_app) -> None:
    # GRU 23 not proven: the fee of art. 22 is owed as before
    with _city(make_app) as profile:
        payer = _payer()
        staff = _staff()
        item = make_item(payer, amount_cents=2500)
        req = _ask(item, payer, profile)
        before = utcnow()
        decide_exemption(
            req, accept=False, reason="  O documento não mostra a demissão.  ", actor=staff
        )
        after = utcnow()
        assert req.status == "refused"
        assert before <= req.decided_at <= after
        assert req.decided_by_id == staff.id
        assert req.decision_reason == "O documento não mostra a demissão."
        assert item.status == "pending" and item.payable
        assert _history(item)[-1] == (
            "pending",
            "pending",
            "Isenção recusada: O documento não mostra a demissão.",
            staff.id,
        )
        [event] = audit_events("payment.exemption_refused")
        assert event.subject_type == "PaymentItem" and event.subject_id == str(item.id)
        assert event.detail == {
            "request_id": req.id,
            "code": UNEMPLOYED,
            "reason": "O documento não mostra a demissão.",
        }
        assert event.actor_id == staff.id
        assert audit_events("payment.exemption_accepted") == []
        [mail] = _mails()
        assert mail.to == payer.email
        assert mail.subject == "Pedido de isenção recusado"
        body = mail.body
        assert "(GRU 23)" in body
        assert "\nO documento não mostra a demissão.\n" in body
        assert "Maria" in body and "Pagadora" not in body
        assert "R$ 25,00" in body and item.formatted_reference in body
        assert f"http://localhost/pagamentos/{item.id}\n" in body


def test_gru_23_a_long_refusal_reason_is_cut_at_200_in_the_audit_only(make_app) -> None:
    # GRU 23 refusal: the audit trail keeps 200 characters; the applicant gets the whole reason
    reason = ("Falta a página da baixa na carteira de trabalho. " * 6)[:250].strip()
    assert len(reason) > 201
    with _city(make_app) as profile:
        payer = _payer()
        staff = _staff()
        item = make_item(payer)
        req = _ask(item, payer, profile)
        decide_exemption(req, accept=False, reason=reason, actor=staff)
        assert req.decision_reason == reason
        [event] = audit_events("payment.exemption_refused")
        assert event.detail["reason"] == reason[:200] and len(event.detail["reason"]) == 200
        [mail] = _mails()
        assert reason in mail.body


@pytest.mark.parametrize("first", ["accept", "refuse", "closed"])
def test_gru_23_a_decided_request_is_not_decided_again(make_app, first) -> None:
    # GRU 23: one decision per proof; a closed request (fee paid meanwhile) is not reopened
    with _city(make_app) as profile:
        payer = _payer()
        staff = _staff()
        other_staff = _staff()
        item = make_item(payer)
        req = _ask(item, payer, profile)
        if first == "closed":  # the item was paid at the counter meanwhile
            close_exemption_requests(item)
            assert req.status == "closed"
        else:
            decide_exemption(req, accept=first == "accept", reason="Motivo.", actor=staff)
        status, decided_at, decided_by = req.status, req.decided_at, req.decided_by_id
        item_status, events = item.status, len(item.events)
        mails = len(_mails())
        for accept in (True, False):
            field, code, _message = _error(
                lambda a=accept: decide_exemption(
                    req, accept=a, reason="De novo.", actor=other_staff
                )
            )
            assert (field, code) == (None, "invalid")
        assert (req.status, req.decided_at, req.decided_by_id) == (status, decided_at, decided_by)
        assert item.status == item_status and len(item.events) == events
        assert len(_mails()) == mails
        assert len(audit_events("payment.exemption_accepted")) == (first == "accept")
        assert len(audit_events("payment.exemption_refused")) == (first == "refuse")


def test_gru_23_no_mail_for_an_applicant_without_an_address(make_app) -> None:
    # GRU 23: the decision stands even when the applicant cannot be told by e-mail
    with _city(make_app) as profile:
        payer = _payer(email=None)
        staff = _staff()
        item = make_item(payer)
        req = _ask(item, payer, profile)
        decide_exemption(req, accept=True, reason=None, actor=staff)
        assert item.status == "exempt" and req.status == "accepted"
        assert len(audit_events("payment.exemption_accepted")) == 1
        assert _mails() == []


@pytest.mark.parametrize("accept", [True, False], ids=["accept", "refuse"])
def test_gru_23_the_decision_mail_is_in_portuguese_whatever_the_staff_language(
    make_app, accept
) -> None:
    # GRU 23: the applicant reads Portuguese even when the agent deciding uses the portal in English
    with _city(make_app, lang="en") as profile:
        payer = _payer()
        item = make_item(payer)
        req = _ask(item, payer, profile)
        decide_exemption(req, accept=accept, reason="Ilegível.", actor=_staff())
        [mail] = _mails()
        assert mail.subject == ("Isenção concedida" if accept else "Pedido de isenção recusado")
        assert mail.body.startswith("Olá, Maria.")
        assert "Centro de Controle de Zoonoses" in mail.body


@pytest.mark.parametrize(
    ("key", "kind", "code", "article"),
    [
        ("guarulhos", "registration", LOW_INCOME, "GRU 23"),  # GRU 23, second ground
        ("guarulhos", "reclaim", UNEMPLOYED, "GRU 82 §3"),  # GRU 82 §3
        ("vilavelha", "registration", PROGRAMME, "VV 12 §3-4"),  # VV 12 §3-4
    ],
    ids=["gru-23-income", "gru-82-par3", "vv-12-par3"],
)
@pytest.mark.parametrize("accept", [True, False], ids=["accept", "refuse"])
def test_gru_23_82_par3_vv_12_the_decision_cites_the_article_asked_under(
    make_app, key, kind, code, article, accept
) -> None:
    # GRU 23 (income), GRU 82 §3 (reclaim), VV 12 §3-4: the article of the ground asked under
    with _city(make_app, key) as profile:
        payer = _payer()
        staff = _staff()
        item = make_item(payer, kind=kind)
        req = _ask(item, payer, profile, code=code)
        decide_exemption(req, accept=accept, reason="Comprovante vencido.", actor=staff)
        action = "payment.exemption_accepted" if accept else "payment.exemption_refused"
        [event] = audit_events(action)
        reason = "Comprovante vencido."
        assert event.detail == {"request_id": req.id, "code": code, "reason": reason}
        if accept:
            assert _history(item)[-1] == (
                "pending",
                "exempt",
                f"Isenção concedida ({article})",
                staff.id,
            )
        else:
            assert _history(item)[-1][1] == "pending"
        [mail] = _mails()
        assert f"({article})" in mail.body


# -- online checkout pages -------------------------------------------------------------------------


def _open_page(item: PaymentItem, session_id: str) -> CheckoutSession:
    page = CheckoutSession(
        item=item,
        stripe_session_id=session_id,
        url=f"https://checkout.stripe.com/c/pay/{session_id}",
        amount_cents=item.amount_cents,
        status="open",
        expires_at=utcnow() + timedelta(hours=20),
    )
    db.session.add(page)
    db.session.flush()
    return page


def _expired(stub: Any) -> list[str]:
    return [r["path"].split("/")[4] for r in stub.requests if r["path"].endswith("/expire")]


def test_gru_23_grant_closes_the_open_stripe_page_and_a_refusal_does_not(
    stripe_app, stripe_stub
) -> None:
    # Exempt means nothing to pay: a Stripe page left open must not take the money (GRU 23)
    profile = stripe_app.extensions["portal_profile"]
    with stripe_app.test_request_context():
        payer = _payer()
        staff = _staff()
        granted = make_item(payer)
        refused = make_item(payer)
        granted_page = _open_page(granted, "cs_test_exempt_granted")
        refused_page = _open_page(refused, "cs_test_exempt_refused")
        decide_exemption(_ask(granted, payer, profile), accept=True, reason=None, actor=staff)
        assert _expired(stripe_stub) == ["cs_test_exempt_granted"]
        assert granted_page.status == "expired"
        assert [e.note for e in granted.events][-2:] == [
            "Isenção concedida (GRU 23)",
            "Página de pagamento online anterior encerrada",
        ]
        decide_exemption(_ask(refused, payer, profile), accept=False, reason="Não.", actor=staff)
        assert _expired(stripe_stub) == ["cs_test_exempt_granted"]
        assert refused_page.status == "open"
        assert refused.status == "pending"
