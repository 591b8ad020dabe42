"""Adoption (VV 28-29; BJP 24, 28; CAB 16-17; GRU 88): public search, applications with
eligibility, NGO and CCZ management, hand-over with RGA, fee and the VV 28 §3 leaflet.

Module map: ``eligibility`` (who may adopt; its rules in ``rule_results``, ``proof_rules``,
``bar_rules``), ``services`` (re-exports ``organizations``, ``listings``, ``photos``, ``documents``,
``bars``; errors in ``errors``), ``applications`` (submit, review; steps in ``workflow``),
``handover``, ``search`` (keyset search), ``leaflet`` (VV 28 §3), ``routes`` (public and applicant
pages), ``staff`` (the pages of NGOs and CCZ staff: NGO registrations and bars; ``staff.manage``,
listings; ``staff.review``, an application's review and hand-over), ``progress`` (each
application's next step, who, by when), ``todo`` (the home to-do lines), ``web`` (what the pages
share), ``demo`` (demo data). The API lives in ``portal.blueprints.api.listings``.
"""

from typing import TYPE_CHECKING

import click
from flask import Blueprint, Flask
from flask.cli import with_appcontext
from flask_babel import lazy_gettext as _l
from flask_login import current_user

from portal.access import is_signed_in

if TYPE_CHECKING:
    from portal.models import ApiClient

bp = Blueprint("adoption", __name__, url_prefix="/adocao")


def _manager() -> bool:
    return bool(
        current_user.is_authenticated and (current_user.is_staff or current_user.has_role("ngo"))
    )


def _link_ngo_client(client: "ApiClient") -> None:
    """``create-api-client --kind ngo``: the token acts for the NGO of that name."""
    from portal.blueprints.adoption.organizations import link_api_client

    link_api_client(client)


def init_app(app: Flask) -> None:
    """Menu entries, staff tiles, the NGO document rule, LGPD section, the NGO API-client hook,
    demo data, the reindex command and the staff queues."""
    from portal.blueprints.adoption import demo, queues, todo
    from portal.blueprints.adoption.documents import DOCUMENT_PURPOSE, document_file_rule
    from portal.blueprints.adoption.labels import AUDIT_LABELS
    from portal.blueprints.adoption.lgpd import export_adoption
    from portal.blueprints.adoption.routes import animal_age_filter
    from portal.wiring import wiring

    wiring(app).audit_labels(AUDIT_LABELS)  # its audited actions in words

    app.add_template_filter(animal_age_filter, "animal_age")  # "cerca de 2 anos e 1 mês"
    wired = wiring(app)
    wired.nav(_l("Adotar"), "adoption.search", order=30)
    wired.nav(_l("Minhas adoções"), "adoption.my_applications", order=35, visible=is_signed_in)
    wired.nav(_l("Gestão de adoções"), "adoption.manage", order=70, visible=_manager)
    for label, endpoint in (
        (_l("Adoção: anúncios e pedidos do CCZ"), "adoption.manage"),
        (_l("Adoção: cadastro de ONGs"), "adoption.organizations"),
        (_l("Adoção: impedimentos por CPF"), "adoption.bars"),
    ):
        wired.admin_link(label, endpoint, ("agent", "vet", "coordinator", "admin"))
    wired.file_rule(DOCUMENT_PURPOSE, document_file_rule)
    wired.exporter("adocao", export_adoption)
    wired.todo("adoption", todo.adoption_todo)
    wired.api_client_hook("ngo", _link_ngo_client)
    wired.demo_seeder(demo.seed_adoption_demo)
    wired.command(_reindex_search)
    wired.queues(queues.declare_queues)


@click.command("adoption-reindex-search")
@with_appcontext
def _reindex_search() -> None:
    """Recompute the free-text search words of every adoption listing."""
    from portal.blueprints.adoption.search import refresh_search_text
    from portal.extensions import db

    count = refresh_search_text()
    db.session.commit()
    click.echo(f"{count} anúncios reindexados.")


from portal.blueprints.adoption import routes, staff  # noqa: E402,F401
