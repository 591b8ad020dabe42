"""The Leaflet map settings every map page shares (the report form, the agent's capture form):
the deployment's tile server and the city's centre, or None when no tile server is configured
(no internet at run time: the pages then take the place from the phone or typed coordinates)."""

from __future__ import annotations

from typing import Any

from flask import current_app

from portal.services.clock import current_profile

BRASILIA = [-15.78, -47.93]  # the centre when the profile gives none


def map_config() -> dict[str, Any] | None:
    """Tiles and centre for the Leaflet maps; None without MAP_TILE_URL (no map at all)."""
    tiles = current_app.config.get("MAP_TILE_URL")
    if not tiles:
        return None
    center = current_profile().reports.map_center or BRASILIA
    return {
        "tiles": tiles,
        "attribution": current_app.config.get("MAP_TILE_ATTRIBUTION", ""),
        "lat": center[0],
        "lng": center[1],
    }
