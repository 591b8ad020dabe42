"""Maus-tratos report rules that come from the laws (categories per city) and the pure helpers
(distance, protocol, tracking code, photo GPS) — DOMAIN §7, issue 12."""

from __future__ import annotations

from pathlib import Path

import pytest

from portal.blueprints.reports.services import (
    distance_metres,
    hash_code,
    new_tracking_code,
    normalise_protocol,
)
from portal.profiles import PROFILE_DIR, ProfileError, load_profile
from portal.profiles.schema import KNOWN_REPORT_CATEGORIES


def _codes(key: str) -> dict[str, str]:
    return {c.code: c.article for c in load_profile(key).reports.categories}


def test_vv_3_ix_lists_the_sixteen_conducts_for_dogs_and_cats() -> None:
    codes = _codes("vilavelha")
    assert codes["torture"] == "VV 3 IX a" and codes["abandonment"] == "VV 3 IX k"
    assert codes["shows"] == "VV 3 IX p" and codes["chain_or_small_space"] == "VV 3 IX e"
    assert len([a for a in codes.values() if a != "VV 3 IX"]) == 16  # items a) to p)


def test_gru_10_v_lists_its_conducts_a_to_m() -> None:
    codes = _codes("guarulhos")
    assert codes["no_shelter"] == "GRU 10 V a" and codes["poisoning"] == "GRU 10 V i"
    assert codes["slaughter"] == "GRU 10 V k" and codes["other"] == "GRU 10 V m"
    assert "abandonment" not in codes  # GRU 10 V does not name it; "other" covers it


def test_bjp_29_lists_its_conducts_a_to_h() -> None:
    codes = _codes("bjp")
    assert codes["wounding"] == "BJP 29 a" and codes["abandonment"] == "BJP 29 h"
    assert codes["excessive_work"] == codes["punishment"] == "BJP 29 c"
    assert codes["inhumane_killing"] == "BJP 29 g"


@pytest.mark.parametrize("key,article", [("cabo", "CABO 3 XI"), ("cabeceira", "CAB 2 XIV")])
def test_cabo_3_xi_and_cab_2_xiv_define_maus_tratos_by_examples(key: str, article: str) -> None:
    codes = _codes(key)
    assert set(codes) == {"no_food", "overload", "torture", "injured_use", "experiments", "other"}
    assert set(codes.values()) == {article}


@pytest.mark.parametrize("key", ["bjp", "cabeceira", "cabo", "guarulhos", "vilavelha"])
def test_every_profile_has_categories_checklist_and_deadlines(key: str) -> None:
    reports = load_profile(key).reports
    assert reports.categories[-1].code == "other"
    assert [i.code for i in reports.checklist] == [
        "shelter",
        "water",
        "food",
        "hygiene",
        "chain",
        "space",
        "wounds",
        "care",
    ]
    assert reports.triage_days >= 1 and reports.inspection_days >= 1
    assert reports.cite("triage_days").endswith("—")  # the laws set no deadline: service targets


def test_a_sixth_city_needs_only_a_toml_file(tmp_path: Path) -> None:
    text = (PROFILE_DIR / "guarulhos.toml").read_text(encoding="utf-8")
    text = text.replace(
        '{ code = "capture_harm", article = "GRU 10 V l" },',
        '{ code = "balloons", article = "GRU 10 V l", label = "Soltura de balões" },',
    )
    (tmp_path / "sorocaba.toml").write_text(text, encoding="utf-8")
    profile = load_profile("sorocaba", tmp_path)
    category = profile.reports.category("balloons")
    assert category is not None and category.label == "Soltura de balões"


def test_an_unknown_category_without_label_is_a_profile_error(tmp_path: Path) -> None:
    text = (PROFILE_DIR / "guarulhos.toml").read_text(encoding="utf-8")
    text = text.replace(
        '{ code = "capture_harm", article = "GRU 10 V l" },',
        '{ code = "balloons", article = "GRU 10 V l" },',
    )
    (tmp_path / "guarulhos.toml").write_text(text, encoding="utf-8")
    with pytest.raises(ProfileError, match="balloons"):
        load_profile("guarulhos", tmp_path)


def test_known_codes_all_have_a_label() -> None:
    from portal.blueprints.reports.labels import CATEGORY_LABELS

    assert set(CATEGORY_LABELS) == KNOWN_REPORT_CATEGORIES


def test_distance_within_50_metres() -> None:
    assert 30 < distance_metres(-23.45, -46.53, -23.4503, -46.53) < 40
    assert distance_metres(-23.45, -46.53, -23.451, -46.53) > 100


def test_tracking_code_shape_and_forgiving_hash() -> None:
    code = new_tracking_code()
    assert len(code) == 14 and code.count("-") == 2
    assert not set(code.replace("-", "")) & set("01OIL")
    assert hash_code(code) == hash_code(code.lower().replace("-", " "))
    assert normalise_protocol(" den-2026-000001 ") == "DEN-2026-000001"
