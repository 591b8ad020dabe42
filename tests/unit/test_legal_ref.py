"""Issue 25 point 3: every legal code a citizen reads comes with plain words, from one place
(``portal.services.legal.legal_ref``), the article a small link to its rule on /regras; and wide
tables carry their column names for the phone layout (``portal.tables.stack_table``)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from portal.profiles import load_profile
from portal.profiles.provisions import provision_titles
from portal.tables import stack_table


def test_legal_ref_puts_plain_words_before_the_article_linked_to_the_rules(app) -> None:
    from portal.services.legal import legal_ref

    with app.test_request_context():
        html = str(legal_ref("GRU 96 V"))
        assert html == (
            'prazo para a defesa <a class="portal-article" href="/regras#notificacoes">'
            "(GRU 96 V)</a>"
        )
        assert str(legal_ref("GRU 10 V a")).startswith("maus-tratos a animais <a ")
        assert str(legal_ref("GRU 10 V a", "falta de abrigo")).startswith("falta de abrigo <a")
        assert str(legal_ref(None)) == ""
        assert "<script>" not in str(legal_ref("GRU 96 V", "<script>"))


def test_legal_ref_filter_renders_in_templates(app) -> None:
    with app.test_request_context():
        out = app.jinja_env.from_string("{{ 'GRU 37 §1'|legal_ref }}").render()
    assert out.startswith("limite de cães e gatos por residência <a")
    assert 'href="/regras#residencia"' in out


@pytest.mark.parametrize("key", ["guarulhos", "bjp", "cabeceira", "cabo", "vilavelha"])
def test_every_citation_of_every_profile_has_a_plain_title(app, key) -> None:
    profile = load_profile(key)
    titles = provision_titles(profile)
    assert titles, key
    assert all(provision.title for provision in titles.values())
    # every provision the profile file cites, at any depth, has its plain words
    text = (Path(__file__).parents[2] / "portal" / "profiles" / f"{key}.toml").read_text()
    cited = set(re.findall(r'"([A-Z]{2,8} [0-9][^"]*)"', text))
    assert cited - set(titles) == set()


def test_stack_table_labels_each_cell_with_its_column() -> None:
    html = stack_table(
        '<table class="portal-table"><thead><tr><th>Protocolo</th><th colspan="2">Onde</th>'
        "<th><span>Ações</span></th></tr></thead><tbody><tr><td>DEN-1</td><td>Centro</td>"
        '<td data-label="Rua">X</td><td><a href="#">abrir</a></td></tr></tbody></table>'
    )
    assert 'class="portal-table portal-table-stack"' in html
    assert '<td data-label="Protocolo">DEN-1</td>' in html
    assert '<td data-label="Onde">Centro</td>' in html
    assert '<td data-label="Rua">X</td>' in html  # a label written by hand is kept
    assert '<td data-label="Ações">' in html
    assert stack_table(html) == html  # idempotent
