// Client-side search over the edition's cards, terms and rules (window.CARDSMITH_SEARCH, written
// by cardsmith beside each page): every name in every language counts; results link to their page.
(function () {
  "use strict";
  var entries = window.CARDSMITH_SEARCH || [];
  var box = document.getElementById("search");
  var list = document.getElementById("results");
  if (!box || !list) { return; }
  function fold(text) { return String(text).normalize("NFKC").toLowerCase(); }
  var folded = entries.map(function (e) { return e.names.map(fold); });
  function show(query) {
    var q = fold(query.trim());
    while (list.firstChild) { list.removeChild(list.firstChild); }
    if (!q) { list.hidden = true; return; }
    var shown = 0;
    for (var i = 0; i < entries.length && shown < 40; i++) {
      if (folded[i].some(function (n) { return n.indexOf(q) !== -1; })) {
        var item = document.createElement("li");
        var link = document.createElement("a");
        link.href = entries[i].href;
        link.textContent = entries[i].label;
        var kind = document.createElement("span");
        kind.className = "kind";
        kind.textContent = " " + entries[i].kind;
        item.appendChild(link);
        item.appendChild(kind);
        list.appendChild(item);
        shown++;
      }
    }
    list.hidden = shown === 0;
  }
  box.addEventListener("input", function () { show(box.value); });
  box.addEventListener("keydown", function (ev) {
    if (ev.key === "Enter") { var first = list.querySelector("a"); if (first) { window.location.href = first.href; } }
    if (ev.key === "Escape") { box.value = ""; show(""); }
  });
}());
