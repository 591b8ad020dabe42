"""The one view helper (``portal.views.run_service``, issue 9), its API twin (issue 28) and the
domain errors they show: every error of licences, reports and billing is a
``DomainError(field, code, message)``."""

from __future__ import annotations

import pytest
from flask import get_flashed_messages
from sqlalchemy import select
from sqlalchemy.exc import IntegrityError
from wtforms import Form, StringField

from portal.blueprints.api.errors import ApiError, run_api_service
from portal.blueprints.billing.services import BillingError
from portal.blueprints.licences.services import LicenceError, LicenceErrors
from portal.blueprints.reports.services import IllegalMove, ReportErrors
from portal.domain import DomainError
from portal.extensions import db
from portal.models import User
from portal.views import api_errors, problems, run_service
from tests import factories


class NameForm(Form):
    name = StringField()
    note = StringField()


def _raise(err: DomainError) -> None:
    raise err


def _names() -> list[str]:
    return list(db.session.scalars(select(User.full_name)))


def test_success_commits_and_flashes_the_confirmation(app) -> None:
    with app.test_request_context():
        done = run_service(
            lambda: factories.user(full_name="Clara Commit"),
            success=lambda user: f"Cadastro de {user.full_name}",
        )
        assert done.ok and done.value is not None
        assert get_flashed_messages(with_categories=True) == [
            ("success", "Cadastro de Clara Commit")
        ]
    db.session.rollback()  # what was committed stays
    assert "Clara Commit" in _names()


def test_a_domain_error_rolls_back_and_shows_next_to_the_field(app) -> None:
    def fails() -> None:
        factories.user(full_name="Rui Rollback")
        raise BillingError("name", "invalid", "Nome recusado.")

    with app.test_request_context():
        form = NameForm()
        done = run_service(fails, form=form, success="nunca")
        assert not done.ok and done.error is not None and done.error.code == "invalid"
        assert form.name.errors == ["Nome recusado."]
        assert get_flashed_messages() == []  # neither the error nor the confirmation
    assert "Rui Rollback" not in _names()


def test_an_error_without_a_field_on_the_form_goes_to_the_fallback_or_a_flash(app) -> None:
    error = ReportErrors([("where", "where", "Diga onde."), ("name", "required", "Seu nome.")])
    with app.test_request_context():
        form = NameForm()
        run_service(lambda: _raise(error), form=form, fallback="note")
        assert form.note.errors == ["Diga onde."] and form.name.errors == ["Seu nome."]
        run_service(lambda: _raise(IllegalMove("Não permitido.")), form=NameForm())
        assert get_flashed_messages(with_categories=True) == [("danger", "Não permitido.")]


def test_errors_the_template_lists_go_into_the_dict_the_view_passes(app) -> None:
    several = LicenceErrors(
        [
            LicenceError("animal-7", "not_confirmed", "Confirme o animal 7."),
            LicenceError("name", "required", "Informe o nome."),
        ]
    )
    errors: dict[str, list[str]] = {}
    with app.test_request_context():
        form = NameForm()
        run_service(lambda: _raise(several), form=form, errors=errors)
        assert errors == {"animal-7": ["Confirme o animal 7."]}
        assert form.name.errors == ["Informe o nome."]
        assert get_flashed_messages() == []


def test_anything_but_a_domain_error_is_a_bug_and_is_not_swallowed(app) -> None:
    with app.test_request_context(), pytest.raises(ZeroDivisionError):
        run_service(lambda: 1 // 0)


def test_every_error_of_these_domains_is_a_domain_error_with_its_code() -> None:
    billing = BillingError(None, "stripe_disabled", "Sem pagamento online.")
    moves = IllegalMove("Não permitido.")
    report = ReportErrors([("category", "category", "Escolha."), ("seen_on", "future", "Data.")])
    for err in (billing, moves, report, LicenceError(None, "not_open", "Decidido.")):
        assert isinstance(err, DomainError)
    assert (moves.field, moves.code, moves.message) == (None, "illegal_move", "Não permitido.")
    assert (report.field, report.code) == ("category", "category")  # the first problem
    assert [p.code for p in problems(report)] == ["category", "future"]
    assert api_errors(billing) == [
        {"field": None, "code": "stripe_disabled", "message": "Sem pagamento online."}
    ]


def test_categories_a_warning_that_no_field_takes_and_an_info_confirmation(app) -> None:
    with app.test_request_context():
        run_service(
            lambda: _raise(BillingError("elsewhere", "late", "Prazo encerrado.")),
            form=NameForm(),
            error_category="warning",
        )
        run_service(lambda: None, success="Baixa registrada.", success_category="info")
        assert get_flashed_messages(with_categories=True) == [
            ("warning", "Prazo encerrado."),
            ("info", "Baixa registrada."),
        ]


def test_before_rollback_runs_while_the_failed_call_rows_still_exist(app) -> None:
    seen: list[list[str]] = []

    def fails() -> None:
        factories.user(full_name="Foto Pendente")
        db.session.flush()
        raise BillingError("photos", "invalid", "Foto recusada.")

    with app.test_request_context():
        done = run_service(fails, before_rollback=lambda: seen.append(_names()))
    assert not done.ok
    assert "Foto Pendente" in seen[0]  # the clean-up saw the row the call had written
    assert "Foto Pendente" not in _names()  # and then it was rolled back


def _taken_cpf() -> str:
    """A CPF already in the table (committed), so that a second person with it is a conflict."""
    first = factories.user(full_name="Primeira Pessoa")
    db.session.commit()
    return first.cpf


def test_on_conflict_answers_a_unique_key_taken_first_after_the_rollback(app) -> None:
    cpf = _taken_cpf()
    with app.test_request_context():
        done = run_service(
            lambda: factories.user(full_name="Segunda Pessoa", cpf=cpf),
            on_conflict=lambda: "a outra",
            success=lambda value: f"feito: {value}",
        )
        assert done.ok and done.value == "a outra"
        assert get_flashed_messages() == ["feito: a outra"]
    assert "Segunda Pessoa" not in _names() and "Primeira Pessoa" in _names()


def test_on_conflict_may_refuse_with_a_domain_error_shown_like_the_call_s(app) -> None:
    cpf = _taken_cpf()

    def taken() -> None:
        raise BillingError("name", "taken", "Alguém chegou antes.")

    with app.test_request_context():
        form = NameForm()
        done = run_service(
            lambda: factories.user(full_name="Segunda Pessoa", cpf=cpf),
            form=form,
            on_conflict=taken,
        )
        assert done.error is not None and done.error.code == "taken"
        assert form.name.errors == ["Alguém chegou antes."]
    assert "Segunda Pessoa" not in _names()


def test_without_on_conflict_a_unique_key_taken_is_not_swallowed(app) -> None:
    cpf = _taken_cpf()

    def second() -> None:
        factories.user(cpf=cpf)
        db.session.flush()

    with app.test_request_context(), pytest.raises(IntegrityError):
        run_service(second)
    db.session.rollback()


def test_the_api_twin_commits_or_rolls_back_and_answers_the_errors_list(app) -> None:
    with app.test_request_context():
        assert run_api_service(lambda: factories.user(full_name="Via API").full_name) == "Via API"

        def refused() -> None:
            factories.user(full_name="API Recusada")
            raise ReportErrors([("where", "where", "Diga onde."), ("name", "required", "Nome.")])

        with pytest.raises(ApiError) as raised:
            run_api_service(refused, status=409)
        assert raised.value.status == 409
        assert raised.value.errors == [
            {"field": "where", "code": "where", "message": "Diga onde."},
            {"field": "name", "code": "required", "message": "Nome."},
        ]
        assert get_flashed_messages() == []  # the API never flashes

        def body_refused() -> None:
            factories.user(full_name="Corpo Recusado")
            raise ApiError([{"field": "animal", "code": "required", "message": "Falta."}])

        with pytest.raises(ApiError) as passed:
            run_api_service(body_refused)
        assert passed.value.errors[0]["code"] == "required"  # answered as it was raised
    names = _names()
    assert "Via API" in names and "API Recusada" not in names and "Corpo Recusado" not in names
