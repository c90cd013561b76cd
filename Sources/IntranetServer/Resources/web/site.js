// The site's one script. Every page works without it: the server writes times in the site's
// zone. Where it runs, it shows them in the reader's own zone instead, and lets the editor's
// form be filled in that zone (the form then says which zone, and the server reads it so).
"use strict";

(function () {
  var zone = Intl.DateTimeFormat().resolvedOptions().timeZone;
  if (!zone) return;
  var language = document.documentElement.lang || undefined;
  var shown = new Intl.DateTimeFormat(language, {
    day: "numeric", month: "long", year: "numeric",
    hour: "2-digit", minute: "2-digit", hourCycle: "h23", timeZoneName: "short"
  });

  // "15 January 2030, 17:00 GMT+9": the server's order, in this zone.
  function text(instant) {
    var part = {};
    shown.formatToParts(instant).forEach(function (piece) { part[piece.type] = piece.value; });
    return part.day + " " + part.month + " " + part.year + ", " + part.hour + ":" + part.minute + " " + part.timeZoneName;
  }

  function two(number) {
    return (number < 10 ? "0" : "") + number;
  }

  // A datetime-local input's value for an instant, in this browser's zone, with its seconds
  // only when it has some (as the server writes it).
  function inputValue(instant) {
    var text = instant.getFullYear() + "-" + two(instant.getMonth() + 1) + "-" + two(instant.getDate()) +
      "T" + two(instant.getHours()) + ":" + two(instant.getMinutes());
    return instant.getSeconds() ? text + ":" + two(instant.getSeconds()) : text;
  }

  function localise() {
    document.querySelectorAll("time[datetime]").forEach(function (element) {
      var instant = new Date(element.getAttribute("datetime"));
      if (isNaN(instant.getTime())) return;
      element.title = element.textContent;
      element.textContent = text(instant);
    });
    document.querySelectorAll("form input[name=zone]").forEach(function (field) {
      if (field.value === zone) return;
      var form = field.form;
      form.querySelectorAll("input[type=datetime-local][data-instant]").forEach(function (input) {
        var instant = new Date(input.getAttribute("data-instant"));
        if (!isNaN(instant.getTime())) input.value = inputValue(instant);
      });
      form.querySelectorAll("[data-zone-name]").forEach(function (element) {
        element.textContent = zone;
      });
      field.value = zone;
    });
  }

  if (document.readyState === "loading") {
    document.addEventListener("DOMContentLoaded", localise);
  } else {
    localise();
  }
})();
