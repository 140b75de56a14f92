/* Staff: place a permit by clicking the map. One click sets a point; more clicks make a line. The GeoJSON goes into
   the form's geometry field (which can also be typed, and the segment checkboxes need no map at all). */
(function () {
  "use strict";
  var el = document.getElementById("place-map");
  var field = document.getElementById("id_geometry");
  if (!el || !field || !window.L) { return; }
  var map = L.map(el).setView([43.517, -88.452], 16);
  if (el.dataset.tileUrl) {
    L.tileLayer(el.dataset.tileUrl, { maxZoom: 19, attribution: el.dataset.tileAttribution || "" }).addTo(map);
  }
  fetch(el.dataset.url).then(function (r) { return r.json(); }).then(function (data) {
    var streets = L.geoJSON(data.streets, {
      style: { color: "#495057", weight: 4 },
      onEachFeature: function (f, layer) { layer.bindTooltip(f.properties.street + ": " + f.properties.extent); }
    }).addTo(map);
    if (streets.getBounds().isValid()) { map.fitBounds(streets.getBounds()); }
  });
  var points = [];
  var drawn = L.layerGroup().addTo(map);
  function redraw() {
    drawn.clearLayers();
    if (points.length === 1) {
      L.circleMarker(points[0], { radius: 7, color: "#b02a37" }).addTo(drawn);
      field.value = JSON.stringify({ type: "Point", coordinates: [points[0].lng, points[0].lat] });
    } else if (points.length > 1) {
      L.polyline(points, { color: "#b02a37", weight: 6 }).addTo(drawn);
      field.value = JSON.stringify({ type: "LineString", coordinates: points.map(function (p) { return [p.lng, p.lat]; }) });
    } else {
      field.value = "";
    }
  }
  map.on("click", function (e) { points.push(e.latlng); redraw(); });
  var clear = document.getElementById("place-clear");
  if (clear) { clear.addEventListener("click", function () { points = []; redraw(); }); }
})();
