"""Issue 25: with no MAP_TILE_URL (no tile server reachable at run time) the report form promises
no map: it says so in plain words, and the place can still be given as a point, from "Usar minha
localização" or typed coordinates, next to the address; with tiles the map says when they fail."""

from __future__ import annotations

from tests.factories import submit


def test_without_tiles_the_form_has_no_map_but_a_locate_button_and_coordinates(make_app) -> None:
    app = make_app(MAP_TILE_URL=None)
    with app.app_context():
        client = app.test_client()
        response = client.get("/denuncias/nova")
        page = response.get_data(as_text=True)
        assert "leaflet" not in page and 'class="report-map' not in page
        assert "Esta página não tem mapa." in page
        assert 'id="usar-localizacao"' in page and "report-map.js" in page
        assert 'id="lat"' in page and 'id="lng"' in page and "Ver ou digitar as coordenadas" in page
        assert "geolocation=(self)" in response.headers["Permissions-Policy"]
        _r, report, _c = submit(client, lat="-23,454300", lng="-46.5333")  # a comma is read too
        assert report is not None and (report.lat, report.lng) == (-23.4543, -46.5333)


def test_a_typed_coordinate_that_is_not_a_number_is_refused_next_to_it(make_app) -> None:
    app = make_app(MAP_TILE_URL=None)
    with app.app_context():
        response, report, _c = submit(app.test_client(), lat="perto da escola", lng="-46.5")
        page = response.get_data(as_text=True)
        assert report is None and response.status_code == 400
        assert "Use só números, por exemplo -23.454300." in page
        assert 'value="perto da escola"' in page
        assert 'id="coordenadas" open' in page  # the error is not hidden in a closed box


def test_with_tiles_the_map_is_drawn_and_says_when_they_fail_to_load(make_app) -> None:
    app = make_app(MAP_TILE_URL="https://tiles.example.org/{z}/{x}/{y}.png")
    with app.app_context():
        page = app.test_client().get("/denuncias/nova").get_data(as_text=True)
        assert 'class="report-map' in page and "leaflet.js" in page
        assert 'data-failed-note="mapa-falhou-pick"' in page and 'id="mapa-falhou-pick"' in page
        assert "O mapa não carregou" in page
