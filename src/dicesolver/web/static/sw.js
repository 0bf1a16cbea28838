"use strict";
// The page's shell, kept for when the server cannot be reached (a phone that lost the Wi-Fi, a laptop asleep):
// the page, its scripts, style and icons are fetched from the network first (so a new version shows at once)
// and from this cache only when the network fails. /api is never cached: answers come from the server alone.
const SHELL = "dicesolver-shell-v3";
const FILES = ["/", "/static/app.js", "/static/advisor.js", "/static/board.js", "/static/style.css", "/manifest.webmanifest",
  "/static/icon.svg", "/static/icon-192.png"];

self.addEventListener("install", (event) => {
  event.waitUntil(caches.open(SHELL).then((cache) => cache.addAll(FILES)).then(() => self.skipWaiting()));
});

self.addEventListener("activate", (event) => {
  event.waitUntil(caches.keys()
    .then((names) => Promise.all(names.filter((n) => n !== SHELL).map((n) => caches.delete(n))))
    .then(() => self.clients.claim()));
});

self.addEventListener("fetch", (event) => {
  const url = new URL(event.request.url);
  if (event.request.method !== "GET" || url.origin !== self.location.origin || url.pathname.startsWith("/api/")) return;
  const key = event.request.mode === "navigate" ? "/" : url.pathname;  // the page, whatever its #play/<id>
  if (!FILES.includes(key)) return;
  event.respondWith(fetch(event.request).then((response) => {
    if (response.ok) {
      const copy = response.clone();
      caches.open(SHELL).then((cache) => cache.put(key, copy));
    }
    return response;
  }).catch(() => caches.match(key).then((cached) => cached || Response.error())));
});
