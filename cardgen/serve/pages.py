"""The preview page: one HTML document with its style and script inline.

Why no front-end build step: the page is a card grid, two lists and an event stream; plain
DOM code does it in a few hundred lines that any designer's browser runs as written, with
nothing to install, bundle or keep up to date. Text from the pack is set as text (textContent),
never as markup.
"""

from __future__ import annotations

import html
import json

_STYLE = """
:root { --zoom: 1; --ink: #1d2430; --muted: #5b6575; --line: #d8dde5; --error: #b3261e;
        --warning: #8a5a00; --paper: #f4f5f7; }
* { box-sizing: border-box; }
body { margin: 0; font: 14px/1.4 system-ui, sans-serif; color: var(--ink); background: var(--paper); }
header { position: sticky; top: 0; z-index: 3; display: flex; flex-wrap: wrap; gap: 12px;
         align-items: center; padding: 8px 16px; background: #fff; border-bottom: 1px solid var(--line); }
header h1 { font-size: 16px; margin: 0 12px 0 0; }
header label { color: var(--muted); }
header select, header input { margin-left: 4px; }
#status { margin-left: auto; color: var(--muted); font-size: 12px; }
#diagnostics { position: sticky; top: 49px; z-index: 2; margin: 0; padding: 0; list-style: none;
               max-height: 40vh; overflow: auto; box-shadow: 0 2px 6px rgba(0,0,0,.15); }
#diagnostics[hidden] { display: none; }
#diagnostics li { padding: 6px 16px; font: 13px/1.35 ui-monospace, monospace; background: #fff4f2;
                  border-bottom: 1px solid #f1d2cd; white-space: pre-wrap; }
#diagnostics li.warning { background: #fff9e8; border-color: #f0e1b5; }
#diagnostics li b { color: var(--error); }
#diagnostics li.warning b { color: var(--warning); }
#diagnostics li.note { background: #eef2f8; border-color: var(--line); font-family: inherit; }
main { padding: 16px; }
h2 { font-size: 15px; margin: 24px 0 8px; color: var(--muted); font-weight: 600; }
.grid { display: flex; flex-wrap: wrap; gap: 16px; align-items: flex-start; }
.card { display: flex; flex-direction: column; gap: 4px; cursor: pointer; border-radius: 4px;
        padding: 4px; }
.card:hover, .card.chosen { background: #e4e9f2; }
.card .sides { display: flex; gap: 4px; }
.card img, .page img { display: block; background: #fff; box-shadow: 0 1px 3px rgba(0,0,0,.25); }
.card .caption { font-size: 12px; color: var(--muted); max-width: calc(var(--w) * 2 * var(--zoom)); }
.card .caption b { color: var(--ink); }
.pages { display: flex; flex-wrap: wrap; gap: 12px; }
.page figcaption { font-size: 12px; color: var(--muted); }
.page { margin: 0; }
#details { position: fixed; right: 0; top: 49px; bottom: 0; width: min(420px, 100vw); z-index: 4;
           background: #fff; border-left: 1px solid var(--line); padding: 12px 16px; overflow: auto;
           box-shadow: -2px 0 8px rgba(0,0,0,.12); }
#details[hidden] { display: none; }
#details h3 { margin: 0 0 8px; font-size: 16px; }
#details dl { display: grid; grid-template-columns: max-content 1fr; gap: 2px 10px; margin: 8px 0; }
#details dt { color: var(--muted); }
#details dd { margin: 0; word-break: break-word; }
#details pre { background: var(--paper); padding: 8px; overflow: auto; font-size: 12px; }
#details code { background: var(--paper); padding: 1px 4px; }
#details .close { float: right; }
.empty { color: var(--muted); }
"""

_SCRIPT = """
"use strict";
const token = JSON.parse(document.getElementById("token").textContent);
const packs = JSON.parse(document.getElementById("packs").textContent);
const params = new URLSearchParams(location.search);
const pack = params.get("pack") || packs[0];
const byId = (id) => document.getElementById(id);
let view = null;
const cards = new Map();  // card id -> its element
let chosen = null;

function query(extra) {
  const q = new URLSearchParams({pack: pack});
  for (const name of ["preset", "paper"]) if (params.get(name)) q.set(name, params.get(name));
  for (const [k, v] of Object.entries(extra || {})) q.set(k, v);
  return q.toString();
}
function el(tag, attrs, text) {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) node.setAttribute(k, v);
  if (text !== undefined) node.textContent = text;
  return node;
}
function onScreen(img) {
  const box = img.getBoundingClientRect();
  return box.bottom > -200 && box.top < innerHeight + 200;
}
function picture(img, url, key) {
  // on screen, the new picture is loaded first, then shown: no blank card while it comes;
  // off screen it is left to the browser's lazy loading (a layout edited: every card changes)
  if (img.dataset.key === key || img.dataset.want === key) return;
  img.dataset.want = key;
  if (!img.dataset.key || !onScreen(img)) { img.src = url; img.dataset.key = key; return; }
  const next = new Image();
  next.onload = () => { if (img.dataset.want === key) { img.src = url; img.dataset.key = key; } };
  next.src = url;
}
function faceUrl(key) { return "/face/" + encodeURIComponent(pack) + "/" + key + ".png"; }
function pageUrl(key) { return "/page/" + encodeURIComponent(pack) + "/" + key + ".png"; }

function renderCards(v) {
  const grid = byId("cards");
  const [w, h] = v.card_size;
  document.documentElement.style.setProperty("--w", w + "mm");
  const seen = new Set();
  let previous = null;
  for (const card of v.cards) {
    seen.add(card.id);
    let node = cards.get(card.id);
    if (!node) {
      node = el("div", {class: "card", "data-card": card.id, title: card.file + ":" + card.line});
      const sides = el("div", {class: "sides"});
      for (const side of ["front", "back"]) {
        const img = el("img", {class: side, alt: card.id + " " + side, loading: "lazy"});
        img.style.width = "calc(" + w + "mm * var(--zoom))";
        img.style.aspectRatio = w + " / " + h;
        sides.append(img);
      }
      node.append(sides, el("div", {class: "caption"}));
      node.addEventListener("click", () => details(card.id));
      cards.set(card.id, node);
    }
    const caption = node.querySelector(".caption");
    caption.replaceChildren(el("b", {}, card.id), " " + card.name +
      (card.count > 1 ? " ×" + card.count : ""));
    picture(node.querySelector("img.front"), faceUrl(card.front), card.front);
    picture(node.querySelector("img.back"), faceUrl(card.back), card.back);
    if (previous ? previous.nextSibling !== node : grid.firstChild !== node) {
      if (previous) previous.after(node); else grid.prepend(node);
    }
    previous = node;
  }
  for (const [id, node] of cards) if (!seen.has(id)) { node.remove(); cards.delete(id); }
  byId("cards-title").textContent = "Cards (" + v.cards.length + ")";
}

function renderDocuments(v) {
  const box = byId("documents");
  const wanted = new Set(v.documents.map((d) => d.name));
  for (const section of [...box.children]) if (!wanted.has(section.dataset.document)) section.remove();
  for (const doc of v.documents) {
    let section = box.querySelector('section[data-document="' + CSS.escape(doc.name) + '"]');
    if (!section) {
      section = el("section", {"data-document": doc.name});
      section.append(el("h2"), el("div", {class: "pages"}));
      box.append(section);
    }
    section.querySelector("h2").textContent = doc.name[0].toUpperCase() + doc.name.slice(1) +
      " (" + doc.pages.length + " page" + (doc.pages.length === 1 ? "" : "s") + ")";
    const pages = section.querySelector(".pages");
    doc.pages.forEach((key, index) => {
      let figure = pages.children[index];
      if (!figure) {
        figure = el("figure", {class: "page"});
        const img = el("img", {loading: "lazy", alt: doc.name + " page " + (index + 1)});
        figure.append(img, el("figcaption", {}, String(index + 1)));
        pages.append(figure);
      }
      const img = figure.querySelector("img");
      img.style.width = "calc(" + doc.size[0] / 2 + "mm * var(--zoom))";
      img.style.aspectRatio = doc.size[0] + " / " + doc.size[1];
      picture(img, pageUrl(key), key);
    });
    while (pages.children.length > doc.pages.length) pages.lastChild.remove();
  }
}

function renderDiagnostics(v) {
  const list = byId("diagnostics");
  list.replaceChildren();
  if (v.stale) list.append(el("li", {class: "note"},
    "Showing the last good cards: fix the errors below and save."));
  for (const d of v.diagnostics) {
    const item = el("li", {class: "diagnostic " + d.severity});
    const where = d.line > 0 ? d.file + ":" + d.line + ":" + d.col : d.file;
    item.append(where + ": ", el("b", {}, d.severity), ": " + (d.subject ? d.subject + " " : "") + d.message);
    list.append(item);
  }
  list.hidden = !list.children.length;
}

function renderChoices(v) {
  const select = byId("preset");
  if (select.options.length <= 1 + (select.dataset.started ? 1 : 0)) {
    for (const [slug, label] of v.presets) select.append(el("option", {value: slug}, label));
    select.value = params.get("preset") || "";
  }
  byId("preset-box").hidden = !v.presets.length;
}

function render(v) {
  view = v;
  document.title = v.title + " · cardgen serve";
  byId("title").textContent = v.title;
  renderDiagnostics(v);
  renderChoices(v);
  if (!v.stale) renderCards(v);
  renderDocuments(v);
  byId("status").textContent = (v.documents_pending ? "laying out documents… · " : "") +
    "updated " + new Date().toLocaleTimeString();
  document.body.dataset.generation = v.generation;
  if (chosen) details(chosen, true);
}

async function details(id, quietly) {
  chosen = id;
  for (const [cid, node] of cards) node.classList.toggle("chosen", cid === id);
  const response = await fetch("/api/card?" + query({id: id}));
  if (!response.ok) { if (!quietly) byId("details").hidden = true; return; }
  const card = await response.json();
  const panel = byId("details");
  panel.replaceChildren();
  const close = el("button", {class: "close", type: "button"}, "Close");
  close.addEventListener("click", () => { panel.hidden = true; chosen = null;
    for (const node of cards.values()) node.classList.remove("chosen"); });
  panel.append(close, el("h3", {}, card.id + (card.data.name ? " · " + card.data.name : "")));
  const where = el("code", {id: "where"}, card.where);
  const copy = el("button", {type: "button"}, "Copy");
  copy.addEventListener("click", () => navigator.clipboard.writeText(card.file + ":" + card.line)
    .then(() => { copy.textContent = "Copied"; }));
  const list = el("dl");
  list.append(el("dt", {}, "written at"), el("dd"), el("dt", {}, "kind"), el("dd", {}, card.kind),
              el("dt", {}, "layout"), el("dd", {}, card.layout + " (back: " + card.back_layout + ")"));
  list.children[1].append(where, " ", copy);
  if (token) {
    const open = el("button", {type: "button"}, "Open in editor");
    open.addEventListener("click", () => fetch("/api/open?" + query({id: card.id}),
      {method: "POST", headers: {"X-Cardgen-Token": token}}));
    list.children[1].append(" ", open);
  }
  panel.append(list, el("pre", {}, JSON.stringify(card.data, null, 2)));
  panel.hidden = false;
}

function switcher(name, value) {
  if (value) params.set(name, value); else params.delete(name);
  location.search = query();
}

function start() {
  byId("preset").addEventListener("change", (e) => switcher("preset", e.target.value));
  byId("paper").value = params.get("paper") || "";
  byId("paper").addEventListener("change", (e) => switcher("paper", e.target.value));
  const pick = byId("pack");
  for (const name of packs) pick.append(el("option", {value: name}, name));
  pick.value = pack;
  byId("pack-box").hidden = packs.length < 2;
  pick.addEventListener("change", (e) => { location.search = "pack=" + encodeURIComponent(e.target.value); });
  byId("zoom").addEventListener("input", (e) =>
    document.documentElement.style.setProperty("--zoom", e.target.value));
  const events = new EventSource("/events?" + query());
  events.addEventListener("view", (e) => render(JSON.parse(e.data)));
  events.onerror = () => { byId("status").textContent = "reconnecting…"; };
}
start();
"""


def page(packs: list[str], token: str) -> str:
    """The preview page for these packs; `token` (empty without --editor) lets it ask the
    server to open the editor."""
    data = {"packs": json.dumps(packs), "token": json.dumps(token)}
    for name, value in data.items():  # inside <script type=application/json>: no '</'
        data[name] = value.replace("<", "\\u003c")
    return f"""<!doctype html>
<html lang="en"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>cardgen serve</title>
<style>{_STYLE}</style></head>
<body>
<header>
  <h1 id="title">{html.escape(packs[0])}</h1>
  <label id="pack-box" hidden>Pack<select id="pack"></select></label>
  <label id="preset-box" hidden>Deck<select id="preset"><option value="">as started</option>
    <option value="*">every card</option></select></label>
  <label>Paper<select id="paper"><option value="">the pack's</option><option>a4</option>
    <option>letter</option><option>a3</option></select></label>
  <label>Zoom<input id="zoom" type="range" min="0.4" max="2" step="0.1" value="1"></label>
  <span id="status">connecting…</span>
</header>
<ul id="diagnostics" hidden></ul>
<main>
  <h2 id="cards-title">Cards</h2>
  <div id="cards" class="grid"></div>
  <div id="documents"></div>
</main>
<aside id="details" hidden></aside>
<script id="packs" type="application/json">{data["packs"]}</script>
<script id="token" type="application/json">{data["token"]}</script>
<script>{_SCRIPT}</script>
</body></html>
"""
