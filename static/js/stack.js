/* Lists on a phone (static/css/site.css .table-stack): each cell gets its column's name as data-label, shown above
   the value when the rows stack under 576 px. Read from the table's own header, so a new column needs nothing here. */
(function () {
  "use strict";
  document.querySelectorAll("table.table-stack").forEach(function (table) {
    var names = Array.prototype.map.call(table.querySelectorAll("thead th"), function (th) {
      return th.textContent.trim();
    });
    table.querySelectorAll("tbody tr").forEach(function (tr) {
      Array.prototype.forEach.call(tr.children, function (cell, i) {
        if (names[i] && !cell.hasAttribute("colspan")) { cell.setAttribute("data-label", names[i]); }
      });
    });
  });
})();
