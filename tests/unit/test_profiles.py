"""Jurisdiction profiles: shipped files load, their numbers match the law, bad files are named."""

from __future__ import annotations

import json
import re
from decimal import Decimal
from pathlib import Path
from typing import Any

import pydantic
import pytest

from portal.profiles import (
    PROFILE_DIR,
    Profile,
    ProfileError,
    available_profiles,
    load_profile,
)
from portal.profiles.schema import Amount
from portal.profiles.summary import rule_sections

SHIPPED = ["bjp", "cabeceira", "cabo", "guarulhos", "vilavelha"]
GRU_SOURCE = (PROFILE_DIR / "guarulhos.toml").read_text(encoding="utf-8")
GOLDEN = Path(__file__).with_name("profiles_golden.json")


def _write(folder: Path, key: str, text: str) -> Path:
    path = folder / f"{key}.toml"
    path.write_text(text, encoding="utf-8")
    return path


def _citations(node: Any, path: str = "") -> list[tuple[str, str]]:
    """Every citation in a dumped profile: ``article`` values and ``cites`` entries."""
    found: list[tuple[str, str]] = []
    if isinstance(node, dict):
        for key, value in node.items():
            if key == "article" and isinstance(value, str):
                found.append((f"{path}.{key}", value))
            elif key == "cites":
                found += [(f"{path}.cites.{k}", v) for k, v in value.items()]
            else:
                found += _citations(value, f"{path}.{key}")
    elif isinstance(node, list):
        for i, value in enumerate(node):
            found += _citations(value, f"{path}[{i}]")
    return found


# -- loading -------------------------------------------------------------------------------------


def test_shipped_profiles_are_the_five_laws():
    assert available_profiles() == SHIPPED


@pytest.mark.parametrize("key", SHIPPED)
def test_every_shipped_profile_loads(key):
    profile = load_profile(key)
    assert isinstance(profile, Profile)
    assert profile.key == key


@pytest.mark.parametrize("key", SHIPPED)
def test_every_citation_names_the_profiles_own_law(key):
    profile = load_profile(key)
    citations = _citations(profile.model_dump())
    assert citations
    for where, citation in citations:
        assert citation.split(" ")[0] == profile.law_key, where
        assert re.match(r"^[A-Z]+ (\d+|—)", citation), where


@pytest.mark.parametrize("key", SHIPPED)
def test_every_money_value_is_integer_centavos(key):
    profile = load_profile(key)
    for price in profile.prices.values():
        assert isinstance(price.amount_cents, int)
        assert price.example  # placeholders until the city sets its price list
    for value in profile.unit_values:
        assert isinstance(value.value_cents, int)
    for charge in profile.reclaim.charges:
        for size in ("small", "medium", "large"):
            amount = charge.amount.for_size(size)
            assert amount is None or amount.cents is None or isinstance(amount.cents, int)


def test_load_profile_is_cached():
    assert load_profile("guarulhos") is load_profile("guarulhos")


def test_profiles_are_frozen():
    profile = load_profile("guarulhos")
    with pytest.raises(pydantic.ValidationError):
        profile.household.limit = 50  # type: ignore[misc]


def test_unknown_profile_lists_available_keys():
    with pytest.raises(ProfileError) as err:
        load_profile("atlantida")
    assert "'atlantida'" in str(err.value)
    assert "bjp, cabeceira, cabo, guarulhos, vilavelha" in str(err.value)


def test_profile_key_cannot_leave_the_profile_folder():
    with pytest.raises(ProfileError, match="Unknown profile"):
        load_profile("../profiles/guarulhos")


# -- malformed files -----------------------------------------------------------------------------


def test_malformed_profile_names_file_and_key_path(tmp_path):
    _write(tmp_path, "guarulhos", GRU_SOURCE.replace("limit = 5\n", 'limit = "cinco"\n'))
    with pytest.raises(ProfileError) as err:
        load_profile("guarulhos", directory=tmp_path)
    assert "guarulhos.toml: household.limit: Input should be a valid integer" in str(err.value)


def test_typo_in_a_key_is_an_error(tmp_path):
    _write(tmp_path, "guarulhos", GRU_SOURCE.replace("min_age_days = 120", "min_age_dayz = 120"))
    with pytest.raises(ProfileError) as err:
        load_profile("guarulhos", directory=tmp_path)
    message = str(err.value)
    assert "household.min_age_dayz: Extra inputs are not permitted" in message
    assert "household.min_age_days: Field required" in message


def test_citation_of_another_law_is_an_error(tmp_path):
    _write(
        tmp_path, "guarulhos", GRU_SOURCE.replace('article = "GRU 22 I"', 'article = "BJP 11 a"')
    )
    with pytest.raises(ProfileError, match=r"prices\.registration\.article: .*'GRU'"):
        load_profile("guarulhos", directory=tmp_path)


def test_price_referenced_by_a_charge_must_exist(tmp_path):
    text = GRU_SOURCE.replace(
        '[prices.reclaim_daily]\namount_cents = 1500\narticle = "GRU 82 §5"\n', ""
    )
    assert text != GRU_SOURCE
    _write(tmp_path, "guarulhos", text)
    with pytest.raises(ProfileError, match=r"reclaim\.charges\[1\]\.amount\.small\.price"):
        load_profile("guarulhos", directory=tmp_path)


def test_invalid_toml_names_the_file(tmp_path):
    _write(tmp_path, "guarulhos", GRU_SOURCE + "\n[household\n")
    with pytest.raises(ProfileError, match=r"^guarulhos\.toml: invalid TOML"):
        load_profile("guarulhos", directory=tmp_path)


def test_key_written_in_the_file_must_match_its_name(tmp_path):
    _write(tmp_path, "guarulhos", 'key = "bjp"\n' + GRU_SOURCE)
    with pytest.raises(ProfileError, match=r"guarulhos\.toml: key: 'bjp'"):
        load_profile("guarulhos", directory=tmp_path)


def test_licence_section_must_match_above_limit(tmp_path):
    _write(
        tmp_path,
        "guarulhos",
        GRU_SOURCE.replace('above_limit = "licence"', 'above_limit = "forbidden"'),
    )
    with pytest.raises(ProfileError, match="licence: must be present exactly when"):
        load_profile("guarulhos", directory=tmp_path)


def test_sixth_municipality_is_one_new_file(tmp_path):
    text = (
        GRU_SOURCE.replace("GRU ", "SOR ")
        .replace('law_key = "GRU"', 'law_key = "SOR"')
        .replace('municipality = "Guarulhos"', 'municipality = "Sorocaba"')
        .replace("limit = 5\n", "limit = 6\n")
    )
    _write(tmp_path, "sorocaba", text)
    assert available_profiles(tmp_path) == ["sorocaba"]
    profile = load_profile("sorocaba", directory=tmp_path)
    assert (profile.key, profile.municipality, profile.law_key) == ("sorocaba", "Sorocaba", "SOR")
    assert profile.household.limit == 6
    assert profile.household.cite("limit") == "SOR 37"
    assert rule_sections(profile)


# -- every value, against a reviewed snapshot ----------------------------------------------------


def test_shipped_profiles_parse_to_the_golden_values():
    """Each shipped profile's parsed values (every limit, day count, price and citation) equal
    the committed snapshot in profiles_golden.json. After changing a profile on purpose,
    regenerate the snapshot and read its diff before committing:

        .venv/bin/python -m tests.unit.test_profiles
    """
    golden = json.loads(GOLDEN.read_text(encoding="utf-8"))
    assert sorted(golden) == SHIPPED
    for key in SHIPPED:
        assert _parsed(key) == golden[key], (
            f"{key}: parsed values differ from {GOLDEN.name}; if the change is intended, "
            "regenerate it: .venv/bin/python -m tests.unit.test_profiles"
        )


def _parsed(key: str) -> dict[str, Any]:
    return load_profile(key).model_dump(mode="json")


def write_golden() -> None:
    text = json.dumps(
        {key: _parsed(key) for key in available_profiles()},
        ensure_ascii=False,
        indent=1,
        sort_keys=True,
    )
    GOLDEN.write_text(text + "\n", encoding="utf-8")


# -- behaviour beyond the values -----------------------------------------------------------------


def test_amount_cents_converts_units_with_the_value_in_force():
    profile = load_profile("vilavelha")
    one_percent = Amount(units=Decimal("0.01"), unit="MW")
    assert profile.amount_cents(one_percent, {"MW": 162100}) == 1621
    assert profile.amount_cents(one_percent, {"MW": 162150}) == 1622  # half-up to the centavo
    assert profile.amount_cents(Amount(price="registration"), {}) == 2500
    assert profile.amount_cents(Amount(cents=565), {}) == 565


def test_unit_values_seed_every_unit_the_profile_uses():
    for key in SHIPPED:
        profile = load_profile(key)
        units = {uv.unit for uv in profile.unit_values}
        assert profile.fine_unit in units | {"BRL"}, key


# -- the public rules page -----------------------------------------------------------------------


@pytest.mark.parametrize("key", SHIPPED)
def test_rule_sections_cover_every_profile(key):
    sections = rule_sections(load_profile(key))
    assert len(sections) >= 5
    for section in sections:
        assert section.title and section.items
        for item in section.items:
            assert item.text.strip()


def test_rule_sections_state_the_gru_limit_with_its_article():
    household = rule_sections(load_profile("guarulhos"))[0]
    first = household.items[0]
    assert "5" in first.text and "120" in first.text
    assert first.article == "GRU 37"


def test_rule_sections_say_prices_are_examples():
    prices = next(s for s in rule_sections(load_profile("bjp")) if s.title == "Preços públicos")
    assert all("valor de exemplo" in item.text for item in prices.items)
    assert any("R$ 25,00" in item.text for item in prices.items)


if __name__ == "__main__":  # regenerate the snapshot: .venv/bin/python -m tests.unit.test_profiles
    write_golden()


# -- the law read from the profile, not from code keyed by municipality --------------------------


def test_bjp_13_rabies_shot_is_yearly_and_cited():
    assert load_profile("bjp").revaccination_months() == (12, "BJP 13")


def test_vv_52_rabies_shot_is_yearly_and_cited():
    assert load_profile("vilavelha").revaccination_months() == (12, "VV 52")


@pytest.mark.parametrize("key", ["guarulhos", "cabo", "cabeceira"])
def test_gru_60_cabo_20_no_interval_in_law_is_programme_policy(key):
    """GRU 60 and CABO 20 leave the interval to the vaccine; CAB is silent: the programme's
    12 months apply, with no article."""
    assert load_profile(key).revaccination_months() == (12, None)


def test_bjp_7_par_unico_previous_owner_stays_responsible():
    assert load_profile("bjp").transfer_article() == "BJP 7 §ú"


def test_gru_18_par2_previous_owner_stays_responsible():
    assert load_profile("guarulhos").transfer_article() == "GRU 18 §2"


@pytest.mark.parametrize("key", ["vilavelha", "cabo", "cabeceira"])
def test_vv_13_says_nothing_about_responsibility_until_the_update(key):
    """VV 13 only has the new owner update the record; CABO and CAB have no transfer article."""
    assert load_profile(key).transfer_article() is None


def test_vv_23_v_and_iii_b_bar_adopters():
    bars = load_profile("vilavelha").adoption.bars
    assert (bars.commitment, bars.maltreatment, bars.apprehension) == (
        "VV 23 V",
        "VV 23 III b",
        None,
    )


def test_bjp_30_par_unico_bars_who_lost_possession_for_maltreatment():
    bars = load_profile("bjp").adoption.bars
    assert (bars.commitment, bars.maltreatment, bars.apprehension) == (None, "BJP 30 §ú", None)


def test_gru_88_par4_bars_who_caused_the_definitive_apprehension():
    bars = load_profile("guarulhos").adoption.bars
    assert (bars.commitment, bars.maltreatment, bars.apprehension) == (None, None, "GRU 88 §4")
    assert bars.article("apprehension") == "GRU 88 §4" and bars.article("unknown") is None


def test_vv_28_par3_only_vila_velha_requires_the_leaflet():
    required = {key: load_profile(key).adoption.leaflet_required for key in SHIPPED}
    assert required == {key: key == "vilavelha" for key in SHIPPED}
    assert load_profile("vilavelha").adoption.cite("leaflet_required") == "VV 28 §3"


@pytest.mark.parametrize("key", SHIPPED)
def test_vv_28_par2_proof_of_address_age_is_programme_policy_everywhere(key):
    """VV 28 §2 asks for an "atualizado" proof without a number; no law gives one."""
    assert load_profile(key).proof_of_address_max_age() == (90, None)


def test_programme_policy_is_set_in_the_file_without_code(tmp_path):
    text = (
        GRU_SOURCE + "\n[programme]\nrevaccination_months = 6\nproof_of_address_max_age_days = 60\n"
    )
    _write(tmp_path, "guarulhos", text)
    profile = load_profile("guarulhos", directory=tmp_path)
    assert profile.revaccination_months() == (6, None)
    assert profile.proof_of_address_max_age() == (60, None)


def test_law_number_wins_over_programme_policy(tmp_path):
    text = GRU_SOURCE.replace(
        'cites = { delivered = "GRU 85, 88 §2" }',
        "proof_of_address_max_age_days = 30\n"
        'cites = { delivered = "GRU 85, 88 §2", proof_of_address_max_age_days = "GRU 88" }',
    )
    _write(tmp_path, "guarulhos", text)
    assert load_profile("guarulhos", directory=tmp_path).proof_of_address_max_age() == (
        30,
        "GRU 88",
    )


def test_old_spelling_sterilised_is_read_as_sterilized(tmp_path):
    """One spelling (the columns' ``sterilized``); files of the previous release still load."""
    source = (PROFILE_DIR / "vilavelha.toml").read_text(encoding="utf-8")
    _write(tmp_path, "vilavelha", source.replace('"sterilized"', '"sterilised"'))
    assert "sterilized" in load_profile("vilavelha", directory=tmp_path).adoption.delivered


def test_sixth_municipality_gets_bars_leaflet_and_transfer_from_its_file(tmp_path):
    """Everything adoption and the RGA used to key by law key comes from the file."""
    source = (PROFILE_DIR / "vilavelha.toml").read_text(encoding="utf-8")
    text = source.replace("VV ", "SER ").replace('law_key = "VV"', 'law_key = "SER"')
    text = text.replace(
        "[registration.cites]\n", '[registration.cites]\nprevious_owner_liable = "SER 13"\n'
    )
    text = text.replace(
        "revaccination_months = 12\n", "revaccination_months = 12\nprevious_owner_liable = true\n"
    )
    _write(tmp_path, "serra", text)
    profile = load_profile("serra", directory=tmp_path)
    assert profile.adoption.bars.commitment == "SER 23 V"
    assert profile.adoption.leaflet_required and profile.transfer_article() == "SER 13"
    assert profile.revaccination_months() == (12, "SER 52")
    texts = [item.text for section in rule_sections(profile) for item in section.items]
    assert any("termo de compromisso" in text for text in texts)


def test_rules_page_says_which_numbers_are_programme_policy():
    items = {
        item.text: item.article
        for section in rule_sections(load_profile("guarulhos"))
        for item in section.items
    }
    revaccination = next(text for text in items if "vacina antirrábica" in text and "meses" in text)
    assert "regra do programa" in revaccination and items[revaccination] == ""
    proof = next(text for text in items if "comprovante de endereço vale" in text)
    assert "regra do programa" in proof and items[proof] == ""
    transfer = next(text for text in items if "dono anterior continua" in text)
    assert items[transfer] == "GRU 18 §2"


@pytest.mark.parametrize(
    ("key", "expected"),
    [
        ("guarulhos", ("caused_definitive_apprehension", "GRU 88 §4")),
        ("cabo", ("caused_definitive_apprehension", "CABO 39 §4")),
        ("vilavelha", ("lost_possession_maltreatment", "VV 23 III b")),
        ("bjp", ("lost_possession_maltreatment", "BJP 30 §ú II")),
        ("cabeceira", None),
    ],
)
def test_gru_88_par4_cabo_39_par4_vv_23_iii_b_bjp_30_consequence_on_repeat(key, expected):
    rule = load_profile(key).fines.definitive_consequence
    assert (None if rule is None else (rule.kind, rule.article)) == expected


# -- issue 27, enforcement: GRU 87 V-VI, GRU 89, VV 23 II, VV 42 §ú ------------------------------


@pytest.mark.parametrize("key", ["guarulhos", "bjp", "vilavelha", "cabo", "cabeceira"])
def test_gru_87_v_vi_gru_89_vv_23_ii_only_in_the_laws_that_have_them(key):
    profile = load_profile(key)
    motives = [(m.article, m.prior) for m in profile.fines.apprehension_after]
    assert motives == ([("GRU 87 V", 2), ("GRU 87 VI", 2)] if key == "guarulhos" else [])
    interdiction = profile.notices.interdiction
    assert (interdiction and interdiction.cite("expenses")) == (
        "GRU 89 §ú" if key == "guarulhos" else None
    )
    duties = profile.notices.remedy_duties
    assert (duties and duties.article) == ("VV 23 II" if key == "vilavelha" else None)


def test_gru_87_v_motives_need_the_repeat_window_of_gru_79():
    data = load_profile("guarulhos").model_dump()
    data["fines"]["repeat_window_years"] = None
    with pytest.raises(pydantic.ValidationError, match="repeat_window_years"):
        Profile.model_validate(data)


def test_vv_42_pu_rules_page_states_the_garbled_text_and_the_reading():
    items = {
        item.text: item.article
        for section in rule_sections(load_profile("vilavelha"))
        for item in section.items
    }
    reading = next(text for text in items if "ilegível" in text)
    assert items[reading] == "VV 42 §ú I" and "art. 50 I" in reading
    fine = next(text for text in items if text.startswith("Ferimento, mutilação"))
    assert items[fine] == "VV 42 §ú I"
    laudos = next(text for text in items if "laudo veterinário da integridade" in text)
    assert items[laudos] == "VV 23 II" and "o agente o define" in laudos
    gru = [i for s in rule_sections(load_profile("guarulhos")) for i in s.items]
    assert not any("ilegível" in i.text or "laudo veterinário da" in i.text for i in gru)
    repeat = next(i for i in gru if i.article.startswith("GRU 87 V;"))
    assert "reincidir" in repeat.text and repeat.article == "GRU 87 V; GRU 79"
