/* The public street works map: draws the Village's street segments (or a basemap when MAP_TILE_URL is set) and
   the works of the current filters, from data-url. The list under the map carries the same information. */
(function () {
  "use strict";
  var el = document.getElementById("works-map");
  if (!el || !window.L) { return; }
  var map = L.map(el, { scrollWheelZoom: false }).setView([43.517, -88.452], 15);
  var tiles = el.dataset.tileUrl;
  if (tiles) {
    L.tileLayer(tiles, { maxZoom: 19, attribution: el.dataset.tileAttribution || "" }).addTo(map);
  }
  var styles = {
    road: { color: "#b02a37", weight: 7 },
    lanes: { color: "#b02a37", weight: 7 },
    sidewalk: { color: "#6f42c1", weight: 5, dashArray: "10 8" },
    occupied: { color: "#664d03", weight: 5, dashArray: "2 8" }
  };
  function text(s) { var d = document.createElement("div"); d.textContent = s == null ? "" : String(s); return d.innerHTML; }
  function popup(p) {
    return "<strong><a href=\"" + encodeURI(p.url) + "\">" + text(p.number) + "</a></strong> " + text(p.type) +
      "<br>" + text(p.impact_label) + "<br>" + text(p.where) +
      "<br>" + text(p.starts || "not set") + " to " + text(p.ends || "not set") + " (" + text(p.phase) + ")";
  }
  fetch(el.dataset.url, { headers: { "Accept": "application/json" } })
    .then(function (r) { return r.json(); })
    .then(function (data) {
      var streets = L.geoJSON(data.streets, {
        style: { color: "#495057", weight: 3 },
        onEachFeature: function (f, layer) { layer.bindTooltip(f.properties.street + ": " + f.properties.extent); }
      }).addTo(map);
      var works = L.geoJSON(data, {
        style: function (f) { return styles[f.properties.impact] || styles.occupied; },
        onEachFeature: function (f, layer) { layer.bindPopup(popup(f.properties)); }
      }).addTo(map);
      var bounds = works.getLayers().length ? works.getBounds() : streets.getBounds();
      if (bounds.isValid()) { map.fitBounds(bounds, { padding: [20, 20], maxZoom: 17 }); }
      el.setAttribute("data-loaded", String(works.getLayers().length));
    });
})();
