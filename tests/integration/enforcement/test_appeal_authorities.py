"""Who decides a defence (1st instance) and an appeal (2nd instance), read from each profile's
``notices`` authorities: GRU 102 and 103 §1 I-II name them; CABO 40 names only the first (the CCZ
coordinator judges the merit); BJP, VV and CAB name nobody, so the portal says "a coordenação do
CCZ" and cites the notices' article."""

from __future__ import annotations

import pytest
from flask import Flask

from portal.blueprints.enforcement.authority import authority_line, deciding_authority
from portal.models import EnforcementDocument, EnforcementKind
from portal.profiles import load_profile

CCZ = "a coordenação do CCZ"


def _penalty(fine_cents: int | None) -> EnforcementDocument:
    """A penalty notice, with a fine or with another penalty (the instance rules only read this)."""
    return EnforcementDocument(kind=EnforcementKind.PENALTY, fine_cents=fine_cents)


FINE = 10000
OTHER = None  # e.g. apprehension or interdiction, no fine


def test_gru_102_103_par1_defence_by_the_superior_appeal_by_director_or_secretary(
    app: Flask,
) -> None:
    profile = load_profile("guarulhos")
    assert deciding_authority(profile, _penalty(FINE), 1) == (
        "o superior hierárquico imediato do agente que lavrou o auto",
        "GRU 102",
    )
    assert deciding_authority(profile, _penalty(FINE), 2) == (
        "o Diretor de Departamento hierarquicamente superior",
        "GRU 103 §1 I",
    )
    assert deciding_authority(profile, _penalty(OTHER), 2) == (
        "o Secretário Municipal de Saúde",
        "GRU 103 §1 II",
    )


def test_cabo_40_defence_is_judged_by_the_ccz_coordinator_and_no_appeal_judge_is_named(
    app: Flask,
) -> None:
    profile = load_profile("cabo")
    for fine in (FINE, OTHER):
        # CABO 40: "sendo o seu mérito julgado pelo coordenador do CCZ"
        assert deciding_authority(profile, _penalty(fine), 1) == ("o coordenador do CCZ", "CABO 40")
        # the law has no appeal and names nobody for it
        assert deciding_authority(profile, _penalty(fine), 2) == (CCZ, "CABO 40")
    assert authority_line(profile, _penalty(FINE), 1) == "o coordenador do CCZ (CABO 40)"


def test_bjp_30_no_defence_or_appeal_judge_is_named_so_the_ccz_coordination_decides(
    app: Flask,
) -> None:
    profile = load_profile("bjp")
    for fine in (FINE, OTHER):
        # BJP 30 I-II: the agent intimates and fines; the law has no defence or appeal
        assert deciding_authority(profile, _penalty(fine), 1) == (CCZ, "BJP 30 I")
        assert deciding_authority(profile, _penalty(fine), 2) == (CCZ, "BJP 30 I")


def test_vv_51_38_no_defence_or_appeal_judge_is_named_so_the_ccz_coordination_decides(
    app: Flask,
) -> None:
    profile = load_profile("vilavelha")
    for fine in (FINE, OTHER):
        # VV 51: the agent applies the penalties; 38: "reclamação ao órgão competente do
        # Executivo", a body the law does not name
        assert deciding_authority(profile, _penalty(fine), 1) == (CCZ, "VV 23 I")
        assert deciding_authority(profile, _penalty(fine), 2) == (CCZ, "VV 23 I")


def test_cab_41_no_defence_or_appeal_judge_is_named_so_the_ccz_coordination_decides(
    app: Flask,
) -> None:
    profile = load_profile("cabeceira")
    for fine in (FINE, OTHER):
        # CAB 41: the agents apply the penalties; unlike CABO 40, nobody judges their merit
        assert deciding_authority(profile, _penalty(fine), 1) == (CCZ, "CAB —")
        assert deciding_authority(profile, _penalty(fine), 2) == (CCZ, "CAB —")


@pytest.mark.parametrize("key", ["bjp", "vilavelha", "cabeceira"])
def test_laws_naming_nobody_leave_every_authority_empty(key: str) -> None:
    notices = load_profile(key).notices
    assert notices.first_instance_authority is None
    assert notices.second_instance_authority is None
    assert notices.second_instance_other_authority is None
