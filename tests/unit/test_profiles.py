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
