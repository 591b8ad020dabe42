"""The second factor's records: a code from the app enrols, is accepted once, recovery codes are
single-use, and an admin reset makes the person enrol again."""

from __future__ import annotations

import pyotp

from portal.services import twofactor
from tests import factories


def test_enrolment_with_a_current_code_gives_ten_recovery_codes(app) -> None:
    staff = factories.user(roles=("agent",))
    record = twofactor.start_enrolment(staff)
    assert not twofactor.is_enrolled(staff)
    assert twofactor.confirm_enrolment(staff, "00000a") is None  # not a code
    codes = twofactor.confirm_enrolment(staff, pyotp.TOTP(record.secret).now())
    assert codes is not None and len(codes) == 10 and len(set(codes)) == 10
    assert twofactor.is_enrolled(staff)


def test_a_code_is_accepted_once(app) -> None:
    staff = factories.user(roles=("vet",))
    record = twofactor.start_enrolment(staff)
    record.confirmed_at = record.created_at
    now = 1_800_000_000.0
    code = pyotp.TOTP(record.secret).at(now)
    assert twofactor.verify_code(record, code, at=now)
    assert not twofactor.verify_code(record, code, at=now + 5)  # replay in the same window


def test_wrong_and_old_codes_are_refused(app) -> None:
    staff = factories.user(roles=("coordinator",))
    record = twofactor.start_enrolment(staff)
    now = 1_800_000_000.0
    assert not twofactor.verify_code(record, pyotp.TOTP(record.secret).at(now - 120), at=now)
    assert not twofactor.verify_code(record, "abcdef", at=now)


def test_recovery_codes_work_once(app) -> None:
    staff = factories.user(roles=("admin",))
    record = twofactor.start_enrolment(staff)
    codes = twofactor.confirm_enrolment(staff, pyotp.TOTP(record.secret).now())
    assert codes
    assert twofactor.check_second_factor(staff, codes[0].lower())
    assert not twofactor.check_second_factor(staff, codes[0])


def test_reset_makes_the_person_enrol_again(app) -> None:
    staff = factories.user(roles=("agent",))
    record = twofactor.start_enrolment(staff)
    twofactor.confirm_enrolment(staff, pyotp.TOTP(record.secret).now())
    twofactor.reset(staff)
    assert not twofactor.is_enrolled(staff)
    assert twofactor.secret_of(staff) is None


def test_every_staff_role_needs_a_second_factor_and_citizens_do_not(make_app) -> None:
    with make_app(STAFF_2FA_REQUIRED=True).app_context():
        assert not twofactor.required_for(factories.user(roles=("citizen",)))
        for role in ("agent", "vet", "coordinator", "admin"):
            assert twofactor.required_for(factories.user(roles=(role,)))
