/* Capture form place (issues 14, 25): Leaflet from the portal's own static files, tiles from
 * MAP_TILE_URL. A tap on the map places the pin and fills the form's latitude and longitude; the
 * "Usar minha localização" button (shown only when the browser has geolocation) fills them from
 * the phone's GPS and moves the pin. Without JavaScript the coordinates are typed (optional): the
 * address is what the form needs. */
(function () {
  "use strict";
  var pins = [];

  function fields(box) {
    return [document.getElementById(box.dataset.latInput), document.getElementById(box.dataset.lngInput)];
  }

  function initMap(box) {
    if (typeof L === "undefined") { return; }
    var inputs = fields(box), latInput = inputs[0], lngInput = inputs[1];
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
    pins.push(fromFields);
  }

  function initLocate(button) {
    if (!("geolocation" in navigator)) { return; }
    var latInput = document.getElementById(button.dataset.latInput);
    var lngInput = document.getElementById(button.dataset.lngInput);
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
    document.querySelectorAll(".capture-map").forEach(initMap);
    document.querySelectorAll(".capture-locate").forEach(initLocate);
  });
})();
