/* Capture form map (issue 14): Leaflet from the portal's own static files, tiles from
 * MAP_TILE_URL. A tap places the pin and fills the form's latitude and longitude fields; typing in
 * those fields moves the pin. Without JavaScript (or without tiles) the fields are typed by hand
 * or left empty: the address is what the form needs. */
(function () {
  "use strict";
  function init(box) {
    if (typeof L === "undefined") { return; }
    var latInput = document.getElementById(box.dataset.latInput);
    var lngInput = document.getElementById(box.dataset.lngInput);
    if (!latInput || !lngInput) { return; }
    var map = L.map(box).setView([parseFloat(box.dataset.lat), parseFloat(box.dataset.lng)], 13);
    L.tileLayer(box.dataset.tiles, { maxZoom: 19, attribution: box.dataset.attribution || "" }).addTo(map);
    var marker = null;
    function pin(point) {
      if (marker) { marker.setLatLng(point); } else { marker = L.marker(point).addTo(map); }
    }
    function fromFields() {
      var lat = parseFloat(latInput.value.replace(",", "."));
      var lng = parseFloat(lngInput.value.replace(",", "."));
      if (isFinite(lat) && isFinite(lng)) {
        pin(L.latLng(lat, lng));
        map.setView([lat, lng], 16);
      }
    }
    fromFields();
    map.on("click", function (e) {
      pin(e.latlng);
      latInput.value = e.latlng.lat.toFixed(6);
      lngInput.value = e.latlng.lng.toFixed(6);
    });
    latInput.addEventListener("change", fromFields);
    lngInput.addEventListener("change", fromFields);
  }
  document.addEventListener("DOMContentLoaded", function () {
    document.querySelectorAll(".capture-map").forEach(init);
  });
})();
