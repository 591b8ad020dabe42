"""The Content-Security-Policy every HTML answer carries, built in one place.

No inline script and no inline style: every style lives in a stylesheet of ours or of a vendor
(a CSP without ``'unsafe-inline'``). Scripts that set ``element.style`` through the CSSOM
(Leaflet positions its tiles that way) are not affected; only ``style=""`` attributes, ``<style>``
blocks and ``setAttribute("style", ...)`` are. Map pages add the tile server's origin to
``img-src``; only pages that may send a person to Stripe allow its script and form target.
"""

from __future__ import annotations

from urllib.parse import urlsplit

STRIPE_SCRIPT = "https://js.stripe.com"
STRIPE_CHECKOUT = "https://checkout.stripe.com"


def policy(*, tiles: str | None = None, stripe: bool = True) -> str:
    """The policy; ``tiles`` is a MAP_TILE_URL template whose host may serve images."""
    images = "'self' data:"
    if tiles:
        parts = urlsplit(tiles.replace("{s}", "a"))
        images += " " + f"{parts.scheme}://{parts.netloc}".replace("://a.", "://*.")
    scripts = "'self'" + (f" {STRIPE_SCRIPT}" if stripe else "")
    forms = "'self'" + (f" {STRIPE_CHECKOUT}" if stripe else "")
    return (
        f"default-src 'self'; img-src {images}; style-src 'self'; script-src {scripts}; "
        f"frame-ancestors 'none'; form-action {forms}; base-uri 'none'"
    )
