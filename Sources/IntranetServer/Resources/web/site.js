// The site's one script. Every page works without it: the server writes times in the site's
// zone. Where it runs, it shows them in the reader's own zone instead, and lets the editor's
// form be filled in that zone (the form then says which zone, and the server reads it so).
// On the list and on an announcement, it also listens to the live stream (/events) and says
// when there is something new ("2 new announcements — show") or the announcement changed,
// in a live region fixed at the foot of the window: nothing on the page moves.
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

(function () {
  if (!window.EventSource || !window.JSON) return;

  function start() {
    var region = document.getElementById("live-notice");
    var list = document.querySelector("[data-live-list]");
    var article = document.querySelector("[data-live-announcement]");
    if (!region || (!list && !article)) return;
    var source = new EventSource("/events");

    function payload(event) {
      try { return JSON.parse(event.data); } catch (error) { return {}; }
    }

    // "2 new announcements — show": the text, then a link.
    function say(text, href, label) {
      var line = document.createElement("p");
      line.appendChild(document.createTextNode(text + " — "));
      var link = document.createElement("a");
      link.href = href;
      link.textContent = label;
      line.appendChild(link);
      region.textContent = "";
      region.appendChild(line);
    }

    if (list) {
      var fresh = {};
      var count = 0;
      source.addEventListener("announcement.created", function (event) {
        var id = payload(event).id;
        if (typeof id !== "number" || fresh[id]) return;
        if (document.querySelector("[data-live-item='" + id + "']")) return;
        fresh[id] = true;
        count += 1;
        say(count + (count === 1 ? " new announcement" : " new announcements"), window.location.href, "show");
      });
    }

    if (article) {
      var shown = Number(article.getAttribute("data-live-announcement"));
      var revision = Number(article.getAttribute("data-revision"));
      source.addEventListener("announcement.changed", function (event) {
        var data = payload(event);
        if (data.id !== shown) return;
        // The tag is "id.revision.v2…": a revision this page already shows says nothing.
        var seen = Number(String(data.etag || "").replace(/^"/, "").split(".")[1]);
        if (seen && seen <= revision) return;
        say("This announcement was changed", window.location.href, "reload");
      });
      source.addEventListener("announcement.deleted", function (event) {
        if (payload(event).id === shown) say("This announcement was removed", "/", "back to the list");
      });
    }

    // A session that ended gets no more events: stop asking.
    source.addEventListener("closing", function (event) {
      if (payload(event).reason === "signed-out") source.close();
    });
  }

  if (document.readyState === "loading") {
    document.addEventListener("DOMContentLoaded", start);
  } else {
    start();
  }
})();
