"""The staff workspace: queue cards with counts, oldest age and overdue items; queue lists with
keyset pages, CSV and bulk actions; who may open which queue."""

from __future__ import annotations

from datetime import date, timedelta

from sqlalchemy import select

from portal.extensions import db
from portal.models import CopyStatus, DocumentCopyRequest, OwnershipTransfer, TransferStatus
from portal.models.base import utcnow
from portal.workspace import page, registry, stats
from tests import factories


def _copy(animal, *, requested_days_ago: int, valid_for: int = 45) -> DocumentCopyRequest:
    requested = date.today() - timedelta(days=requested_days_ago)
    copy = DocumentCopyRequest(
        animal=animal,
        kind="card",
        requested_on=requested,
        requested_at=utcnow() - timedelta(days=requested_days_ago),
        valid_until=requested + timedelta(days=valid_for),
    )
    db.session.add(copy)
    db.session.flush()
    return copy


def test_copy_queue_counts_items_oldest_age_and_those_past_the_provisional_validity(app) -> None:
    owner = factories.user()
    animal = factories.animal(owner)
    _copy(animal, requested_days_ago=2)
    _copy(animal, requested_days_ago=50)  # GRU 19 §1: 45 days of validity have passed
    _copy(animal, requested_days_ago=46)
    issued = _copy(animal, requested_days_ago=90)
    issued.status = CopyStatus.ISSUED  # out of the queue
    db.session.commit()

    card = stats(registry().get("rga-segundas-vias"))
    assert card.count == 3
    assert card.overdue == 2
    assert card.oldest_days == 50


def test_a_transfer_enters_the_stuck_queue_only_after_30_days(app) -> None:
    old, new = factories.user(), factories.user()
    animal = factories.animal(old)
    for days in (29, 31):
        db.session.add(
            OwnershipTransfer(
                animal=animal,
                from_owner_id=old.id,
                to_owner_id=new.id,
                status=TransferStatus.PENDING,
                requested_at=utcnow() - timedelta(days=days),
            )
        )
    db.session.commit()
    card = stats(registry().get("rga-transferencias-paradas"))
    assert (card.count, card.overdue) == (1, 1)


def test_staff_home_shows_busy_queues_and_folds_empty_ones(app, client, auth) -> None:
    owner = factories.user()
    _copy(factories.animal(owner), requested_days_ago=60)
    db.session.commit()
    auth.login(roles=("agent",))
    html = client.get("/admin/").get_data(as_text=True)
    assert "Painel do CCZ" in html
    assert "/ccz/filas/rga-segundas-vias" in html
    assert "1 com prazo vencido" in html
    assert "filas vazias" in html  # the others fold away


def test_a_citizen_cannot_open_a_queue(app, client, auth) -> None:
    auth.login(roles=("citizen",))
    assert client.get("/ccz/filas/rga-segundas-vias").status_code == 403
    assert client.get("/ccz/filas/rga-segundas-vias.csv").status_code == 403


def test_unknown_queue_is_404(app, client, auth) -> None:
    auth.login(roles=("agent",))
    assert client.get("/ccz/filas/nao-existe").status_code == 404


def test_queue_pages_follow_the_deadline_order_without_repeating_or_skipping(app) -> None:
    owner = factories.user()
    animal = factories.animal(owner)
    made = [_copy(animal, requested_days_ago=d % 40) for d in range(120)]
    db.session.commit()
    queue = registry().get("rga-segundas-vias")
    seen: list[int] = []
    args: dict[str, str] = {}
    while True:
        rows, following = page(queue, args)
        seen += [r.id for r in rows]
        if not following:
            break
        args = {"apos": following}
    assert sorted(seen) == sorted(c.id for c in made)
    assert len(seen) == len(set(seen))
    order = [db.session.get(DocumentCopyRequest, i).requested_at for i in seen]
    assert order == sorted(order)


def test_overdue_filter_and_csv_export(app, client, auth) -> None:
    owner = factories.user()
    animal = factories.animal(owner)
    _copy(animal, requested_days_ago=1)
    _copy(animal, requested_days_ago=60)
    db.session.commit()
    auth.login(roles=("agent",))
    html = client.get("/ccz/filas/rga-segundas-vias?atrasados=1").get_data(as_text=True)
    assert html.count('name="ids"') == 1
    response = client.get("/ccz/filas/rga-segundas-vias.csv")
    assert response.status_code == 200
    lines = response.get_data(as_text=True).lstrip("\ufeff").strip().splitlines()
    assert len(lines) == 3  # header + 2 rows
    assert animal.rga in lines[1]


def test_bulk_action_issues_the_selected_second_copies(app, client, auth) -> None:
    owner = factories.user()
    animal = factories.animal(owner)
    copies = [_copy(animal, requested_days_ago=d) for d in (1, 2, 3)]
    db.session.commit()
    auth.login(roles=("agent",))
    response = client.post(
        "/ccz/filas/rga-segundas-vias/lote", data={"ids": [copies[0].id, copies[2].id]}
    )
    assert response.status_code == 302
    db.session.expire_all()
    assert [db.session.get(DocumentCopyRequest, c.id).status for c in copies] == [
        CopyStatus.ISSUED,
        CopyStatus.REQUESTED,
        CopyStatus.ISSUED,
    ]


def test_staff_search_finds_a_person_by_cpf_and_their_animal_by_rga_without_cpf_in_url(
    app, client, auth
) -> None:
    from portal.models import AuditEvent

    owner = factories.user(full_name="Maria Aparecida Souza")
    animal = factories.animal(owner, name="Totó")
    db.session.commit()
    auth.login(roles=("agent",))
    response = client.post("/ccz/busca", data={"q": owner.cpf})
    html = response.get_data(as_text=True)
    assert response.status_code == 200
    results = html.split('id="grupo-pessoas"')[1]
    assert "Maria Aparecida Souza" in results and owner.cpf not in results  # shown masked
    assert "Totó" in html  # a CPF also finds the owner's animals
    html = client.post("/ccz/busca", data={"q": animal.rga}).get_data(as_text=True)
    assert animal.rga in html and "Animais (1)" in html
    events = db.session.scalars(
        select(AuditEvent).where(AuditEvent.action == "workspace.searched")
    ).all()
    assert len(events) == 2
    assert all(owner.cpf not in str(e.detail) for e in events)


def test_staff_search_is_not_for_citizens(app, client, auth) -> None:
    auth.login(roles=("citizen",))
    assert client.post("/ccz/busca", data={"q": "Maria"}).status_code == 403


def test_dashboard_counts_registrations_by_species_and_channel(app, client, auth) -> None:
    from portal.workspace import Period, registry

    owner = factories.user(district="Centro")
    for species in ("dog", "dog", "cat"):
        factories.animal(owner, species=species, registered_on=date(2026, 3, 10))
    factories.animal(owner, species="cat", registered_on=date(2026, 4, 1))
    db.session.commit()
    charts = registry().charts
    period = Period(date(2026, 3, 1), date(2026, 4, 30))
    by_species = charts["registros-por-especie"].compute(period)
    assert by_species.rows == [("2026-03", [2, 1]), ("2026-04", [0, 1])]
    by_channel = charts["registros-por-canal"].compute(
        Period(date(2026, 3, 1), date(2026, 3, 31), "centro")
    )
    assert by_channel.rows == [("2026-03", [3, 0, 0])]  # online
    assert charts["registros-por-especie"].compute(
        Period(date(2026, 3, 1), date(2026, 3, 31), "Outro bairro")
    ).rows == [("2026-03", [0, 0])]

    auth.login(roles=("coordinator",))
    html = client.get("/ccz/indicadores?de=2026-03-01&ate=2026-04-30").get_data(as_text=True)
    assert "<svg" in html and "Registros (RGA) por mês e espécie" in html
    csv_text = client.get(
        "/ccz/indicadores/registros-por-especie.csv?de=2026-03-01&ate=2026-04-30"
    ).get_data(as_text=True)
    assert "2026-03;2;1" in csv_text


def test_dashboards_are_for_coordinators(app, client, auth) -> None:
    auth.login(roles=("agent",))
    assert client.get("/ccz/indicadores").status_code == 403


def test_queue_snapshot_feeds_the_backlog_chart(app) -> None:
    from portal.workspace import Period, registry, snapshot_queues

    owner = factories.user()
    _copy(factories.animal(owner), requested_days_ago=60)
    db.session.commit()
    snapshot_queues(date(2026, 11, 30))
    snapshot_queues(date(2026, 11, 30))  # a second run that day updates, never duplicates
    data = (
        registry()
        .charts["filas-ao-longo-do-tempo"]
        .compute(Period(date(2026, 11, 1), date(2026, 11, 30)))
    )
    assert data.rows == [("30/11/2026", [1, 1])]


def test_reports_plug_into_queue_search_and_charts(app, client, auth) -> None:
    from portal.blueprints.reports import services as reports
    from portal.services.clock import local_today
    from portal.workspace import Period

    profile = app.extensions["portal_profile"]
    report, _code = reports.create_report(
        profile,
        reports.ReportData(
            category=profile.reports.categories[0].code,
            description="Cão preso sem água.",
            street="Rua A",
            number="1",
            district="Centro",
        ),
        today=local_today(),
    )
    db.session.commit()
    assert stats(registry().get("denuncias-triagem")).count == 1
    auth.login(roles=("agent",))
    html = client.post("/ccz/busca", data={"q": report.protocol.lower()}).get_data(as_text=True)
    assert "Denúncias (protocolo) (1)" in html
    today = local_today()
    data = registry().charts["denuncias-por-bairro"].compute(Period(today, today))
    assert data.rows == [("Centro", [1])]
