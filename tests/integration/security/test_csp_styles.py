"""CSP without 'unsafe-inline' for styles (issue 8, item 8): every policy the portal sends, and
no template that would need it (a style attribute or a <style> block)."""

from __future__ import annotations

import re
from pathlib import Path

import portal
from portal import csp

TEMPLATES = Path(portal.__file__).parent / "templates"
INLINE_STYLE = re.compile(r"<style\b|\sstyle\s*=", re.IGNORECASE)


def test_no_template_has_a_style_attribute_or_block() -> None:
    offenders = [
        f"{path.relative_to(TEMPLATES)}:{number}"
        for path in sorted(TEMPLATES.rglob("*.html"))
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
        if INLINE_STYLE.search(line)
    ]
    assert not offenders, offenders


def test_pages_policy_has_no_unsafe_inline_and_keeps_its_other_rules(client) -> None:
    policy = client.get("/").headers["Content-Security-Policy"]
    assert "'unsafe-inline'" not in policy
    assert "style-src 'self';" in policy and "base-uri 'none'" in policy
    assert (
        "frame-ancestors 'none'" in policy and "script-src 'self' https://js.stripe.com" in policy
    )


def test_map_pages_policy_adds_the_tile_host_and_no_unsafe_inline(app, client) -> None:
    app.config["MAP_TILE_URL"] = "https://{s}.tile.example.org/{z}/{x}/{y}.png"
    policy = client.get("/denuncias/nova").headers["Content-Security-Policy"]
    assert "img-src 'self' data: https://*.tile.example.org;" in policy
    assert "'unsafe-inline'" not in policy and "base-uri 'none'" in policy
    assert "js.stripe.com" not in policy  # a map page never sends anyone to Stripe


def test_policy_builder() -> None:
    assert csp.policy(stripe=False) == (
        "default-src 'self'; img-src 'self' data:; style-src 'self'; script-src 'self'; "
        "frame-ancestors 'none'; form-action 'self'; base-uri 'none'"
    )
