"""Sign-up, e-mail confirmation, login/logout, password reset."""

from flask import Blueprint, Flask

bp = Blueprint("auth", __name__, url_prefix="/conta")


def init_app(app: Flask) -> None:
    """Who is signed in: the sign-in's row decides, for the session and the remember cookie alike
    (``auth.sessions.load_user``; Flask-Login keeps "<id>:<session version>:<sign-in token>")."""
    from portal.blueprints.auth import sessions
    from portal.extensions import login_manager

    login_manager.user_loader(sessions.load_user)


from portal.blueprints.auth import routes  # noqa: E402,F401
