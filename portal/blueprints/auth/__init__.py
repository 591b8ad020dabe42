"""Sign-up, e-mail confirmation, login/logout, password reset; the ``create-user`` command."""

import click
from flask import Blueprint, Flask
from flask.cli import with_appcontext

from portal.models import Role

bp = Blueprint("auth", __name__, url_prefix="/conta")


def init_app(app: Flask) -> None:
    """Who is signed in: the sign-in's row decides, for the session and the remember cookie alike
    (``auth.sessions.load_user``; Flask-Login keeps "<id>:<session version>:<sign-in token>")."""
    from portal.blueprints.auth import freshness, sessions
    from portal.blueprints.auth.labels import AUDIT_LABELS
    from portal.extensions import login_manager
    from portal.wiring import wiring

    wiring(app).audit_labels(AUDIT_LABELS)  # its audited actions in words
    wiring(app).command(_create_user)

    login_manager.user_loader(sessions.load_user)
    app.before_request(freshness.sign_out_idle_staff)  # staff idle for 30 minutes are signed out


@click.command("create-user")
@click.option("--email", required=True)
@click.option("--name", required=True)
@click.option("--password", prompt=True, hide_input=True, confirmation_prompt=True)
@click.option(
    "--role", "roles", multiple=True, required=True, type=click.Choice([r.value for r in Role])
)
@click.option("--cpf", default=None)
@with_appcontext
def _create_user(
    email: str, name: str, password: str, roles: tuple[str, ...], cpf: str | None
) -> None:
    """Create a user (staff, usually) with one or more roles."""
    from portal.blueprints.auth.passwords import password_problem
    from portal.cli import ensure_user
    from portal.extensions import db
    from portal.services.identity import clean_cpf

    if cpf and not clean_cpf(cpf):
        raise click.BadParameter("CPF inválido", param_hint="--cpf")
    problem = password_problem(password, full_name=name, email=email, cpf=cpf)
    if problem:  # the same rule as every form that sets a password
        raise click.BadParameter(problem, param_hint="--password")
    user = ensure_user(name, email, password, list(roles), clean_cpf(cpf) if cpf else None)
    db.session.commit()
    click.echo(f"Usuário {user.email} (id {user.id}) com papéis: {', '.join(sorted(user.roles))}")


from portal.blueprints.auth import routes  # noqa: E402,F401
