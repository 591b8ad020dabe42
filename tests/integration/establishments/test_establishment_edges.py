"""Edges of the cadastro zoossanitário (GRU 11-13) and of the accreditation to register animals
(GRU 14 §1-2; BJP 2): the first and last day of a term, renewals anchored on the first issue, the
renewal window's first and last day (weekends, national, state and municipal holidays), what each
input check names, which status allows which action, what each action stores, audits and mails,
and which tokens and establishments count as accredited on a given day.

Every expected date is worked by hand in a comment: a one-year term is the same date next year
(DOMAIN §10), the window opens 60 days before expiry and its last day moves to the next business
day (GRU 11 §3 with GRU 114 §ú)."""

from __future__ import annotations

import dataclasses
import re
from datetime import date, timedelta

import pytest
from flask_babel import force_locale
from sqlalchemy import select

from portal.blueprints.establishments import services
from portal.extensions import db
from portal.models import (
    Establishment,
    EstablishmentStatus,
    MunicipalHoliday,
    OutboxMessage,
)
from portal.services.api_auth import issue_client
from portal.services.clock import local_today
from portal.services.dates import business_days_calendar
from tests import factories
from tests.integration.establishments import test_establishment_cadastro as cadastro
from tests.integration.establishments.test_establishment_cadastro import (
    _approved,
    _cnpj,
    _data,
    _request,
    _sketch,
)

profile = cadastro.profile  # the fixture: the default profile, Guarulhos

ONE_DAY = timedelta(days=1)


def _coord():  # type: ignore[no-untyped-def]
    return factories.user(roles=("coordinator",))


def _error(call, *args, **kwargs) -> services.EstablishmentError:  # type: ignore[no-untyped-def]
    with pytest.raises(services.EstablishmentError) as err:
        call(*args, **kwargs)
    return err.value


def _mails_to(address: str) -> list[OutboxMessage]:
    return list(
        db.session.scalars(
            select(OutboxMessage).where(OutboxMessage.to == address).order_by(OutboxMessage.id)
        )
    )


def _names(text: str, value: str) -> bool:
    """``value`` (a date as dd/mm/yyyy, a number) stands in ``text`` as a word of its own."""
    return re.search(rf"(?<![\w/]){re.escape(value)}(?![\w/])", text) is not None


def _typed(digits: str) -> str:
    """A CNPJ as people type it: 11.222.333/0001-81."""
    return f"{digits[:2]}.{digits[2:5]}.{digits[5:8]}/{digits[8:12]}-{digits[12:]}"


def _actions(e: Establishment) -> list[str]:
    return [event.action for event in e.events]


def _inspect(  # type: ignore[no-untyped-def]
    e: Establishment, on: date, *, agent=None, findings="Ok.", satisfactory=True, today=None
):
    return services.record_inspection(
        e,
        agent or factories.user(roles=("agent",)),
        inspected_on=on,
        findings=findings,
        satisfactory=satisfactory,
        today=today or on,
    )


def _renewal_error(e: Establishment, profile, on: date):  # type: ignore[no-untyped-def]
    """What the establishment's own renewal request on ``on`` is refused with."""
    return _error(services.request_renewal, e, e.requested_by, profile=profile, today=on)


def _renewed(e: Establishment, profile, on: date) -> None:  # type: ignore[no-untyped-def]
    services.request_renewal(e, e.requested_by, profile=profile, today=on)
    services.approve_renewal(e, _coord(), profile=profile)


# -- terms: first and last day, anchored on the first issue ---------------------------------------


def test_gru_11_2_valid_from_the_first_to_the_last_day_of_the_term_not_the_day_after(
    app, profile
) -> None:
    # approved Tuesday 2026-03-10: one year is the same date next year, 2027-03-10 (inclusive)
    e = _approved(profile, date(2026, 3, 10))
    assert (e.first_issued_on, e.valid_from, e.valid_until) == (
        date(2026, 3, 10),
        date(2026, 3, 10),
        date(2027, 3, 10),
    )
    assert not services.is_valid(e, date(2026, 3, 9))
    assert services.is_valid(e, date(2026, 3, 10))
    assert services.is_valid(e, date(2027, 3, 10))
    assert not services.is_valid(e, date(2027, 3, 11))
    # the owner's page says "valid" on the last day and "expired" the day after
    assert services.status_label(e, date(2027, 3, 10)) != services.status_label(
        e, date(2027, 3, 11)
    )
    assert services.status_label(e, date(2026, 3, 10)) == services.status_label(
        e, date(2027, 3, 10)
    )


def test_gru_11_2_only_an_active_cadastro_with_both_dates_is_valid(app, profile) -> None:
    e = _approved(profile, date(2026, 3, 10))
    e.valid_from = None  # an incomplete record is never valid
    assert not services.is_valid(e, date(2026, 6, 1))
    other = _approved(profile, date(2026, 3, 10), n=2)
    other.valid_until = None
    assert not services.is_valid(other, date(2026, 6, 1))
    closed = _approved(profile, date(2026, 3, 10), n=3)
    services.close(closed, closed.requested_by, "Encerrou as atividades.")
    # GRU 11 §5: after the baixa the dates stay in the file but the cadastro is no longer valid
    assert closed.valid_until == date(2027, 3, 10)
    assert not services.is_valid(closed, date(2026, 6, 1))


def test_gru_11_2_a_first_issue_before_the_request_counts_the_term_from_it(app, profile) -> None:
    # first issued (on paper) on 2020-03-10: the term approved on 2026-12-01 runs to the next
    # anniversary of that issue, 2027-03-10, not to 2027-12-01
    e = _request(factories.user(), profile, date(2026, 12, 1))
    e.first_issued_on = date(2020, 3, 10)
    _inspect(e, date(2026, 12, 1))
    services.approve(e, _coord(), profile=profile, today=date(2026, 12, 1))
    assert (e.first_issued_on, e.valid_from, e.valid_until) == (
        date(2020, 3, 10),
        date(2026, 12, 1),
        date(2027, 3, 10),
    )


def test_gru_11_2_renewals_of_a_29_february_issue_never_drift_to_1_march(app, profile) -> None:
    # first issue 2028-02-29: terms end on its anniversaries, 1 March in common years (Código
    # Civil art. 132 §3, issue 27 #8) and 29 Feb again in 2032; a renewal anchored on the
    # previous end (1 March) would end on 2032-03-01
    e = _approved(profile, date(2028, 2, 29))
    expected = [
        ("2029-03-02", date(2030, 3, 1)),
        ("2030-03-02", date(2031, 3, 1)),
        ("2031-03-02", date(2032, 2, 29)),
        ("2032-03-01", date(2033, 3, 1)),
    ]
    for start, until in expected:
        _renewed(e, profile, date(until.year - 1, 1, 15))  # inside each window (60 days before)
        assert e.valid_until == until
        assert e.events[-1].detail == {"valid_from": start, "valid_until": until.isoformat()}
    assert e.first_issued_on == date(2028, 2, 29)
    assert services.is_valid(e, date(2033, 3, 1)) and not services.is_valid(e, date(2033, 3, 2))


def test_gru_11_3_the_renewal_is_in_force_the_day_after_the_old_term_ends(app, profile) -> None:
    # old term 2026-06-15 .. 2027-06-15; renewed: 2027-06-16 .. 2028-06-15, no gap, no overlap
    e = _approved(profile, date(2026, 6, 15))
    services.request_renewal(e, e.requested_by, profile=profile, today=date(2027, 5, 2))
    assert e.renewal_requested_on == date(2027, 5, 2)
    coord = _coord()
    services.approve_renewal(e, coord, profile=profile)
    assert (e.valid_until, e.renewal_requested_on) == (date(2028, 6, 15), None)
    assert services.is_valid(e, date(2027, 6, 16)) and services.is_valid(e, date(2028, 6, 15))
    assert not services.is_valid(e, date(2028, 6, 16))
    event = e.events[-1]
    assert (event.action, event.actor_id) == ("renewed", coord.id)
    assert event.detail == {"valid_from": "2027-06-16", "valid_until": "2028-06-15"}
    audit = factories.audit_events("establishment.renewed")[-1]
    assert audit.detail == {
        "cnpj": e.cnpj,
        "valid_from": "2027-06-16",
        "valid_until": "2028-06-15",
    }
    (mail,) = [m for m in _mails_to(e.email) if _names(m.body, "16/06/2027")]
    assert _names(mail.body, "15/06/2028") and e.display_name in mail.body


def test_gru_11_3_a_renewal_approved_early_keeps_the_old_term_in_force_until_expiry(
    app, profile
) -> None:
    # old term 2026-06-15 .. 2027-06-15, renewal asked and approved on 2027-05-02: GRU 11 §3 puts
    # the new term in force on 2027-06-16, the old one still runs on 2027-05-03 .. 2027-06-15
    e = _approved(profile, date(2026, 6, 15))
    services.accredit(e, _coord(), profile=profile, today=date(2026, 6, 15))
    _renewed(e, profile, date(2027, 5, 2))
    assert services.is_valid(e, date(2027, 5, 3)) and services.is_valid(e, date(2027, 6, 15))
    assert services.accredited_establishments(date(2027, 6, 15)) == [e]


def test_gru_11_3_renewal_requested_a_second_time_is_refused(app, profile) -> None:
    e = _approved(profile, date(2026, 6, 15))
    services.request_renewal(e, e.requested_by, profile=profile, today=date(2027, 5, 2))
    err = _renewal_error(e, profile, date(2027, 5, 3))
    assert (err.field, err.code) == (None, "renewal_pending")
    assert e.renewal_requested_on == date(2027, 5, 2)
    event = e.events[-1]
    assert (event.action, event.actor_id) == ("renewal_requested", e.requested_by_id)
    assert _actions(e).count("renewal_requested") == 1
    assert factories.audit_events("establishment.renewal_requested")[-1].detail == {"cnpj": e.cnpj}


def test_gru_11_3_renewal_approval_needs_a_request_and_an_active_cadastro(app, profile) -> None:
    e = _approved(profile, date(2026, 6, 15))
    err = _error(services.approve_renewal, e, _coord(), profile=profile)
    assert (err.field, err.code) == (None, "no_renewal")
    assert e.valid_until == date(2027, 6, 15)
    services.request_renewal(e, e.requested_by, profile=profile, today=date(2027, 5, 2))
    services.close(e, e.requested_by, "Fechou.")  # GRU 11 §5: closed while the renewal waited
    err = _error(services.approve_renewal, e, _coord(), profile=profile)
    assert (err.field, err.code) == (None, "not_active")
    assert (e.valid_from, e.valid_until) == (date(2026, 6, 15), date(2027, 6, 15))


# -- the renewal window (GRU 11 §3; GRU 114 §ú) ---------------------------------------------------


@pytest.mark.parametrize(
    ("approved_on", "opens", "closes"),
    [
        # expiry Tuesday 2027-06-15, a business day: 60 days back = 15 (to 31 May) + 31 (to 30
        # Apr) + 14 = 16 Apr; the window closes on the expiry itself
        (date(2026, 6, 15), date(2027, 4, 16), date(2027, 6, 15)),
        # expiry Wednesday 2027-04-21, Tiradentes (national): 21 + 31 + 8 back = 20 Feb; closes
        # on Thursday 22 Apr
        (date(2026, 4, 21), date(2027, 2, 20), date(2027, 4, 22)),
        # expiry Friday 2026-12-25, Christmas: 25 + 30 + 5 back = 26 Oct; Saturday and Sunday
        # follow, so it closes on Monday 28 Dec
        (date(2025, 12, 25), date(2026, 10, 26), date(2026, 12, 28)),
        # expiry Thursday 2026-07-09, São Paulo state holiday: 9 + 30 + 21 back = 10 May; closes
        # on Friday 10 Jul
        (date(2025, 7, 9), date(2026, 5, 10), date(2026, 7, 10)),
        # expiry Saturday 2027-11-13, then Sunday, then Monday 15 Nov (Republic, national):
        # 13 + 31 + 16 back = 14 Sep; closes on Tuesday 16 Nov
        (date(2026, 11, 13), date(2027, 9, 14), date(2027, 11, 16)),
    ],
)
def test_gru_11_3_window_opens_sixty_days_before_expiry_and_closes_on_a_business_day(
    app, profile, approved_on: date, opens: date, closes: date
) -> None:
    e = _approved(profile, approved_on)
    window = services.renewal_window(e, profile)
    assert (window.opens, window.closes) == (opens, closes)
    early = _renewal_error(e, profile, opens - ONE_DAY)
    assert early.code == "renewal_too_early"
    late = _renewal_error(e, profile, closes + ONE_DAY)
    assert late.code == "renewal_too_late"
    assert e.renewal_requested_on is None
    services.request_renewal(e, e.requested_by, profile=profile, today=closes)  # the last day
    assert e.renewal_requested_on == closes


def test_gru_11_3_a_request_one_day_too_early_names_the_first_day_and_the_60_days(
    app, profile
) -> None:
    # expiry 2027-06-15: the window opens on 2027-04-16 (worked above); asked on 2027-04-15
    e = _approved(profile, date(2026, 6, 15))
    err = _renewal_error(e, profile, date(2027, 4, 15))
    assert (err.field, err.code) == (None, "renewal_too_early")
    assert _names(err.message, "16/04/2027") and _names(err.message, "60")
    assert "renewal_requested" not in _actions(e)
    services.request_renewal(e, e.requested_by, profile=profile, today=date(2027, 4, 16))
    assert e.renewal_requested_on == date(2027, 4, 16)


def test_gru_11_3_a_request_after_the_window_names_its_last_day(app, profile) -> None:
    # expiry Saturday 2027-03-13: the last day is Monday 2027-03-15; asked on Tuesday the 16th
    e = _approved(profile, date(2026, 3, 13))
    err = _renewal_error(e, profile, date(2027, 3, 16))
    assert (err.field, err.code) == (None, "renewal_too_late")
    assert _names(err.message, "15/03/2027")


def test_gru_114_a_yearly_municipal_holiday_on_the_expiry_moves_the_last_day(app, profile) -> None:
    # a city holiday entered once (in 1990) as "repeats every year", on a Wednesday about two
    # months from today that is no national or state holiday: the window closes on Thursday
    day = local_today() + timedelta(days=60)
    day += timedelta(days=(2 - day.weekday()) % 7)  # the next Wednesday
    open_on = business_days_calendar("SP")
    while not (open_on(day) and open_on(day + ONE_DAY)) or (day.month, day.day) == (2, 29):
        day += timedelta(days=7)
    db.session.add(
        MunicipalHoliday(day=day.replace(year=1990), name="Aniversário", repeats_yearly=True)
    )
    db.session.flush()
    e = _approved(profile, day.replace(year=day.year - 1))
    assert e.valid_until == day
    assert services.renewal_window(e, profile).closes == day + ONE_DAY


def test_gru_11_3_the_window_contains_its_first_and_last_day_only() -> None:
    window = services.RenewalWindow(date(2027, 1, 9), date(2027, 3, 10))
    assert window.contains(date(2027, 1, 9)) and window.contains(date(2027, 3, 10))
    assert not window.contains(date(2027, 1, 8)) and not window.contains(date(2027, 3, 11))
    # a computed window is a value: pages may not move its days, and equal windows are one key
    with pytest.raises(dataclasses.FrozenInstanceError):
        window.closes = date(2027, 3, 11)  # type: ignore[misc]
    assert len({window, services.RenewalWindow(date(2027, 1, 9), date(2027, 3, 10))}) == 1


def test_gru_11_3_only_an_active_cadastro_has_a_renewal_window(app, profile) -> None:
    pending = _request(factories.user(), profile, date(2026, 6, 15))
    assert services.renewal_window(pending, profile) is None
    err = _renewal_error(pending, profile, date(2027, 5, 2))
    assert (err.field, err.code) == (None, "not_renewable")
    closed = _approved(profile, date(2026, 6, 15), n=2)
    services.close(closed, closed.requested_by, "")
    assert closed.valid_until is not None
    assert services.renewal_window(closed, profile) is None
    err = _renewal_error(closed, profile, date(2027, 5, 2))
    assert err.code == "not_renewable"


# -- what the request checks (GRU 11 §1, 13) -----------------------------------------------------


@pytest.mark.parametrize("cnpj", ["11.222.333/0001-00", "1122233300018", "", "abcdefghijklmn"])
def test_gru_11_1_i_an_invalid_cnpj_is_refused_on_its_field(app, profile, cnpj: str) -> None:
    err = _error(
        services.request_cadastro,
        factories.user(),
        _data(cnpj=cnpj),
        profile=profile,
        today=date(2026, 12, 1),
    )
    assert (err.field, err.code) == ("cnpj", "invalid_cnpj")


@pytest.mark.parametrize("cep", ["0700000", "070000000", "", "CEP"])
def test_gru_11_1_ii_a_cep_without_8_digits_is_refused_on_its_field(app, profile, cep) -> None:
    err = _error(_request, factories.user(), profile, date(2026, 12, 1), _data(cep=cep))
    assert (err.field, err.code) == ("cep", "invalid_cep")


def test_gru_11_1_cnpj_and_cep_are_kept_as_digits(app, profile) -> None:
    digits = _cnpj(55667788)
    typed = _typed(digits)
    e = _request(factories.user(), profile, date(2026, 12, 1), _data(cnpj=typed, cep="07.000-123"))
    assert (e.cnpj, e.cep) == (digits, "07000123")
    assert e.status == EstablishmentStatus.REQUESTED


@pytest.mark.parametrize("kinds", [[], ["zoo"], ["clinic", "zoo"]])
def test_gru_11_1_iii_activities_must_come_from_the_law_list(app, profile, kinds) -> None:
    err = _error(_request, factories.user(), profile, date(2026, 12, 1), _data(kinds=kinds))
    assert (err.field, err.code) == ("kinds", "invalid_kind")


def test_gru_11_1_iv_the_missing_sketch_is_explained_in_the_readers_language(app, profile) -> None:
    # the portal also speaks English (LANGUAGES): the refusal reaches that reader translated
    def refusal() -> services.EstablishmentError:
        return _error(
            services.request_cadastro,
            factories.user(),
            _data(),
            profile=profile,
            today=date(2026, 12, 1),
        )

    portuguese = refusal()
    with force_locale("en"):
        english = refusal()
    assert (
        (portuguese.field, portuguese.code)
        == (english.field, english.code)
        == (
            "sketch",
            "sketch_required",
        )
    )
    assert english.message and english.message != portuguese.message


def test_bjp_2_only_veterinary_establishments_and_no_sketch_required(make_app) -> None:
    # BJP 2 speaks of "estabelecimentos veterinários": a pet shop is not on its list; BJP asks
    # for no sketch (GRU 11 §1 IV is Guarulhos's)
    with factories.profile_app(make_app, "bjp") as bjp:
        owner = factories.user()
        err = _error(
            services.request_cadastro,
            owner,
            _data(kinds=["pet_shop"]),
            profile=bjp,
            today=date(2026, 12, 1),
        )
        assert (err.field, err.code) == ("kinds", "invalid_kind")
        e = services.request_cadastro(
            owner, _data(kinds=["clinic", "hospital"]), profile=bjp, today=date(2026, 12, 1)
        )
        assert (e.sketch, e.kinds) == (None, ["clinic", "hospital"])


@pytest.mark.parametrize(("name", "crmv"), [(None, "CRMV-SP 1"), ("Dra. Ana", None), ("", "")])
def test_gru_11_1_v_the_vet_and_the_crmv_are_both_required(app, profile, name, crmv) -> None:
    err = _error(
        _request,
        factories.user(),
        profile,
        date(2026, 12, 1),
        _data(vet_name=name, vet_crmv=crmv),
    )
    assert (err.field, err.code) == ("vet_crmv", "vet_required")


@pytest.mark.parametrize("term", [None, date(2026, 11, 30)])
def test_gru_13_1_a_missing_or_expired_vet_term_is_refused(app, profile, term) -> None:
    # GRU 13 §1: the term of technical responsibility is renewed yearly; one that ended
    # yesterday (2026-11-30) does not cover a request made on 2026-12-01
    err = _error(
        _request, factories.user(), profile, date(2026, 12, 1), _data(vet_term_valid_until=term)
    )
    assert (err.field, err.code) == ("vet_term_valid_until", "vet_term_expired")


def test_gru_13_1_a_vet_term_on_its_last_day_is_still_valid(app, profile) -> None:
    e = _request(
        factories.user(), profile, date(2026, 12, 1), _data(vet_term_valid_until=date(2026, 12, 1))
    )
    assert e.vet_term_valid_until == date(2026, 12, 1)
    err = _error(
        services.update_data,
        e,
        e.requested_by,
        _data(vet_term_valid_until=date(2026, 12, 1)),
        profile=profile,
        today=date(2026, 12, 2),
    )
    assert (err.field, err.code) == ("vet_term_valid_until", "vet_term_expired")


def test_gru_11_one_open_cadastro_per_cnpj(app, profile) -> None:
    digits = _cnpj(99887766)
    typed = _typed(digits)
    first = _request(factories.user(), profile, date(2026, 12, 1), _data(cnpj=digits))
    other = _request(factories.user(), profile, date(2026, 12, 1), _data(n=2))  # another CNPJ
    assert other.cnpj != first.cnpj
    err = _error(_request, factories.user(), profile, date(2026, 12, 1), _data(cnpj=typed))
    assert (err.field, err.code) == ("cnpj", "duplicate_cnpj")
    services.refuse(first, _coord(), "Documentos ilegíveis.")
    again = _request(factories.user(), profile, date(2026, 12, 2), _data(cnpj=digits))
    assert again.status == EstablishmentStatus.REQUESTED  # a refused request does not block


def test_gru_11_an_active_cadastro_blocks_its_cnpj_until_the_baixa(app, profile) -> None:
    e = _approved(profile, date(2026, 3, 10))
    err = _error(_request, factories.user(), profile, date(2026, 12, 1), _data())
    assert (err.field, err.code) == ("cnpj", "duplicate_cnpj")
    services.close(e, e.requested_by, "Mudou de ramo.")
    assert _request(factories.user(), profile, date(2026, 12, 1), _data()).cnpj == e.cnpj


def test_gru_12_the_request_opens_the_establishment_file(app, profile) -> None:
    owner = factories.user()
    e = _request(owner, profile, date(2026, 12, 1))
    assert (e.requested_by_id, e.accredited, e.api_client) == (owner.id, False, None)
    (event,) = e.events
    assert (event.action, event.actor_id, event.detail, event.note) == (
        "requested",
        owner.id,
        None,
        None,
    )
    audit = factories.audit_events("establishment.requested")[-1]
    assert (audit.subject_type, audit.subject_id) == ("Establishment", str(e.id))
    assert audit.detail == {"cnpj": e.cnpj}


# -- GRU 11 §4: data changes reported ------------------------------------------------------------


def test_gru_11_4_changed_data_is_kept_with_the_fields_named(app, profile) -> None:
    e = _request(factories.user(), profile, date(2026, 12, 1))
    services.update_data(
        e,
        e.requested_by,
        _data(phone="11 5555-0000", district="Bonsucesso", cep="07111-000"),
        profile=profile,
        today=date(2026, 12, 2),
    )
    assert (e.phone, e.district, e.cep) == ("11 5555-0000", "Bonsucesso", "07111000")
    event = e.events[-1]
    assert (event.action, event.actor_id) == ("data_changed", e.requested_by_id)
    assert event.detail == {"fields": ["cep", "district", "phone"]}
    assert factories.audit_events("establishment.data_changed")[-1].detail == {
        "cnpj": e.cnpj,
        "fields": ["cep", "district", "phone"],
    }


def test_gru_11_4_nothing_changed_nothing_reported_a_new_sketch_is(app, profile) -> None:
    e = _request(factories.user(), profile, date(2026, 12, 1))
    services.update_data(e, e.requested_by, _data(), profile=profile, today=date(2026, 12, 2))
    assert _actions(e) == ["requested"]
    new = _sketch(e.requested_by)
    services.update_data(
        e, e.requested_by, _data(), profile=profile, today=date(2026, 12, 2), sketch=new
    )
    assert e.sketch is new
    assert e.events[-1].detail == {"fields": ["sketch"]}


def test_gru_11_4_the_cnpj_cannot_change(app, profile) -> None:
    e = _request(factories.user(), profile, date(2026, 12, 1))
    err = _error(
        services.update_data,
        e,
        e.requested_by,
        _data(n=7, legal_name="Outra Ltda"),
        profile=profile,
        today=date(2026, 12, 2),
    )
    assert (err.field, err.code) == ("cnpj", "cnpj_fixed")
    assert e.legal_name == "Clínica Vet 1 Ltda"
    digits = e.cnpj
    typed = _typed(digits)
    services.update_data(
        e, e.requested_by, _data(cnpj=typed), profile=profile, today=date(2026, 12, 2)
    )
    assert e.cnpj == digits and _actions(e) == ["requested"]  # the same CNPJ typed differently


# -- inspections, approval, refusal --------------------------------------------------------------


def test_inspection_on_today_is_kept_one_in_the_future_or_empty_is_refused(app, profile) -> None:
    e = _request(factories.user(), profile, date(2026, 12, 1))
    agent = factories.user(roles=("agent",))
    err = _error(_inspect, e, date(2026, 12, 2), agent=agent, today=date(2026, 12, 1))
    assert (err.field, err.code) == ("inspected_on", "future_date")
    err = _error(_inspect, e, date(2026, 12, 1), agent=agent, findings="   ")
    assert (err.field, err.code) == ("findings", "required")
    assert e.inspections == []
    done = _inspect(
        e, date(2026, 12, 1), agent=agent, findings="  Baias limpas.  ", satisfactory=False
    )
    assert (done.inspected_on, done.agent_id, done.findings, done.satisfactory) == (
        date(2026, 12, 1),
        agent.id,
        "Baias limpas.",
        False,
    )
    assert e.inspections == [done]
    event = e.events[-1]
    assert (event.action, event.actor_id) == ("inspected", agent.id)
    assert event.detail == {"satisfactory": False, "inspected_on": "2026-12-01"}


def test_approval_needs_one_satisfactory_inspection_not_all(app, profile) -> None:
    e = _request(factories.user(), profile, date(2026, 12, 1))
    agent = factories.user(roles=("agent",))
    _inspect(e, date(2026, 11, 20), agent=agent, satisfactory=False, today=date(2026, 12, 1))
    err = _error(services.approve, e, _coord(), profile=profile, today=date(2026, 12, 1))
    assert (err.field, err.code) == (None, "inspection_required")
    assert (e.status, e.valid_until) == (EstablishmentStatus.REQUESTED, None)
    _inspect(e, date(2026, 12, 1), agent=agent)
    services.approve(e, _coord(), profile=profile, today=date(2026, 12, 1))
    assert e.status == EstablishmentStatus.ACTIVE


def test_gru_11_2_approval_stores_the_term_and_mails_the_establishment(app, profile) -> None:
    # approved 2026-12-01: valid to 2027-12-01
    e = _request(factories.user(), profile, date(2026, 12, 1))
    _inspect(e, date(2026, 12, 1))
    coord = _coord()
    services.approve(e, coord, profile=profile, today=date(2026, 12, 1))
    assert (e.status, e.first_issued_on, e.valid_from, e.valid_until) == (
        EstablishmentStatus.ACTIVE,
        date(2026, 12, 1),
        date(2026, 12, 1),
        date(2027, 12, 1),
    )
    event = e.events[-1]
    assert (event.action, event.actor_id, event.detail) == (
        "approved",
        coord.id,
        {"valid_until": "2027-12-01"},
    )
    assert factories.audit_events("establishment.approved")[-1].detail == {
        "cnpj": e.cnpj,
        "valid_until": "2027-12-01",
    }
    (mail,) = _mails_to("vet1@example.com")
    assert _names(mail.body, "01/12/2027") and "Vet 1" in mail.body
    assert "http://localhost/estabelecimentos/meus" in mail.body
    err = _error(services.approve, e, coord, profile=profile, today=date(2026, 12, 2))
    assert (err.field, err.code) == (None, "not_pending")
    assert e.valid_until == date(2027, 12, 1)


def test_without_an_establishment_email_the_mail_goes_to_who_asked(app, profile) -> None:
    owner = factories.user()
    e = _request(owner, profile, date(2026, 12, 1), _data(email=None, trade_name=None))
    services.refuse(e, _coord(), "  Croqui sem as baias.  ")
    (mail,) = _mails_to(owner.email)
    # the legal name stands in for the missing trade name; the reason is quoted
    assert "Clínica Vet 1 Ltda" in mail.body and "Croqui sem as baias." in mail.body
    assert "http://localhost/estabelecimentos/meus" in mail.body


def test_refusal_needs_a_reason_and_a_pending_request(app, profile) -> None:
    e = _request(factories.user(), profile, date(2026, 12, 1))
    coord = _coord()
    err = _error(services.refuse, e, coord, "  ")
    assert (err.field, err.code) == ("reason", "required")
    assert e.status == EstablishmentStatus.REQUESTED
    services.refuse(e, coord, "  Sem responsável técnico.  ")
    assert (e.status, e.refusal_reason) == (EstablishmentStatus.REFUSED, "Sem responsável técnico.")
    event = e.events[-1]
    assert (event.action, event.actor_id, event.note) == (
        "refused",
        coord.id,
        "Sem responsável técnico.",
    )
    err = _error(services.refuse, e, coord, "De novo.")
    assert (err.field, err.code) == (None, "not_pending")
    approved = _approved(profile, date(2026, 12, 1), n=2)
    err = _error(services.refuse, approved, coord, "Tarde demais.")
    assert err.code == "not_pending"
    assert approved.status == EstablishmentStatus.ACTIVE
    err = _error(services.approve, e, coord, profile=profile, today=date(2026, 12, 1))
    assert err.code == "not_pending"


# -- closing (GRU 11 §5) -------------------------------------------------------------------------


def test_gru_11_5_the_baixa_ends_the_cadastro_and_the_accreditation(app, profile) -> None:
    e = _approved(profile, date(2026, 12, 1))
    services.accredit(e, _coord(), profile=profile, today=date(2026, 12, 1))
    owner = e.requested_by
    services.close(e, owner, "  Encerrou as atividades.  ")
    assert (e.status, e.accredited, e.api_client.active) == (
        EstablishmentStatus.CLOSED,
        False,
        False,
    )
    event = e.events[-1]
    assert (event.action, event.actor_id, event.note) == (
        "closed",
        owner.id,
        "Encerrou as atividades.",
    )
    assert services.api_client_gate(e.api_client)[0] == "establishment_not_accredited"
    err = _error(services.close, e, owner, "De novo")
    assert (err.field, err.code) == (None, "already_closed")


def test_gru_11_5_a_pending_request_can_be_withdrawn_without_a_reason(app, profile) -> None:
    e = _request(factories.user(), profile, date(2026, 12, 1))
    services.close(e, e.requested_by, "   ")
    assert e.status == EstablishmentStatus.CLOSED
    assert (e.events[-1].action, e.events[-1].note) == ("closed", None)


# -- accreditation to register animals (GRU 14 §1-2; BJP 2) --------------------------------------


@pytest.mark.parametrize("kind", ["pet_shop", "clinic", "hospital"])
def test_gru_14_2_shops_clinics_and_hospitals_are_accredited_with_a_token(
    app, profile, kind
) -> None:
    e = _approved(profile, date(2026, 12, 1))
    services.update_data(
        e, e.requested_by, _data(kinds=[kind, "groomer"]), profile=profile, today=date(2026, 12, 1)
    )
    coord = _coord()
    token = services.accredit(e, coord, profile=profile, today=date(2026, 12, 1))
    assert token is not None and e.accredited is True
    client = e.api_client
    assert (client.kind, client.name, client.user_id, client.active) == (
        "establishment",
        "Vet 1",
        e.requested_by_id,
        True,
    )
    assert token.startswith("ccz_") and client.token_prefix == token[4:12]
    event = e.events[-1]
    assert (event.action, event.actor_id) == ("accredited", coord.id)


@pytest.mark.parametrize("kinds", [["kennel"], ["trainer", "groomer"]])
def test_gru_14_2_establishments_that_do_not_sell_or_treat_animals_are_not_accredited(
    app, profile, kinds
) -> None:
    e = _approved(profile, date(2026, 12, 1))
    services.update_data(
        e, e.requested_by, _data(kinds=kinds), profile=profile, today=date(2026, 12, 1)
    )
    err = _error(services.accredit, e, _coord(), profile=profile, today=date(2026, 12, 1))
    assert (err.field, err.code) == (None, "kind_cannot_register")
    assert (e.accredited, e.api_client) == (False, None)


def test_a_law_with_a_register_but_no_accreditation_accredits_no_one(app, profile) -> None:
    # a municipality whose law keeps the cadastro but has animals registered only at the CCZ
    # (the profile's ``accreditation = false``): no token, whatever the establishment
    rule = profile.establishments.model_copy(update={"accreditation": False})
    law = profile.model_copy(update={"establishments": rule})
    e = _approved(profile, date(2026, 12, 1))
    err = _error(services.accredit, e, _coord(), profile=law, today=date(2026, 12, 1))
    assert (err.field, err.code) == (None, "accreditation_not_in_law")
    assert (e.accredited, e.api_client) == (False, None)


def test_gru_14_2_accreditation_needs_a_cadastro_valid_that_day(app, profile) -> None:
    # valid 2026-03-10 .. 2027-03-10: accredited on the last day, not on the day after
    e = _approved(profile, date(2026, 3, 10))
    err = _error(services.accredit, e, _coord(), profile=profile, today=date(2027, 3, 11))
    assert (err.field, err.code) == (None, "cadastro_not_valid")
    assert (e.accredited, e.api_client) == (False, None)
    assert services.accredit(e, _coord(), profile=profile, today=date(2027, 3, 10)) is not None


def test_gru_14_2_revoking_and_accrediting_again_reuses_the_token(app, profile) -> None:
    e = _approved(profile, date(2026, 12, 1))
    token = services.accredit(e, _coord(), profile=profile, today=date(2026, 12, 1))
    client = e.api_client
    coord = _coord()
    services.revoke_accreditation(e, coord, "  Não enviou os registros do mês.  ")
    assert (e.accredited, client.active) == (False, False)
    event = e.events[-1]
    assert (event.action, event.actor_id, event.note) == (
        "accreditation_revoked",
        coord.id,
        "Não enviou os registros do mês.",
    )
    assert services.accredit(e, coord, profile=profile, today=date(2026, 12, 2)) is None
    assert (e.accredited, e.api_client, client.active) == (True, client, True)
    assert token is not None


def test_revoking_an_establishment_without_a_token_only_records_it(app, profile) -> None:
    e = _approved(profile, date(2026, 12, 1))
    services.revoke_accreditation(e, _coord(), " ")
    assert (e.accredited, e.api_client) == (False, None)
    assert (e.events[-1].action, e.events[-1].note) == ("accreditation_revoked", None)


def test_bjp_2_veterinary_establishments_are_accredited(make_app) -> None:
    with factories.profile_app(make_app, "bjp") as bjp:
        e = services.request_cadastro(
            factories.user(), _data(), profile=bjp, today=date(2026, 12, 1)
        )
        _inspect(e, date(2026, 12, 1))
        services.approve(e, _coord(), profile=bjp, today=date(2026, 12, 1))
        assert e.valid_until == date(2027, 12, 1)
        assert services.accredit(e, _coord(), profile=bjp, today=date(2026, 12, 1)) is not None


# -- the API client gate and the public list -----------------------------------------------------


def test_gru_14_2_the_token_works_only_while_accredited_and_valid(app, profile) -> None:
    today = local_today()
    e = _approved(profile, today)
    services.accredit(e, _coord(), profile=profile, today=today)
    assert services.api_client_gate(e.api_client) is None
    e.valid_until = today - ONE_DAY  # expired yesterday, still accredited
    code, message = services.api_client_gate(e.api_client)
    assert code == "establishment_not_accredited" and message  # the clinic is told why
    e.valid_until = today  # its last day
    assert services.api_client_gate(e.api_client) is None
    e.accredited = False  # accreditation suspended, cadastro valid
    assert services.api_client_gate(e.api_client)[0] == "establishment_not_accredited"


def test_tokens_not_tied_to_a_cadastro_are_not_judged(app, profile) -> None:
    _approved(profile, local_today())  # an establishment that is not accredited
    client, _token = issue_client("ngo", "ONG Amigos")
    assert services.api_client_gate(client) is None


def test_gru_14_2_public_list_of_the_day_by_district_then_legal_name(app, profile) -> None:
    coord = _coord()
    places = []
    for n, district, legal in [(1, "Vila B", "Alfa"), (2, "Centro", "Zeta"), (3, "Centro", "Beta")]:
        e = _approved(profile, date(2026, 6, 15), n=n)
        services.update_data(
            e,
            e.requested_by,
            _data(n=n, district=district, legal_name=legal),
            profile=profile,
            today=date(2026, 6, 15),
        )
        services.accredit(e, coord, profile=profile, today=date(2026, 6, 15))
        places.append(e)
    alpha, zeta, beta = places
    _approved(profile, date(2026, 6, 15), n=4)  # valid but not accredited
    # the term runs 2026-06-15 .. 2027-06-15 (both days listed)
    assert services.accredited_establishments(date(2026, 6, 15)) == [beta, zeta, alpha]
    assert services.accredited_establishments(date(2027, 6, 15)) == [beta, zeta, alpha]
    assert services.accredited_establishments(date(2026, 6, 14)) == []
    assert services.accredited_establishments(date(2027, 6, 16)) == []
    zeta.status = EstablishmentStatus.CLOSED  # a closed record is never listed, flag or not
    db.session.flush()
    assert services.accredited_establishments(date(2026, 12, 1)) == [beta, alpha]


# -- labels the owner and staff read -------------------------------------------------------------


def test_every_kind_of_the_law_has_a_label(app, profile) -> None:
    labels = [services.kind_label(k) for k in profile.establishments.kinds]
    assert all(
        label != kind for label, kind in zip(labels, profile.establishments.kinds, strict=True)
    )
    assert len(set(labels)) == len(labels)
    assert services.kind_label("zoo") == "zoo"


def test_every_event_of_the_file_has_a_label(app, profile) -> None:
    e = _approved(profile, date(2026, 6, 15))
    coord = _coord()
    services.update_data(
        e, e.requested_by, _data(phone="0"), profile=profile, today=date(2026, 6, 15)
    )
    services.accredit(e, coord, profile=profile, today=date(2026, 6, 15))
    services.revoke_accreditation(e, coord, "x")
    _renewed(e, profile, date(2027, 5, 2))
    services.close(e, coord, "x")
    refused = _request(factories.user(), profile, date(2026, 6, 15), _data(n=2))
    services.refuse(refused, coord, "x")
    actions = sorted(set(_actions(e) + _actions(refused)))
    assert len(actions) == 10
    labels = [services.event_label(a) for a in actions]
    assert all(label != action for label, action in zip(labels, actions, strict=True))
    assert len(set(labels)) == len(labels)
    assert services.event_label("other") == "other"


def test_each_status_has_its_own_label(app, profile) -> None:
    pending = _request(factories.user(), profile, date(2026, 6, 15))
    refused = _request(factories.user(), profile, date(2026, 6, 15), _data(n=2))
    services.refuse(refused, _coord(), "x")
    closed = _request(factories.user(), profile, date(2026, 6, 15), _data(n=3))
    services.close(closed, closed.requested_by, "")
    active = _approved(profile, date(2026, 6, 15), n=4)
    day = date(2026, 7, 1)
    labels = [
        services.status_label(pending, day),
        services.status_label(refused, day),
        services.status_label(closed, day),
        services.status_label(active, day),
        services.status_label(active, date(2027, 6, 16)),
    ]
    assert len(set(labels)) == 5
    assert not set(labels) & {s.value for s in EstablishmentStatus}
    pending.status = "suspended"  # a status with no label shows as stored
    assert services.status_label(pending, day) == "suspended"


# -- profiles whose law keeps no register -------------------------------------------------------


@pytest.mark.parametrize("key", ["vilavelha", "cabo", "cabeceira"])
def test_profiles_without_establishments_refuse_every_step(make_app, key: str) -> None:
    # Every shipped law now keeps a register (issue 27 #4: CABO 34, CAB 33, VV 45): a city whose
    # profile has none is the profile without the table.
    with factories.profile_app(make_app, key) as shipped:
        other = shipped.model_copy(update={"establishments": None})
        err = _error(services.rule_of, other)
        assert (err.field, err.code) == (None, "not_in_profile")
        owner = factories.user()
        err = _error(
            services.request_cadastro, owner, _data(), profile=other, today=date(2026, 12, 1)
        )
        assert err.code == "not_in_profile"
        assert (
            db.session.scalar(
                select(Establishment).where(Establishment.requested_by_id == owner.id)
            )
            is None
        )
