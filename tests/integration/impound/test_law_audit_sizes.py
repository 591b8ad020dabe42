"""Issue 27, items 1 and 5: the legal size class comes from the species (GRU 10 XV-XVII; CAB 12,
19), and CAB 19 §2 counts a repeat by the animal or by the owner.

Dates are counted by hand on the 2026 calendar (no municipal holiday entered):
Thu 03/12/2026 + 3 business days (GRU 82 §4, 114) = Fri 04, Mon 07, Tue 08/12/2026.
"""

from __future__ import annotations

from datetime import date

import pytest

from portal.blueprints.impound import reclaim, services
from portal.extensions import db
from portal.models import UnitValue
from portal.profiles import load_profile
from tests import factories
from tests.integration.impound.test_impound_rules import _capture

GRU, BJP, CAB, CABO = (load_profile(k) for k in ("guarulhos", "bjp", "cabeceira", "cabo"))
THURSDAY = date(2026, 12, 3)


@pytest.fixture
def ufm(app):  # type: ignore[no-untyped-def]
    """CAB 17, 19 are priced in UFM: R$ 50,00 from 1 Jan 2026 (the profile's example value)."""
    db.session.add(UnitValue(unit="UFM", value_cents=5000, effective_from=date(2026, 1, 1)))
    db.session.flush()


FRIDAY = date(2026, 3, 6)  # a start before a weekend: Mon 9, Tue 10, Wed 11 (3 business days)


# -- GRU 10 XV-XVII with GRU 82 §4 ----------------------------------------------------------------


def test_gru_10_xv_dog_is_small_class_whatever_its_weight(app):  # type: ignore[no-untyped-def]
    for weight in ("small", "medium", "large"):
        capture = _capture(GRU, THURSDAY, species="dog", size=weight)
        assert capture.deadline_on == date(2026, 12, 8), weight  # Tuesday, not Thursday 10/12
        assert capture.size == weight  # the agent's weight class stays as the description
        assert services.legal_size(GRU, capture) == "small"


def test_gru_10_xv_cat_is_small_class_from_a_friday(app):  # type: ignore[no-untyped-def]
    capture = _capture(GRU, FRIDAY, species="cat", size="large")
    assert capture.deadline_on == date(2026, 3, 11)  # Mon 9, Tue 10, Wed 11


def test_gru_10_xv_xvii_other_species_keep_the_agents_class(app):  # type: ignore[no-untyped-def]
    # "outros animais da mesma proporção": a horse or a pig is classed by the agent.
    large = _capture(GRU, THURSDAY, species="other", size="large")
    small = _capture(GRU, THURSDAY, species="other", size="small")
    assert large.deadline_on == date(2026, 12, 10)  # 5 business days: Fri 4 ... Thu 10
    assert small.deadline_on == date(2026, 12, 8)
    assert services.legal_size(GRU, large) == "large"


def test_gru_10_xv_hold_deadline_takes_the_species(app):  # type: ignore[no-untyped-def]
    kwargs = dict(size="medium", captured_on=THURSDAY, tagged=True, custody_type="ordinary")
    assert services.hold_deadline(GRU, species="dog", **kwargs) == date(2026, 12, 8)
    assert services.hold_deadline(GRU, species="other", **kwargs) == date(2026, 12, 10)
    assert services.hold_deadline(GRU, **kwargs) == date(2026, 12, 10)  # no species: as given


def test_gru_10_xv_reclaim_fee_charged_as_small_class(app):  # type: ignore[no-untyped-def]
    # GRU 82 §5: the daily price runs only after the 3-business-day hold of a small animal.
    capture = _capture(GRU, THURSDAY, species="dog", size="large")
    fee = services.reclaim_fee(GRU, capture, date(2026, 12, 9))
    daily = [line for line in fee.lines if line.article == "GRU 82 §5"]
    assert len(daily) == 1 and daily[0].amount_cents == 1500  # Wednesday 9: one day beyond


def test_cab_19_heavy_dog_pays_no_medium_animal_fine(ufm):  # type: ignore[no-untyped-def]
    capture = _capture(CAB, date(2026, 3, 2), species="dog", size="large")
    fee = services.reclaim_fee(CAB, capture, date(2026, 3, 4))
    assert [line.article for line in fee.lines] == ["CAB 17"]  # no CAB 19 §1 fine


def test_cab_20_heavy_dog_is_not_auctioned_but_a_horse_is(app):  # type: ignore[no-untyped-def]
    dog = _capture(CAB, date(2026, 3, 2), species="dog", size="large")
    horse = _capture(CAB, date(2026, 3, 2), species="other", size="large")
    assert "auction" not in services.destinations_offered(CAB, dog)
    assert "auction" in services.destinations_offered(CAB, horse)


def test_cabo_44_law_without_classes_keeps_the_agents_class(app):  # type: ignore[no-untyped-def]
    # CABO 44's table has small, medium and large rates but defines no class: the agent's counts.
    capture = _capture(CABO, date(2026, 3, 2), species="dog", size="medium")
    fee = services.reclaim_fee(CABO, capture, date(2026, 3, 3))
    assert fee.lines[0].amount_cents == 1724
    assert services.legal_size(BJP, capture) == "medium"


# -- CAB 19 §2: the repeat counts by the animal or by the owner --------------------------------


def _owned_capture(profile, day, owner, species="other", size="large"):  # type: ignore[no-untyped-def]
    capture = _capture(profile, day, species=species, size=size)
    capture.owner_id = owner.id
    return capture


def _fine(fee) -> int:  # type: ignore[no-untyped-def]
    return next(line.amount_cents for line in fee.lines if line.kind == "fine")


def test_cab_19_2_owners_other_animal_makes_a_repeat(ufm):  # type: ignore[no-untyped-def]
    owner = factories.user(roles=("citizen",))
    _owned_capture(CAB, date(2026, 3, 2), owner)  # the owner's horse, caught once
    cow = _owned_capture(CAB, date(2026, 3, 9), owner)  # another animal, first capture
    fee = services.reclaim_fee(CAB, cow, date(2026, 3, 10))
    assert cow.capture_number == 1
    assert _fine(fee) == 2 * 2 * 5000  # 2 UFM doubled: the owner's second
    fine_line = next(line for line in fee.lines if line.kind == "fine")
    assert "CAB 19 §2" in fine_line.article
    # The taxa of CAB 17 §ú counts the animal ("caso o animal seja recapturado"): not doubled.
    assert next(line for line in fee.lines if line.kind == "fee").amount_cents == 2500


def test_cab_19_2_first_offence_of_animal_and_owner_is_single(ufm):  # type: ignore[no-untyped-def]
    owner = factories.user(roles=("citizen",))
    horse = _owned_capture(CAB, date(2026, 3, 2), owner)
    assert _fine(services.reclaim_fee(CAB, horse, date(2026, 3, 3))) == 2 * 5000  # count 1


def test_cab_19_2_owner_count_of_four_doubles_three_times(ufm):  # type: ignore[no-untyped-def]
    owner = factories.user(roles=("citizen",))
    for day in (2, 9, 16):
        _owned_capture(CAB, date(2026, 3, day), owner)
    fourth = _owned_capture(CAB, date(2026, 3, 23), owner)
    assert _fine(services.reclaim_fee(CAB, fourth, date(2026, 3, 24))) == 2 * 5000 * 8


def test_cab_19_2_owners_earlier_dog_does_not_count(ufm):  # type: ignore[no-untyped-def]
    # The doubled fine is "a multa a que se refere o parágrafo anterior": only earlier medium or
    # large animals (those that paid it) count; the owner's dog, caught before, does not.
    owner = factories.user(roles=("citizen",))
    _owned_capture(CAB, date(2026, 3, 2), owner, species="dog", size="large")
    horse = _owned_capture(CAB, date(2026, 3, 9), owner)
    assert _fine(services.reclaim_fee(CAB, horse, date(2026, 3, 10))) == 2 * 5000


def test_cab_19_2_claimant_counts_when_the_capture_has_no_owner(ufm):  # type: ignore[no-untyped-def]
    owner = factories.user(roles=("citizen",))
    _owned_capture(CAB, date(2026, 3, 2), owner)
    untagged = _capture(CAB, date(2026, 3, 9), species="other", size="medium")
    assert _fine(services.reclaim_fee(CAB, untagged, date(2026, 3, 10))) == 2 * 5000
    fee = services.reclaim_fee(CAB, untagged, date(2026, 3, 10), claimant=owner)
    assert _fine(fee) == 4 * 5000


def test_cab_19_2_later_captures_do_not_count(ufm):  # type: ignore[no-untyped-def]
    owner = factories.user(roles=("citizen",))
    first = _owned_capture(CAB, date(2026, 3, 2), owner)
    _owned_capture(CAB, date(2026, 3, 9), owner)
    assert _fine(services.reclaim_fee(CAB, first, date(2026, 3, 3))) == 2 * 5000


def test_cab_19_2_animals_caught_the_same_day_are_one_occasion_not_a_repeat(ufm):  # type: ignore[no-untyped-def]
    # "reincidência ... com relação ao proprietário" is an offence after an earlier one: the
    # owner's two horses caught together each pay the single fine (count 1, not 2).
    owner = factories.user(roles=("citizen",))
    first = _owned_capture(CAB, date(2026, 3, 9), owner)
    second = _owned_capture(CAB, date(2026, 3, 9), owner)
    assert _fine(services.reclaim_fee(CAB, first, date(2026, 3, 10))) == 2 * 5000
    assert _fine(services.reclaim_fee(CAB, second, date(2026, 3, 10))) == 2 * 5000


def test_cab_19_2_two_animals_caught_on_one_earlier_day_count_once(ufm):  # type: ignore[no-untyped-def]
    owner = factories.user(roles=("citizen",))
    _owned_capture(CAB, date(2026, 3, 2), owner)
    _owned_capture(CAB, date(2026, 3, 2), owner)  # the same occasion: one earlier offence
    later = _owned_capture(CAB, date(2026, 3, 9), owner)
    assert _fine(services.reclaim_fee(CAB, later, date(2026, 3, 10))) == 2 * 2 * 5000


def test_gru_10_xv_pages_show_a_heavy_dog_as_small_class(app, client):  # type: ignore[no-untyped-def]
    # The hold and the fee follow the legal class; the pages must say the same (the agent's
    # "Médio" stays visible as a description, never as the class the law counts).
    capture = _capture(GRU, THURSDAY, species="dog", size="medium")
    db.session.commit()
    listing = client.get("/animais-recolhidos").get_data(as_text=True)
    page = client.get(f"/animais-recolhidos/{capture.protocol}").get_data(as_text=True)
    for html in (listing, page):
        assert "equeno porte (descrito como médio)" in html
        assert "Médio porte ·" not in html and "médio porte," not in html


def test_gru_10_xvii_other_species_size_is_the_agents_class_on_pages(app, client):  # type: ignore[no-untyped-def]
    capture = _capture(GRU, THURSDAY, species="other", size="large")
    db.session.commit()
    page = client.get(f"/animais-recolhidos/{capture.protocol}").get_data(as_text=True)
    assert "grande porte" in page and "descrito como" not in page


def _reclaimed_by(capture, owner, status):  # type: ignore[no-untyped-def]
    from portal.models import ReclaimRecord

    db.session.add(
        ReclaimRecord(capture_id=capture.id, claimant_id=owner.id, channel="counter", status=status)
    )
    db.session.flush()


def test_cab_19_2_an_animal_the_owner_reclaimed_counts_a_cancelled_reclaim_does_not(ufm):  # type: ignore[no-untyped-def]
    owner, other = factories.user(roles=("citizen",)), factories.user(roles=("citizen",))
    taken = _capture(CAB, date(2026, 3, 2), species="other", size="large")  # no owner recorded
    _reclaimed_by(taken, owner, "released")
    dropped = _owned_capture(CAB, date(2026, 3, 3), other, size="medium")  # another's animal
    _reclaimed_by(dropped, owner, "cancelled")  # the owner started and cancelled its reclaim
    _reclaimed_by(dropped, other, "released")  # its owner took it back
    horse = _owned_capture(CAB, date(2026, 3, 9), owner)
    assert reclaim.owner_earlier_captures(CAB, horse, owner.id) == ["large"]
    assert _fine(services.reclaim_fee(CAB, horse, date(2026, 3, 10))) == 2 * 2 * 5000


def test_cab_19_2_an_earlier_day_counts_its_largest_animal(ufm):  # type: ignore[no-untyped-def]
    owner = factories.user(roles=("citizen",))
    _owned_capture(CAB, date(2026, 3, 2), owner)  # a horse (large) ...
    _owned_capture(CAB, date(2026, 3, 2), owner, species="dog", size="small")  # ... and a dog
    later = _owned_capture(CAB, date(2026, 3, 9), owner)
    assert reclaim.owner_earlier_captures(CAB, later, owner.id) == ["large"]
    assert _fine(services.reclaim_fee(CAB, later, date(2026, 3, 10))) == 2 * 2 * 5000
