// The dashboard script's common part: the token, the view's state in the URL's fragment (so a
// reload or a link restores it), text bounds, the DOM builder, the API.
const query = new URLSearchParams(location.search);
let token = query.get("token") || sessionStorage.getItem("appmeterToken") || "";
if (query.get("token")) sessionStorage.setItem("appmeterToken", token);
const longest = 300;

// The view: `#session=…&q=…&app=…&verdict=…`. Each value is bounded; a malformed one is dropped.
function readView() {
  const state = { session: "", q: "", app: "", verdict: "" };
  try {
    const fragment = new URLSearchParams(location.hash.slice(1));
    for (const key of Object.keys(state)) state[key] = (fragment.get(key) || "").slice(0, 4 * longest);
  } catch { /* a fragment no parser takes: the default view */ }
  return state;
}
const view = readView();
function saveView() {
  const fragment = new URLSearchParams();
  for (const [key, value] of Object.entries(view)) if (value) fragment.set(key, value);
  history.replaceState(null, "", "#" + fragment.toString());
}

// Text as shown: cut at `limit` characters (whole code points) with an ellipsis.
function clip(value, limit = longest) {
  const text = String(value ?? "");
  if (text.length <= limit) return text;
  return Array.from(text.slice(0, limit + 1)).slice(0, limit - 1).join("") + "…";
}
// encodeURIComponent throws on a lone surrogate; such an id is asked for with U+FFFD instead.
function uri(value) {
  const text = String(value ?? "");
  try { return encodeURIComponent(text); } catch { return encodeURIComponent(text.replace(/[\uD800-\uDFFF]/g, "\uFFFD")); }
}
// Elements with text nodes and named properties only; attribute names are this script's own.
function el(tag, props, ...children) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(props || {})) {
    if (key === "class") node.className = value;
    else if (key === "data") for (const [name, v] of Object.entries(value)) node.dataset[name] = clip(v, 4 * longest);
    else if (key === "style") Object.assign(node.style, value);
    else if (key === "title") node.title = clip(value, 4 * longest);
    else if (key === "attrs") for (const [name, v] of Object.entries(value)) { if (!/^on/i.test(name)) node.setAttribute(name, String(v)); }
    else if (key === "on") for (const [name, handler] of Object.entries(value)) node.addEventListener(name, handler);
  }
  for (const child of children) {
    if (child === null || child === undefined || child === "") continue;
    node.append(child instanceof Node ? child : document.createTextNode(clip(child)));
  }
  return node;
}
function fill(selector, rows) {
  const fragment = document.createDocumentFragment();
  for (const row of rows) fragment.append(row);
  document.querySelector(selector).replaceChildren(fragment);
}
// A time no Date can hold (beyond ±8.64e15 ms, not a number) is shown as the number stored.
function time(seconds, stored = seconds) {
  const date = new Date(Number(seconds) * 1000);
  return Number.isFinite(date.getTime()) ? date.toISOString().replace("T", " ").slice(0, 19) : String(stored);
}
function seconds(value) { const n = Number(value); return Number.isFinite(n) ? n : 0; }
function duration(value) {
  const s = Math.round(seconds(value));
  return s >= 120 ? `${Math.floor(s / 60)} min ${s % 60} s` : `${s} s`;
}
function logError(error) { console.error(error); }
function badge(status) {
  const kind = status === "pass" ? "pass" : status === "fail" ? "fail" : "idle";
  return el("span", { class: "badge " + kind }, status);
}
async function api(path) {
  const response = await fetch("/api/v1/" + path, { headers: token ? { Authorization: "Bearer " + token } : {} });
  if (response.status === 401) { document.querySelector("#token-form").hidden = false; throw new Error("token required"); }
  if (!response.ok) {
    const reason = (await response.text()).slice(0, 300);
    throw new Error(response.status === 400 ? reason : path + ": HTTP " + response.status);
  }
  return response.json();
}
function list(value) { return Array.isArray(value) ? value : []; }
