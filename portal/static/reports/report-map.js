/* Report maps (issue 12): Leaflet from the portal's own static files, tiles from MAP_TILE_URL.
 * "pick": a tap places the pin and fills the lat/lng inputs of the report form (also typed, or
 * filled by "Usar minha localização", issue 25).
 * "heat": staff map, one circle per district sized by its count, plus the reports' pins.
 * Without JavaScript (or without tiles) the pages work by address and by the table; when the tiles
 * do not load (no connection to the tile server), the page says so instead of a grey box. */
(function () {
  "use strict";
  var pins = [];

  function number(input) {
    return input ? parseFloat(input.value.replace(",", ".")) : NaN;
  }

  function watchTiles(box, layer) {
    var note = document.getElementById(box.dataset.failedNote || "");
    if (!note) { return; }
    var told = false;
    layer.on("tileerror", function () {
      if (told) { return; }
      told = true;
      note.textContent = box.dataset.failed || "";
      note.hidden = false;
    });
  }

  function init(box) {
    if (typeof L === "undefined") { return; }
    var lat = parseFloat(box.dataset.lat), lng = parseFloat(box.dataset.lng);
    var map = L.map(box).setView([lat, lng], 13);
    var layer = L.tileLayer(box.dataset.tiles, { maxZoom: 19, attribution: box.dataset.attribution || "" });
    layer.addTo(map);
    watchTiles(box, layer);
    if (box.dataset.mode === "pick") {
      var latInput = document.getElementById("lat"), lngInput = document.getElementById("lng");
      var marker = null;
      function pin(point) {
        if (marker) { marker.setLatLng(point); } else { marker = L.marker(point).addTo(map); }
      }
      function fromFields() {
        var a = number(latInput), b = number(lngInput);
        if (isFinite(a) && isFinite(b)) {
          pin(L.latLng(a, b));
          map.setView([a, b], 16);
        }
      }
      fromFields();
      map.on("click", function (e) {
        pin(e.latlng);
        latInput.value = e.latlng.lat.toFixed(6);
        lngInput.value = e.latlng.lng.toFixed(6);
      });
      if (latInput && lngInput) {
        latInput.addEventListener("change", fromFields);
        lngInput.addEventListener("change", fromFields);
      }
      pins.push(fromFields);
      return;
    }
    var circles = box.dataset.circles ? JSON.parse(box.dataset.circles) : [];
    circles.forEach(function (c) {
      L.circle([c.lat, c.lng], {
        radius: 150 + 850 * c.weight, color: "#b00020", weight: 1,
        fillOpacity: 0.15 + 0.5 * c.weight
      }).addTo(map).bindTooltip(c.label + ": " + c.count);
    });
    var points = box.dataset.points ? JSON.parse(box.dataset.points) : [];
    points.forEach(function (p) {
      var link = document.createElement("a");
      link.href = p.url;
      link.textContent = p.label;
      L.circleMarker([p.lat, p.lng], { radius: 5, color: "#1351b4" }).addTo(map).bindPopup(link);
    });
  }
  function initLocate(button) {
    if (!("geolocation" in navigator)) { return; }
    var latInput = document.getElementById("lat"), lngInput = document.getElementById("lng");
    var status = document.getElementById(button.dataset.status);
    if (!latInput || !lngInput || !status) { return; }
    button.hidden = false;
    button.addEventListener("click", function () {
      status.textContent = button.dataset.waiting;
      navigator.geolocation.getCurrentPosition(function (pos) {
        latInput.value = pos.coords.latitude.toFixed(6);
        lngInput.value = pos.coords.longitude.toFixed(6);
        pins.forEach(function (update) { update(); });
        status.textContent = button.dataset.done
          .replace("%(lat)s", latInput.value).replace("%(lng)s", lngInput.value)
          .replace("%(m)s", String(Math.round(pos.coords.accuracy || 0)));
      }, function () {
        status.textContent = button.dataset.failed;
      }, { enableHighAccuracy: true, timeout: 15000, maximumAge: 60000 });
    });
  }

  document.addEventListener("DOMContentLoaded", function () {
    document.querySelectorAll(".report-map").forEach(init);
    document.querySelectorAll(".report-locate").forEach(initLocate);
  });
})();
