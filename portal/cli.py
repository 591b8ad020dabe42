"""Command-line tasks: load demo data, create API clients, create the database. The domains add
their own commands and demo data in their ``init_app`` (``portal.wiring``): auth's
``create-user`` creates staff accounts with :func:`ensure_user`."""

from __future__ import annotations

import click
from flask import Flask, current_app
from sqlalchemy import select

from portal.extensions import db
from portal.models import UnitValue, User
from portal.services.clock import current_profile
from portal.wiring import wiring

DEMO_PASSWORD = "demo12345"
DEMO_USERS = [
    # (name, email, cpf, roles)
    ("Maria Cidadã", "cidada@demo.ccz", "52998224725", ["citizen"]),
    ("João Vizinho", "vizinho@demo.ccz", "11144477735", ["citizen"]),
    ("ONG Patas Amigas", "ong@demo.ccz", "39053344705", ["citizen", "ngo"]),
    ("Clínica Vet Demo", "clinica@demo.ccz", None, ["establishment"]),
    ("Ana Agente", "agente@demo.ccz", None, ["agent"]),
    ("Dr. Carlos Vet", "vet@demo.ccz", None, ["vet"]),
    ("Beatriz Coordenadora", "coord@demo.ccz", None, ["coordinator", "agent"]),
    ("Admin CCZ", "admin@demo.ccz", None, ["admin", "coordinator"]),
]


def ensure_user(
    name: str, email: str, password: str, roles: list[str], cpf: str | None = None
) -> User:
    """Create the user or add the missing roles; idempotent."""
    from portal.models.base import utcnow
    from portal.services.password_hash import hash_password
    from portal.services.people import find_by_email

    user = find_by_email(email)
    if user is None:
        user = User(
            full_name=name,
            email=email.lower(),
            cpf=cpf,
            password_hash=hash_password(password),
            email_confirmed_at=utcnow(),
            privacy_accepted_at=utcnow(),
        )
        db.session.add(user)
    for role in roles:
        user.add_role(role)
    db.session.flush()
    return user


def seed_unit_values() -> None:
    profile = current_profile()
    for default in profile.unit_values:
        exists = db.session.scalar(
            select(UnitValue).where(
                UnitValue.unit == default.unit, UnitValue.effective_from == default.effective_from
            )
        )
        if exists is None:
            db.session.add(
                UnitValue(
                    unit=default.unit,
                    value_cents=default.value_cents,
                    effective_from=default.effective_from,
                    note=default.source[:200],
                )
            )


def init_commands(app: Flask) -> None:
    from portal.services.drafts import purge_drafts_command

    app.cli.add_command(purge_drafts_command)  # daily: form drafts nobody came back to

    @app.cli.command("seed-demo")
    def seed_demo() -> None:
        """Load demo accounts and data. Safe to run again. Refused in production."""
        if current_app.config.get("PRODUCTION"):
            # Issue 26 L11: the demo accounts share a published password (admin included).
            raise click.ClickException(
                "seed-demo cria contas de demonstração com senha conhecida (inclusive um "
                "administrador) e não roda em produção (PORTAL_ENV=production)."
            )
        seed_unit_values()
        for name, email, cpf, roles in DEMO_USERS:
            ensure_user(name, email, DEMO_PASSWORD, roles, cpf)
        db.session.commit()
        for seeder in wiring().demo_seeders:
            seeder()
            db.session.commit()
        click.echo("Dados de demonstração carregados.")
        print_demo_logins()

    @app.cli.command("create-api-client")
    @click.option("--kind", required=True, type=click.Choice(["establishment", "ngo", "open311"]))
    @click.option("--name", required=True)
    def create_api_client(kind: str, name: str) -> None:
        """Create an API client; the token is printed on the last line (stored only hashed)."""
        from portal.services.api_auth import issue_client

        client, token = issue_client(kind, name.strip())
        hook = wiring().api_client_hooks.get(kind)
        if hook is not None:
            hook(client)
        db.session.commit()
        click.echo(f"Cliente de API {client.id} ({kind}): {client.name}")
        click.echo("Guarde o token abaixo; ele não será mostrado de novo.")
        click.echo(token)

    @app.cli.command("ensure-database")
    def ensure_database() -> None:
        """Create the PostgreSQL database named by DATABASE_URL if it does not exist yet."""
        from sqlalchemy import create_engine, text
        from sqlalchemy.engine import make_url

        url = make_url(current_app.config["SQLALCHEMY_DATABASE_URI"])
        if not url.drivername.startswith("postgresql") or not url.database:
            return
        admin = create_engine(url.set(database="postgres"), isolation_level="AUTOCOMMIT")
        with admin.connect() as conn:
            exists = conn.scalar(
                text("SELECT 1 FROM pg_database WHERE datname = :n"), {"n": url.database}
            )
            if not exists:
                conn.execute(text(f'CREATE DATABASE "{url.database}"'))
                click.echo(f"Banco {url.database} criado.")
        admin.dispose()

    @app.cli.command("demo-logins")
    def demo_logins() -> None:
        """Print the demo accounts."""
        print_demo_logins()


def print_demo_logins() -> None:
    click.echo(f"\nContas de demonstração (senha: {DEMO_PASSWORD}):")
    for name, email, _cpf, roles in DEMO_USERS:
        click.echo(f"  {email:<22} {', '.join(roles):<24} {name}")
