/* Report maps (issue 12): Leaflet from the portal's own static files, tiles from MAP_TILE_URL.
 * "pick": a tap places the pin and fills the hidden lat/lng inputs of the report form.
 * "heat": staff map, one circle per district sized by its count, plus the reports' pins.
 * Without JavaScript (or without tiles) the pages work by address and by the table. */
(function () {
  "use strict";
  function init(box) {
    if (typeof L === "undefined") { return; }
    var lat = parseFloat(box.dataset.lat), lng = parseFloat(box.dataset.lng);
    var map = L.map(box).setView([lat, lng], 13);
    L.tileLayer(box.dataset.tiles, { maxZoom: 19, attribution: box.dataset.attribution || "" }).addTo(map);
    if (box.dataset.mode === "pick") {
      var latInput = document.getElementById("lat"), lngInput = document.getElementById("lng");
      var marker = null;
      function place(point) {
        if (marker) { marker.setLatLng(point); } else { marker = L.marker(point).addTo(map); }
        latInput.value = point.lat.toFixed(6);
        lngInput.value = point.lng.toFixed(6);
      }
      if (latInput && latInput.value && lngInput.value) {
        var start = L.latLng(parseFloat(latInput.value), parseFloat(lngInput.value));
        place(start);
        map.setView(start, 16);
      }
      map.on("click", function (e) { place(e.latlng); });
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
  document.addEventListener("DOMContentLoaded", function () {
    document.querySelectorAll(".report-map").forEach(init);
  });
})();
