"""Browser tests: Debian's chromium driven by Playwright, against the app served from a thread.

We never download a browser: ``executable_path`` points at /usr/bin/chromium. The helpers the
browser tests share (``run_axe``, signing up and in) are in tests/factories.py.
"""

from __future__ import annotations

import threading
from collections.abc import Iterator
from pathlib import Path

import pytest
from werkzeug.serving import make_server

from tests.factories import LiveServer

CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
    "--disable-quic",
]
ROOT = Path(__file__).resolve().parents[2]
# Without the gov.br DS stylesheet the pages would be audited and measured unstyled: fail instead.
GOVBR_CSS = ROOT / "portal" / "static" / "vendor" / "govbr-ds" / "govbr-critical.css"


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    for item in items:
        if "tests/browser" in str(item.fspath):
            item.add_marker(pytest.mark.browser)


@pytest.fixture(scope="session")
def browser_type_launch_args(browser_type_launch_args: dict) -> dict:
    return {**browser_type_launch_args, "executable_path": CHROMIUM, "args": CHROMIUM_ARGS}


@pytest.fixture(scope="session")
def base_url() -> None:
    """No fixed base URL: each test uses ``live_server.url`` (a new port per test).

    Defining it here also keeps pytest-playwright's fallback ``base_url`` (a fixture declared as an
    instance method, deprecated in pytest 9) from running, which ``filterwarnings = error`` would
    turn into an error for every browser test.
    """
    return None


@pytest.fixture(scope="session")
def browser_context_args(browser_context_args: dict) -> dict:
    return {**browser_context_args, "locale": "pt-BR", "timezone_id": "America/Sao_Paulo"}


@pytest.fixture
def live_server(make_app) -> Iterator[LiveServer]:  # type: ignore[no-untyped-def]
    """The portal on 127.0.0.1 at a free port (port 0: never collides), CSRF switched on."""
    if not GOVBR_CSS.exists():
        pytest.fail(f"{GOVBR_CSS} is missing: run `make assets` first", pytrace=False)
    app = make_app(WTF_CSRF_ENABLED=True)
    server = make_server("127.0.0.1", 0, app, threaded=True)
    url = f"http://127.0.0.1:{server.server_port}"
    app.config["PUBLIC_BASE_URL"] = url  # links in e-mails and QR codes point at this server
    # a short poll: shutdown() waits up to one poll interval (0.5 s by default) per test
    thread = threading.Thread(target=server.serve_forever, args=(0.02,), daemon=True)
    thread.start()
    try:
        yield LiveServer(app, url)
    finally:
        server.shutdown()
        thread.join(timeout=5)
