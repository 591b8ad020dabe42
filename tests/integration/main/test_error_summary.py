"""The error summary of a refused form (issue 15): every link in it reaches an element of the page,
radio groups included, and it takes the focus when the page loads (no script needed)."""

from __future__ import annotations

import re

from tests.factories import ngo_user


def _summary_links_and_ids(html: str) -> tuple[list[str], set[str]]:
    summary = re.search(
        r'<div class="br-message danger"[^>]*id="erros-formulario"[^>]*>(.*?)</ul>',
        html,
        flags=re.S,
    )
    assert summary, "no error summary"
    return re.findall(r'href="#([^"]+)"', summary.group(1)), set(
        re.findall(r'\bid="([^"]+)"', html)
    )


def test_registration_wizard_summary_links_reach_the_radio_groups(client, auth) -> None:
    auth.login(roles=("citizen",))
    html = client.post("/animais/cadastrar", data={"name": "Rex"}).get_data(as_text=True)
    links, ids = _summary_links_and_ids(html)
    assert {"species-0", "sex-0", "size-0"} <= set(links), links
    assert not [link for link in links if link not in ids], (links, ids)


def test_ngo_listing_form_summary_links_reach_the_radio_groups(app, client, auth) -> None:
    from portal.extensions import db

    user, org = ngo_user()
    db.session.commit()
    auth.login(user)
    html = client.post("/adocao/gestao/novo", data={"name": "Bidu", "owner": str(org.id)}).get_data(
        as_text=True
    )
    links, ids = _summary_links_and_ids(html)
    assert {"species-0", "sex-0", "size-0"} <= set(links), links
    assert not [link for link in links if link not in ids], (links, ids)


def test_error_summary_takes_the_focus_when_the_page_loads(client) -> None:
    html = client.post("/conta/cadastro", data={"cpf": "123"}).get_data(as_text=True)
    tag = re.search(r'<div class="br-message danger"[^>]*id="erros-formulario"[^>]*>', html)
    assert tag and "autofocus" in tag.group(0) and 'tabindex="-1"' in tag.group(0)
