"""Which earlier penalties make an offence a repeat (GRU 79: "dentro do período de três anos, o
infrator tornar a incidir em infração do mesmo tipo e enquadramento legal").

The window itself (three years, prescription) is the fee service's and is tested in
tests/unit/test_fees_edges.py; here: same offender, a penalty that stands, the same provision,
committed on or before this offence's day (in São Paulo time)."""

from __future__ import annotations

from datetime import UTC, datetime
from itertools import count

import pytest

from portal.blueprints.enforcement.repeats import previous_offences, provision_key
from portal.extensions import db
from portal.models import EnforcementDocument, EnforcementKind, EnforcementStatus
from tests import factories

CPF = "52998224725"
OTHER_CPF = "11144477735"
CNPJ = "11222333000181"
_numbers = count(1)


@pytest.fixture
def agent(app):
    user = factories.user(roles=("agent",))
    db.session.commit()
    return user


def _doc(
    agent,
    *,
    on,
    cpf=CPF,
    cnpj=None,
    kind=EnforcementKind.PENALTY,
    status=EnforcementStatus.FINAL,
    provision="GRU 37",
):
    n = next(_numbers)
    doc = EnforcementDocument(
        number=f"2026-{n:06d}",
        year=2026,
        sequence=n,
        kind=kind,
        status=status,
        addressee_name="Rui Autuado",
        addressee_cpf=cpf,
        addressee_cnpj=cnpj,
        fact="Cão acorrentado sem abrigo",
        place="Rua A, 10",
        occurred_at=on,
        legal_provision=provision,
        agent_id=agent.id,
        agent_title="Agente sanitário",
    )
    db.session.add(doc)
    db.session.flush()
    return doc


def _at(day, hour=13):
    return datetime(2026, 11, day, hour, 0, tzinfo=UTC)


def _days(result):
    return [d.isoformat() for d in result]


def test_gru_79_same_offender_same_provision_earlier_penalty_is_a_repeat(agent):
    _doc(agent, on=_at(2))
    _doc(agent, on=_at(9))
    new = _doc(agent, on=_at(20), kind=EnforcementKind.INFRACTION, status=EnforcementStatus.ISSUED)
    assert _days(previous_offences(new)) == ["2026-11-02", "2026-11-09"]


def test_gru_79_another_provision_is_not_the_same_enquadramento(agent):
    _doc(agent, on=_at(2), provision="GRU 38")
    new = _doc(agent, on=_at(20), status=EnforcementStatus.ISSUED)
    assert previous_offences(new) == []


def test_gru_79_provision_written_differently_is_the_same_provision(agent):
    _doc(agent, on=_at(2), provision="art. 70,  i")
    new = _doc(agent, on=_at(20), provision="Art. 70, I", status=EnforcementStatus.ISSUED)
    assert _days(previous_offences(new)) == ["2026-11-02"]
    assert provision_key("Art. 70,I") == provision_key(" ART.  70 I ") == "ART. 70 I"
    assert provision_key("Art. 70 I") != provision_key("Art. 701")


def test_gru_79_another_persons_penalty_does_not_count(agent):
    _doc(agent, on=_at(2), cpf=OTHER_CPF)
    new = _doc(agent, on=_at(20), status=EnforcementStatus.ISSUED)
    assert previous_offences(new) == []


def test_gru_79_establishment_is_searched_by_its_cnpj(agent):
    _doc(agent, on=_at(2), cpf=None, cnpj=CNPJ)
    _doc(agent, on=_at(3), cpf=None, cnpj="11444777000161")  # another establishment
    _doc(agent, on=_at(4))  # a person's penalty, no CNPJ
    new = _doc(agent, on=_at(20), cpf=None, cnpj=CNPJ, status=EnforcementStatus.ISSUED)
    assert _days(previous_offences(new)) == ["2026-11-02"]


def test_gru_79_a_person_is_searched_by_cpf_even_when_a_cnpj_is_noted(agent):
    _doc(agent, on=_at(2), cpf=CPF, cnpj=None)
    _doc(agent, on=_at(3), cpf=OTHER_CPF, cnpj=CNPJ)
    new = _doc(agent, on=_at(20), cpf=CPF, cnpj=CNPJ, status=EnforcementStatus.ISSUED)
    assert _days(previous_offences(new)) == ["2026-11-02"]


def test_gru_96_offender_served_by_edital_without_cpf_or_cnpj_has_no_record(agent):
    _doc(agent, on=_at(2), cpf=None, cnpj=None)
    new = _doc(agent, on=_at(20), cpf=None, cnpj=None, status=EnforcementStatus.ISSUED)
    assert previous_offences(new) == []


@pytest.mark.parametrize(
    ("status", "counts"),
    [
        (EnforcementStatus.OPEN, True),
        (EnforcementStatus.UPHELD, True),
        (EnforcementStatus.FINAL, True),
        (EnforcementStatus.ISSUED, False),  # never served: the offender does not know of it
        (EnforcementStatus.UNDER_REVIEW, False),  # a defence or appeal may still cancel it
        (EnforcementStatus.CANCELLED, False),  # GRU 105 §1: granted petition
    ],
)
def test_gru_79_only_a_standing_penalty_is_a_previous_offence(agent, status, counts):
    _doc(agent, on=_at(2), status=status)
    new = _doc(agent, on=_at(20), status=EnforcementStatus.ISSUED)
    assert _days(previous_offences(new)) == (["2026-11-02"] if counts else [])


@pytest.mark.parametrize(
    "kind",
    [EnforcementKind.INFRACTION, EnforcementKind.PRELIMINARY],
)
def test_gru_79_only_a_penalty_counts_not_a_notice(agent, kind):
    _doc(agent, on=_at(2), kind=kind)
    new = _doc(agent, on=_at(20), status=EnforcementStatus.ISSUED)
    assert previous_offences(new) == []


def test_gru_79_a_later_offence_is_not_a_previous_one_but_the_same_day_is(agent):
    _doc(agent, on=_at(21))  # committed after this one (recorded later by another agent)
    _doc(agent, on=_at(20, hour=10))  # earlier the same day
    new = _doc(agent, on=_at(20, hour=18), status=EnforcementStatus.ISSUED)
    assert _days(previous_offences(new)) == ["2026-11-20"]


def test_gru_79_days_are_sao_paulo_days(agent):
    # 21 Nov 01:30 UTC is 20 Nov 22:30 in São Paulo (UTC-3): the same day as the new offence.
    _doc(agent, on=datetime(2026, 11, 21, 1, 30, tzinfo=UTC))
    # 21 Nov 03:30 UTC is 21 Nov 00:30 in São Paulo: the day after.
    _doc(agent, on=datetime(2026, 11, 21, 3, 30, tzinfo=UTC))
    new = _doc(agent, on=_at(20, hour=18), status=EnforcementStatus.ISSUED)
    assert _days(previous_offences(new)) == ["2026-11-20"]


def test_gru_79_the_penalty_being_priced_is_not_its_own_previous_offence(agent):
    own = _doc(agent, on=_at(20), status=EnforcementStatus.OPEN)
    assert previous_offences(own) == []
    unsaved = EnforcementDocument(
        addressee_cpf=CPF, legal_provision="GRU 37", occurred_at=_at(20), kind="penalty"
    )
    assert _days(previous_offences(unsaved)) == ["2026-11-20"]
