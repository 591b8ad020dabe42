"""Issue 8 (security 7): a CPF typed in the RGA lookup or the header search is answered on the
spot, never redirected into another URL (and the access log behind it), never echoed in full."""

from __future__ import annotations

import pytest

from tests import factories

CPF = factories.make_cpf(4242)


def _shapes(cpf: str) -> list[str]:
    return [
        cpf,
        f"{cpf[:3]}.{cpf[3:6]}.{cpf[6:9]}-{cpf[9:]}",
        f"{cpf[:3]} {cpf[3:6]} {cpf[6:9]} {cpf[9:]}",
        cpf[:-1] + str((int(cpf[-1]) + 1) % 10),
    ]  # the last one fails the check digit


def _assert_not_passed_on(response, cpf: str) -> None:  # type: ignore[no-untyped-def]
    location = response.headers.get("Location", "")
    digits = "".join(ch for ch in location if ch.isdigit())
    assert cpf[:9] not in digits, location
    body = response.get_data(as_text=True)
    plain = body.replace(".", "").replace("-", "").replace(" ", "")
    assert cpf not in plain and cpf[:-1] not in plain
    assert "RGA" in body and "CPF" in body


@pytest.mark.parametrize("typed", _shapes(CPF))
def test_rga_lookup_with_a_cpf_explains_instead_of_redirecting(client, typed) -> None:
    response = client.get("/rga", query_string={"numero": typed})
    assert response.status_code == 200
    assert "Location" not in response.headers
    assert response.headers["Referrer-Policy"] == "no-referrer"
    _assert_not_passed_on(response, typed.replace(".", "").replace("-", "").replace(" ", ""))


@pytest.mark.parametrize("typed", _shapes(CPF))
def test_header_search_with_a_cpf_explains_instead_of_redirecting(client, typed) -> None:
    response = client.get("/busca", query_string={"q": typed})
    assert response.status_code == 200
    assert "Location" not in response.headers
    _assert_not_passed_on(response, typed.replace(".", "").replace("-", "").replace(" ", ""))


def test_rga_page_reached_with_a_cpf_does_not_echo_it(client) -> None:
    response = client.get(f"/rga/{CPF}")
    assert response.status_code == 400
    _assert_not_passed_on(response, CPF)


def test_rga_numbers_and_words_still_go_where_they_did(client) -> None:
    response = client.get("/rga", query_string={"numero": "C-2026-000123-7"})
    assert response.status_code == 302 and "/rga/C-2026-000123-7" in response.headers["Location"]
    assert client.get("/rga").status_code == 200
