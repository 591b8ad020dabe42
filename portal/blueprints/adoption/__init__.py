"""Adoption (issue #5, DOMAIN §5): public search, applications with eligibility, NGO and CCZ
management, hand-over with RGA, fee and the VV 28 §3 leaflet.

Module map: ``eligibility`` (the rules of who may adopt), ``services`` (NGOs, listings, photos,
documents, bars), ``applications`` (submit, review, hand-over), ``search`` (keyset search),
``leaflet`` (VV 28 §3), ``routes`` (public and applicant pages), ``manage`` (NGO and staff pages),
``demo`` (demo data and the API-client hook). The API lives in ``portal.blueprints.api.listings``.
"""

import click
from flask import Blueprint
from flask.cli import with_appcontext
from flask_babel import lazy_gettext as _l
from flask_login import current_user

bp = Blueprint("adoption", __name__, url_prefix="/adocao")


def _signed_in() -> bool:
    return bool(current_user.is_authenticated)


def _manager() -> bool:
    return bool(
        current_user.is_authenticated and (current_user.is_staff or current_user.has_role("ngo"))
    )


def _link_ngo_client(client) -> None:  # type: ignore[no-untyped-def]
    """``create-api-client --kind ngo``: the token acts for the NGO of that name."""
    from portal.blueprints.adoption.services import link_api_client

    link_api_client(client)


def _init() -> None:
    from portal.blueprints.adoption import demo, services
    from portal.blueprints.adoption.lgpd import export_adoption
    from portal.blueprints.files import register_file_access
    from portal.cli import register_api_client_hook, register_command, register_demo_seeder
    from portal.services.lgpd import register_exporter
    from portal.templating import register_admin_link, register_nav

    register_nav(_l("Adotar"), "adoption.search", order=30)
    register_nav(_l("Minhas adoções"), "adoption.my_applications", order=35, visible=_signed_in)
    register_nav(_l("Gestão de adoções"), "adoption.manage", order=70, visible=_manager)
    register_admin_link(
        _l("Adoção: anúncios e pedidos do CCZ"),
        "adoption.manage",
        ("agent", "vet", "coordinator", "admin"),
    )
    register_admin_link(
        _l("Adoção: cadastro de ONGs"),
        "adoption.organizations",
        ("agent", "vet", "coordinator", "admin"),
    )
    register_admin_link(
        _l("Adoção: impedimentos por CPF"),
        "adoption.bars",
        ("agent", "vet", "coordinator", "admin"),
    )
    register_file_access(services.DOCUMENT_PURPOSE, services.document_file_rule)
    register_exporter("adocao", export_adoption)
    register_api_client_hook("ngo", _link_ngo_client)
    register_demo_seeder(demo.seed_adoption_demo)
    register_command(_reindex_search)


@click.command("adoption-reindex-search")
@with_appcontext
def _reindex_search() -> None:
    """Recompute the free-text search words of every adoption listing."""
    from portal.blueprints.adoption.search import refresh_search_text
    from portal.extensions import db

    count = refresh_search_text()
    db.session.commit()
    click.echo(f"{count} anúncios reindexados.")


from portal.blueprints.adoption import manage, routes  # noqa: E402,F401

_init()
