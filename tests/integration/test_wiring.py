"""Explicit wiring (issue 9): what the domains add is kept per app, declared in ``init_app``."""

from __future__ import annotations

from portal.wiring import wiring


def test_two_apps_keep_their_own_registries(make_app) -> None:
    first, second = make_app(), make_app()
    one, other = wiring(first), wiring(second)
    assert one is not other
    for name in ("nav_items", "admin_links", "demo_seeders", "settlement_listeners"):
        entries = getattr(one, name)
        assert entries and len(entries) == len(getattr(other, name)), name
        assert entries is not getattr(other, name)
    one.nav("Só no primeiro", "main.index", order=1)
    assert all(item.label != "Só no primeiro" for item in other.nav_items)


def test_every_entry_is_declared_once(app) -> None:
    wired = wiring(app)
    endpoints = [item.endpoint for item in wired.nav_items]
    assert len(endpoints) == len(set(endpoints))
    seeders = wired.demo_seeders
    assert len(seeders) == len(set(seeders))
    listeners = wired.settlement_listeners
    assert len(listeners) == len(set(listeners))


def test_each_domain_declares_its_parts(app) -> None:
    wired = wiring(app)
    assert {"animais", "adocao", "pagamentos", "denuncias", "notificacoes", "recolhimentos"} <= set(
        wired.exporters
    )
    assert {"animals", "payments", "enforcement"} <= set(wired.todo_providers)
    assert "adoption_document" in wired.file_rules
    assert "ngo" in wired.api_client_hooks
    assert {"adoption-reindex-search", "enforcement-daily", "run-reminders"} <= set(
        app.cli.commands
    )
    queues = app.extensions["workspace_queues"].queues
    assert "rga-comprovantes" in queues and "recolhimento-devolucoes" in queues


def test_a_municipality_without_licences_wires_none_of_them(make_app) -> None:
    vv = make_app(PORTAL_PROFILE="vilavelha")
    wired = wiring(vv)
    assert "licencas" not in wired.exporters
    assert all(not item.endpoint.startswith("licences.") for item in wired.nav_items)
    assert not any(key.startswith("licencas") for key in vv.extensions["workspace_queues"].queues)


def test_templates_get_another_domains_data_from_the_view_never_a_global(app) -> None:
    """Issue 28: enforcement's former Jinja globals are gone; the lower domains' views ask the
    wiring, which enforcement and animals answer in their ``init_app``."""
    former = {
        "enforcement_label",
        "apprehension_document",
        "person_consequences",
        "enforcement_repeat",
        "remedy_filings",
        "remedy_today",
    }
    assert not former & set(app.jinja_env.globals)
    wired = wiring(app)
    assert wired.apprehension_issuer is not None and wired.capture_apprehension is not None
    assert wired.person_consequences is not None and wired.cnpj_notices is not None
    assert wired.address_listeners and wired.subject_finders
    assert "create-user" in app.cli.commands  # auth's command, declared in its init_app
