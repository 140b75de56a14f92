/* The public street works map: draws the Village's street segments, each street named once (or a basemap beneath
   when MAP_TILE_URL is set), and the works of the current filters, from data-url. A click on a street without works
   says so. Dates read as people write them ("Apr 20, 2027"), as in the list under the map, which carries the same
   information. */
(function () {
  "use strict";
  var el = document.getElementById("works-map");
  if (!el || !window.L) { return; }
  var map = L.map(el, { scrollWheelZoom: false }).setView([43.517, -88.452], 15);
  var tiles = el.dataset.tileUrl;
  if (tiles) {
    L.tileLayer(tiles, { maxZoom: 19, attribution: el.dataset.tileAttribution || "" }).addTo(map);
    el.classList.add("has-basemap");
  }
  var styles = {
    road: { color: "#b02a37", weight: 7 },
    lanes: { color: "#b02a37", weight: 7 },
    sidewalk: { color: "#6f42c1", weight: 5, dashArray: "10 8" },
    occupied: { color: "#664d03", weight: 5, dashArray: "2 8" }
  };
  var MONTHS = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"];
  function text(s) { var d = document.createElement("div"); d.textContent = s == null ? "" : String(s); return d.innerHTML; }
  // "2027-04-20" -> "Apr 20, 2027": read as a calendar day, never through a time zone.
  function day(iso) {
    var m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(iso || "");
    return m ? MONTHS[Number(m[2]) - 1] + " " + Number(m[3]) + ", " + m[1] : "not set";
  }
  function popup(p) {
    return "<strong><a href=\"" + encodeURI(p.url) + "\">" + text(p.number) + "</a></strong> " + text(p.type) +
      "<br>" + text(p.impact_label) + "<br>" + text(p.where) +
      "<br>" + text(day(p.starts)) + " to " + text(day(p.ends)) + " (" + text(p.phase) + ")";
  }
  function nothing(p) {
    return "<strong>" + text(p.street) + "</strong><br>" + text(p.extent) +
      "<br>Nothing is closed, dug up, occupied or scheduled on this block for these dates.";
  }
  fetch(el.dataset.url, { headers: { "Accept": "application/json" } })
    .then(function (r) { return r.json(); })
    .then(function (data) {
      // Each street is named once, on its longest drawn segment, so the names do not pile up at the crossings.
      var longest = {};
      data.streets.features.forEach(function (f, i) {
        var c = f.geometry && f.geometry.coordinates || [];
        var a = c[0], b = c[c.length - 1], len = a && b ? Math.abs(a[0] - b[0]) + Math.abs(a[1] - b[1]) : 0;
        var name = f.properties.street;
        if (!longest[name] || len > longest[name].len) { longest[name] = { i: i, len: len }; }
      });
      var streets = L.geoJSON(data.streets, {
        style: { color: "#495057", weight: 5 },
        onEachFeature: function (f, layer) {
          layer.bindPopup(nothing(f.properties));
          var i = data.streets.features.indexOf(f);
          if (longest[f.properties.street].i === i) {
            layer.bindTooltip(text(f.properties.street), { permanent: true, direction: "center", className: "street-label" });
          }
        }
      }).addTo(map);
      var works = L.geoJSON(data, {
        style: function (f) { return styles[f.properties.impact] || styles.occupied; },
        onEachFeature: function (f, layer) { layer.bindPopup(popup(f.properties)); }
      }).addTo(map);
      var bounds = works.getLayers().length ? works.getBounds() : streets.getBounds();
      // No zoom animation on the first view: the labels and the click targets are where they stay.
      if (bounds.isValid()) { map.fitBounds(bounds, { padding: [20, 20], maxZoom: 17, animate: false }); }
      el.setAttribute("data-loaded", String(works.getLayers().length));
    });
})();
