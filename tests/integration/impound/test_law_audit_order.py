"""Issue 27, items 6, 9 and 11: the order of destinations (CAB 15-16; BJP 25 §3), the NGO claim
window from the programme policy, GRU 61's observation days as the CCZ's choice.

Dates (2026): CAB holds 5 days from Mon 2 Mar (start excluded) to Sat 7 Mar; then ten days for
adoption, Sun 8 to Tue 17 Mar; donation to an NGO from Wed 18 Mar (CAB 15-16).
"""

from __future__ import annotations

from datetime import date

from portal.blueprints.impound import euthanasia, services
from tests import factories
from tests.integration.impound.test_destination_edges import _destine, _refusal
from tests.integration.impound.test_impound_rules import BJP, CAB, GRU, _capture

MONDAY = date(2026, 3, 2)


# -- CAB 15-16: donation to an NGO only after ten days of failed adoption -------------------------


def test_cab_15_16_ngo_donation_withheld_during_the_ten_adoption_days(app):  # type: ignore[no-untyped-def]
    capture = _capture(CAB, MONDAY, species="dog")
    assert capture.deadline_on == date(2026, 3, 7)
    for day in (date(2026, 3, 8), date(2026, 3, 17)):  # first and last day for adoption
        offered = services.destinations_offered(CAB, capture, today=day)
        assert offered == ["adoption"], day
        ((what, why),) = services.destinations_withheld(CAB, capture, today=day)
        assert what == "ngo_donation"
        assert "18/03/2026" in why and "10 dias" in why and "(CAB 15-16)" in why


def test_cab_15_16_ngo_donation_offered_from_the_eleventh_day(app):  # type: ignore[no-untyped-def]
    capture = _capture(CAB, MONDAY, species="dog")
    day = date(2026, 3, 18)
    assert services.destinations_offered(CAB, capture, today=day) == ["adoption", "ngo_donation"]
    assert services.destinations_withheld(CAB, capture, today=day) == []
    org = factories.make_org()
    decision = _destine(CAB, capture, day, "ngo_donation", organization_id=org.id)
    assert decision.destination == "ngo_donation"


def test_cab_15_16_early_ngo_donation_refused_saying_when(app):  # type: ignore[no-untyped-def]
    capture = _capture(CAB, MONDAY, species="cat")
    org = factories.make_org()
    err = _refusal(CAB, capture, date(2026, 3, 17), "ngo_donation", organization_id=org.id)
    assert (err.field, err.code) == ("destination", "not_yet")
    assert "18/03/2026" in err.message and "CAB 15-16" in err.message


def test_cab_15_16_other_laws_offer_their_list_at_once(app):  # type: ignore[no-untyped-def]
    capture = _capture(GRU, MONDAY, species="dog")
    assert services.destinations_withheld(GRU, capture, today=date(2026, 3, 6)) == []
    offered = services.destinations_offered(GRU, capture, today=date(2026, 3, 6))
    assert offered == ["adoption", "ngo_donation"]


# -- BJP 25 §3: community return second, after adoption or an NGO ---------------------------------


def test_bjp_25_3_community_return_needs_priority_one_to_have_failed(app):  # type: ignore[no-untyped-def]
    capture = _capture(BJP, MONDAY, species="dog")
    animal = ("registered", "sterilised", "vaccinated", "dewormed")
    err = _refusal(
        BJP,
        capture,
        date(2026, 3, 5),
        "community_return",
        carer_name="Dona Maria",
        community_conditions=animal,
    )
    assert (err.field, err.code) == ("community_conditions", "conditions_missing")
    assert "prioridade I" in err.message and "BJP 25 §3 I-II" in err.message
    decision = _destine(
        BJP,
        capture,
        date(2026, 3, 5),
        "community_return",
        carer_name="Dona Maria",
        community_conditions=("earlier_priorities_failed", *animal),
    )
    assert decision.community_conditions == [*animal, "earlier_priorities_failed"]


def test_bjp_25_3_priority_one_listed_first(app):  # type: ignore[no-untyped-def]
    capture = _capture(BJP, MONDAY, species="cat")
    offered = services.destinations_offered(BJP, capture, today=date(2026, 3, 5))
    assert offered == ["adoption", "ngo_donation", "community_return"]


# -- Lei 14.228/2021 art. 2º §2º: the NGO claim window is the programme's -------------------------


def test_lei_14228_art_2_2_claim_window_follows_the_programme_policy(app):  # type: ignore[no-untyped-def]
    # Friday 6 March 2026: 3 business days → Wed 11; a city choosing 5 → Fri 13 March
    assert euthanasia.claim_window_end(GRU, date(2026, 3, 6)) == date(2026, 3, 11)
    five = GRU.model_copy(
        update={"programme": GRU.programme.model_copy(update={"ngo_claim_business_days": 5})}
    )
    assert euthanasia.claim_window_end(five, date(2026, 3, 6)) == date(2026, 3, 13)
    one = GRU.model_copy(
        update={"programme": GRU.programme.model_copy(update={"ngo_claim_business_days": 1})}
    )
    assert euthanasia.claim_window_end(one, date(2026, 3, 6)) == date(2026, 3, 9)


# -- GRU 61: the observation days are the CCZ's -------------------------------------------------


def test_gru_61_observation_uses_the_programme_days(app):  # type: ignore[no-untyped-def]
    # 10 calendar days from Mon 2 Mar: Thu 12 Mar; then the 3 business days: Fri 13, Mon 16, Tue 17
    capture = _capture(GRU, MONDAY, species="dog", custody_type="observation", reason="observation")
    assert capture.deadline_on == date(2026, 3, 17)
    assert capture.reason_article == "GRU 61"
    seven = GRU.model_copy(
        update={"programme": GRU.programme.model_copy(update={"observation_days": 7})}
    )
    # 7 days: Mon 9 Mar; then Tue 10, Wed 11, Thu 12
    assert services.observation_ends(seven, capture) == date(2026, 3, 9)
    kwargs = dict(size="small", captured_on=MONDAY, tagged=True, custody_type="observation")
    assert services.hold_deadline(seven, **kwargs) == date(2026, 3, 12)


def test_cab_30_observation_days_stay_the_laws(app):  # type: ignore[no-untyped-def]
    capture = _capture(CAB, MONDAY, species="dog", custody_type="observation", reason="observation")
    assert services.observation_ends(CAB, capture) == date(2026, 3, 12)
    assert capture.reason_article == "CAB 14, 30"
