"""The test harness (tests/conftest.py) shares one app per configuration between tests: what a test
changes on it is undone before the next test gets it. The two tests run in this order in one
process (under xdist they may land on different workers, where the second passes trivially)."""

from __future__ import annotations

from portal.wiring import wiring

_SEEN: dict[str, object] = {}


def test_a_test_changes_the_shared_app(make_app) -> None:
    app = make_app()
    _SEEN["app"] = app
    _SEEN["upload_dir"] = app.config["UPLOAD_DIR"]
    _SEEN["tiles"] = app.config.get("MAP_TILE_URL")
    app.config["MAP_TILE_URL"] = "https://tiles.example/{z}/{x}/{y}.png"
    app.extensions["portal_profile"] = app.extensions["portal_profile"].model_copy(
        update={"key": "changed"}
    )
    wiring(app).todo("harness-only", lambda user: [])
    app.jinja_env.globals["harness_only"] = True
    assert make_app() is not app  # a second app of the same config in one test: a new one


def test_the_next_test_gets_it_as_built(make_app) -> None:
    app = make_app()
    if _SEEN.get("app") is not app:
        return  # the first test ran in another process
    assert app.config.get("MAP_TILE_URL") == _SEEN["tiles"]
    assert app.extensions["portal_profile"].key == "guarulhos"
    assert "harness-only" not in wiring(app).todo_providers
    assert "harness_only" not in app.jinja_env.globals
    assert app.config["UPLOAD_DIR"] != _SEEN["upload_dir"]  # an upload folder per test
