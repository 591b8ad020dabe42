"""Sign-up, e-mail confirmation, login/logout, password reset."""

from flask import Blueprint, Flask

bp = Blueprint("auth", __name__, url_prefix="/conta")


def init_app(app: Flask) -> None:
    """Who is signed in: the sign-in's row decides, for the session and the remember cookie alike
    (``auth.sessions.load_user``; Flask-Login keeps "<id>:<session version>:<sign-in token>")."""
    from portal.blueprints.auth import freshness, sessions
    from portal.blueprints.auth.labels import AUDIT_LABELS
    from portal.extensions import login_manager
    from portal.wiring import wiring

    wiring(app).audit_labels(AUDIT_LABELS)  # its audited actions in words

    login_manager.user_loader(sessions.load_user)
    app.before_request(freshness.sign_out_idle_staff)  # staff idle for 30 minutes are signed out


from portal.blueprints.auth import routes  # noqa: E402,F401
