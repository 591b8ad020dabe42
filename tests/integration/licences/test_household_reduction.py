"""BJP 17 §1: "este número poderá ser reduzido, a partir de laudo técnico e intimação do agente".

Staff lower one residence's limit with the technical report attached; the household is told by
e-mail, sees the number and the report on "Meus animais" and in its to-do list; the household
check refuses above the reduced number (the exact number passes) and cites the report and the
article. A city whose law has no such rule (Guarulhos) sees nothing of it."""

from __future__ import annotations

import io
from datetime import date, timedelta

import pytest
from sqlalchemy import select

from portal.blueprints.animals import services as animals
from portal.blueprints.animals.household import household_notes
from portal.blueprints.licences import reduction, services
from portal.blueprints.licences.common import LicenceError
from portal.extensions import db
from portal.models import AuditEvent, OutboxMessage, ReducedHouseholdLimit
from portal.services.clock import local_today
from portal.services.todo import citizen_todo
from tests import factories
from tests.integration.licences.test_licence_rules import adult, profile_of

REPORT_DAY = date(2026, 11, 20)


def _pdf() -> io.BytesIO:
    return io.BytesIO(b"%PDF-1.4\n% laudo tecnico\n")


def _reduce(prof, first, n: int = 5, **changes):  # type: ignore[no-untyped-def]
    values: dict[str, object] = dict(
        max_animals=n,
        report=_pdf(),
        report_name="laudo.pdf",
        report_on=REPORT_DAY,
        reason="Quintal de 20 m², sem abrigo para todos.",
        staff=factories.user(roles=("agent",)),
        today=local_today(prof),
    )
    values.update(changes)
    return reduction.set_reduced_limit(prof, first, **values)  # type: ignore[arg-type]


def _error(call, *args, **kwargs) -> LicenceError:  # type: ignore[no-untyped-def]
    with pytest.raises(LicenceError) as err:
        call(*args, **kwargs)
    return err.value


@pytest.fixture
def bjp(make_app):  # type: ignore[no-untyped-def]
    with profile_of(make_app, "bjp") as prof:
        yield prof


def test_bjp_17_1_the_reduced_number_is_allowed_one_more_is_refused_citing_the_report(bjp) -> None:
    owner = factories.user()
    pets = [adult(owner) for _ in range(4)]
    today = local_today(bjp)
    animals.check_household_limit(bjp, owner, extra=2, on=today)  # 6: fine under the plain 10
    cut = _reduce(bjp, pets[0], 5)
    animals.check_household_limit(bjp, owner, extra=1, on=today)  # 5: exactly the reduced limit
    with pytest.raises(animals.HouseholdLimitExceeded) as err:
        animals.check_household_limit(bjp, owner, extra=2, on=today)  # 6 > 5
    refusal = err.value
    assert refusal.code == "household_limit" and refusal.licence_url is None
    assert refusal.article == "BJP 17 §1"
    assert f"laudo técnico nº {cut.id}, de 20/11/2026" in refusal.message
    assert "reduzido para 5" in refusal.message and "(BJP 17 §1)" in refusal.message
    allowance = services.household_allowance(bjp, pets[0].residence_key, today)
    assert allowance is not None and (allowance.limit, allowance.reduction) == (5, cut)


def test_bjp_17_1_the_report_is_stored_audited_and_the_household_is_mailed(bjp) -> None:
    owner, neighbour = factories.user(), factories.user()
    first = adult(owner)
    cut = _reduce(bjp, first, 3)
    assert (cut.report.purpose, cut.report.public, cut.report.original_name) == (
        reduction.REPORT_PURPOSE,
        False,
        "laudo.pdf",
    )
    assert (cut.max_animals, cut.report_on, cut.residence_key) == (
        3,
        REPORT_DAY,
        first.residence_key,
    )
    (mail,) = db.session.scalars(select(OutboxMessage).where(OutboxMessage.to == owner.email))
    assert "de 10 para 3" in mail.body and "20/11/2026" in mail.body and "BJP 17 §1" in mail.body
    assert not db.session.scalars(
        select(OutboxMessage).where(OutboxMessage.to == neighbour.email)
    ).all()
    event = db.session.scalar(
        select(AuditEvent).where(AuditEvent.action == "household.limit_reduced")
    )
    assert event is not None and event.detail == {"max_animals": 3, "report_id": cut.report.id}
    assert reduction.report_file_rule(owner, cut.report)
    assert not reduction.report_file_rule(neighbour, cut.report)


@pytest.mark.parametrize(
    ("changes", "field", "code"),
    [
        ({"max_animals": 10}, "max_animals", "reduction_range"),  # the plain limit: no reduction
        ({"max_animals": -1}, "max_animals", "reduction_range"),
        ({"max_animals": None}, "max_animals", "reduction_range"),
        ({"report": None}, "report", "report_required"),
        ({"report": io.BytesIO(b"")}, "report", "invalid_file"),
        ({"report_on": None}, "report_on", "report_date"),
        ({"reason": "  "}, "reason", "required"),
    ],
)
def test_bjp_17_1_each_input_is_checked(bjp, changes, field, code) -> None:
    first = adult(factories.user())
    if "report_on" not in changes:
        changes = {**changes}
    err = _error(_reduce, bjp, first, **changes)
    assert (err.field, err.code) == (field, code)
    assert reduction.in_force(first.residence_key) is None


def test_bjp_17_1_a_report_dated_after_today_is_refused_today_and_9_are_accepted(bjp) -> None:
    first = adult(factories.user())
    today = local_today(bjp)
    err = _error(_reduce, bjp, first, report_on=today + timedelta(days=1))
    assert (err.field, err.code) == ("report_on", "report_date")
    assert _reduce(bjp, first, 9, report_on=today).max_animals == 9  # one below the plain 10


def test_bjp_17_1_a_new_report_replaces_the_old_and_lifting_restores_the_plain_limit(bjp) -> None:
    owner = factories.user()
    pets = [adult(owner) for _ in range(6)]
    today, key = local_today(bjp), pets[0].residence_key
    old = _reduce(bjp, pets[0], 4)
    new = _reduce(bjp, pets[0], 7)
    assert old.lifted_at is not None and reduction.in_force(key) == new
    animals.check_household_limit(bjp, owner, extra=1, on=today)  # 7
    staff = factories.user(roles=("coordinator",))
    reduction.lift_reduced_limit(new, staff, profile=bjp, reason="Nova vistoria: quintal ampliado.")
    assert reduction.in_force(key) is None
    assert services.household_allowance(bjp, key, today).limit == 10  # type: ignore[union-attr]
    err = _error(reduction.lift_reduced_limit, new, staff, profile=bjp, reason="de novo")
    assert err.code == "already_lifted"


def test_bjp_17_1_the_staff_queue_lists_a_residence_above_its_reduced_number(bjp) -> None:
    owner = factories.user()
    pets = [adult(owner) for _ in range(6)]
    today = local_today(bjp)
    queue = services.households_above_limit(bjp, today)
    assert pets[0].id not in {a.id for a in db.session.scalars(queue)}  # 6 of 10
    _reduce(bjp, pets[0], 6)
    assert pets[0].id not in {a.id for a in db.session.scalars(queue)}  # 6 of 6: at the limit
    _reduce(bjp, pets[0], 5)
    assert pets[0].id in {a.id for a in db.session.scalars(queue)}  # 6 of 5


def test_bjp_17_1_the_household_sees_the_number_the_report_and_a_to_do(bjp) -> None:
    owner = factories.user()
    pets = [adult(owner) for _ in range(6)]
    assert household_notes(bjp, owner) == []
    cut = _reduce(bjp, pets[0], 5)
    (note,) = household_notes(bjp, owner)
    assert note.reduction == cut and note.article == "BJP 17 §1"
    assert "de 10 para 5" in note.text and "20/11/2026" in note.text
    (todo,) = [item for item in citizen_todo(owner) if item.kind == "household_reduction"]
    assert "6 cães e gatos" in todo.text and "reduzido para 5" in todo.text
    assert todo.url.endswith("#residencia")


def test_bjp_17_1_my_animals_page_and_staff_form_end_to_end(make_app) -> None:
    app = make_app(PORTAL_PROFILE="bjp")
    client = app.test_client()
    with app.app_context(), app.test_request_context():
        owner = factories.user()
        pets = [adult(owner) for _ in range(6)]
        agent = factories.user(roles=("agent",))
        db.session.commit()
        from tests.conftest import AuthActions

        auth = AuthActions(client)
        auth.login(owner)
        url = f"/ccz/licencas/residencias/{pets[0].id}/reducao"
        form = {
            "max_animals": "5",
            "report_on": "2026-11-20",
            "reason": "Espaço insuficiente para seis cães.",
        }
        assert client.post(url, data=form).status_code in (302, 403)
        assert reduction.in_force(pets[0].residence_key) is None  # a citizen cannot
        auth.logout()
        auth.login(agent)
        page = client.get(f"/ccz/licencas/residencias/{pets[0].id}").get_data(as_text=True)
        assert "Reduzir o limite" in page and "BJP 17 §1" in page
        missing = client.post(url, data=form).get_data(as_text=True)
        assert "Anexe o laudo técnico." in missing and "Espaço insuficiente" in missing
        sent = client.post(
            url,
            data={**form, "report": (io.BytesIO(b"%PDF-1.4 laudo"), "laudo.pdf")},
            content_type="multipart/form-data",
        )
        assert sent.status_code == 302
        cut = db.session.scalar(select(ReducedHouseholdLimit))
        assert cut is not None and cut.max_animals == 5
        auth.logout()
        auth.login(owner)
        mine = client.get("/animais/").get_data(as_text=True)
        assert "Sua residência" in mine and "de 10 para 5" in mine and cut.report.token in mine
        served = client.get(f"/arquivos/{cut.report.token}/original")
        assert served.status_code == 200
        served.close()
        auth.logout()
        auth.login(factories.user())  # a neighbour
        other = client.get(f"/arquivos/{cut.report.token}/original")
        assert other.status_code in (403, 404)
        other.close()


def test_bjp_17_1_a_city_without_the_rule_sees_nothing(gru) -> None:
    owner = factories.user()
    pets = [adult(owner) for _ in range(4)]
    err = _error(_reduce, gru, pets[0], 2)
    assert err.code == "not_in_law"
    # a row left in the database (a profile changed later) does not bind Guarulhos
    stored = factories.user()  # any user id for set_by
    db.session.add(
        ReducedHouseholdLimit(
            residence_key=pets[0].residence_key,
            address_line="x",
            max_animals=1,
            report=_stored_pdf(stored),
            report_on=REPORT_DAY,
            reason="x",
            set_by_id=stored.id,
        )
    )
    db.session.flush()
    animals.check_household_limit(gru, owner, extra=1, on=local_today(gru))  # 5 of GRU's 5
    assert reduction.reduced_limit(gru, pets[0].residence_key) is None
    assert household_notes(gru, owner) == []
    assert not [i for i in citizen_todo(owner) if i.kind == "household_reduction"]


def _stored_pdf(owner):  # type: ignore[no-untyped-def]
    from portal.services.uploads import store_document

    return store_document(_pdf(), purpose=reduction.REPORT_PURPOSE, owner_id=owner.id)


def test_bjp_17_1_guarulhos_has_no_reduction_form_nor_route(app, client, auth) -> None:
    first = adult(factories.user())
    db.session.commit()
    auth.login(roles=("coordinator",))
    page = client.get(f"/ccz/licencas/residencias/{first.id}").get_data(as_text=True)
    assert "Reduzir o limite" not in page and "Limite reduzido" not in page
    sent = client.post(
        f"/ccz/licencas/residencias/{first.id}/reducao",
        data={"max_animals": "2", "report_on": "2026-11-20", "reason": "x"},
    )
    assert sent.status_code == 404


def test_bjp_17_1_the_queue_keeps_the_plain_limit_for_residences_without_a_report(bjp) -> None:
    today = local_today(bjp)
    near, over = factories.user(), factories.user()
    near_pets = [adult(near) for _ in range(10)]  # 10 of 10, registered first
    over_pets = [adult(over) for _ in range(11)]  # 11 of 10, with no report
    assert near_pets[0].residence_key != over_pets[0].residence_key
    queue = services.households_above_limit(bjp, today)
    assert {a.id for a in db.session.scalars(queue)} == {over_pets[0].id}


def test_bjp_17_1_the_household_note_names_the_report_day_and_its_reason(bjp) -> None:
    owner = factories.user()
    pets = [adult(owner) for _ in range(3)]
    _reduce(bjp, pets[0], 2)
    (note,) = household_notes(bjp, owner)
    assert note.text == (
        "O limite de cães e gatos com mais de 90 dias na sua residência foi reduzido de 10 para "
        "2 pelo laudo técnico de 20/11/2026. Motivo: Quintal de 20 m², sem abrigo para todos."
    )
