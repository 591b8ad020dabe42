"""Command-line tasks staff run."""

from sqlalchemy import select

from portal.extensions import db
from portal.models import UnitValue, User


def test_create_user_with_several_roles(app) -> None:
    result = app.test_cli_runner().invoke(args=[
        "create-user", "--email", "chefe@ccz.example", "--name", "Chefe", "--password", "x1y2z3w4",
        "--role", "admin", "--role", "coordinator"])
    assert result.exit_code == 0, result.output
    user = db.session.scalar(select(User).where(User.email == "chefe@ccz.example"))
    assert user.roles == {"admin", "coordinator"}


def test_seed_demo_is_idempotent(app) -> None:
    runner = app.test_cli_runner()
    first = runner.invoke(args=["seed-demo"])
    assert first.exit_code == 0, first.output
    users = db.session.scalars(select(User)).all()
    values = db.session.scalars(select(UnitValue)).all()
    second = runner.invoke(args=["seed-demo"])
    assert second.exit_code == 0, second.output
    assert len(db.session.scalars(select(User)).all()) == len(users)
    assert len(db.session.scalars(select(UnitValue)).all()) == len(values)
    assert "admin@demo.ccz" in second.output
