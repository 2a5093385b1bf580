// The dashboard script's side pane: the credit report (`/api/v1/report`, what `meter report`
// prints) with its chart and each line's audience, the live feed of everything the census receives, which refreshes the
// report, the sessions and the session shown; the refused requests; then the start.
// DTVR credited from the tags beside the SDK's own claim, where sessions sent tags
// (docs/census.md §5): whatever the fields hold, shown as text.
function tagCheck(check) {
  if (!check || typeof check !== "object") return "";
  const differ = Number(check.disagreeingSessions) || 0;
  return `tags ${check.tagSeconds} s, SDK ${check.sdkSeconds} s` + (differ > 0 ? `, ${differ} sessions differ` : "");
}

// A report read from a replica (`meter serve --read-database`) is as old as the replica's lag.
function replicaNote(replica) {
  if (!replica || typeof replica !== "object") return "";
  if (!replica.answering) return " · read replica not answering";
  const lag = Number(replica.lagSeconds) || 0;
  return lag > 0 ? ` · read from a replica ${lag.toFixed(1)} s behind` : " · read from a replica, caught up";
}

// The report's range from the form: its times as written, read in its zone by the census
// (docs/census.md §5, "Ranges and breakdowns"); empty fields leave that end open.
function rangeQuery(withBy) {
  const value = id => document.querySelector(id).value.trim();
  const parts = [["from", value("#range-from")], ["to", value("#range-to")], ["tz", value("#range-tz")]];
  if (withBy) parts.push(["by", value("#range-by")]);
  const given = parts.filter(([, v]) => v !== "");
  return given.length ? "?" + given.map(([k, v]) => k + "=" + encodeURIComponent(v)).join("&") : "";
}

// Per day or hour: each period's views and seconds, summed from its rows.
async function loadPeriods() {
  const table = document.querySelector("#credit-periods");
  if (!document.querySelector("#range-by").value) { table.hidden = true; return; }
  const { periods } = await api("report" + rangeQuery(true));
  fill("#credit-periods tbody", list(periods).map(p => {
    const rows = list(p.rows);
    const total = key => rows.reduce((sum, r) => sum + seconds(r[key]), 0);
    return el("tr", { data: { period: p.label, credited: total("creditedSeconds") } }, el("td", {}, p.label),
      el("td", { class: "num" }, total("views")), el("td", { class: "num" }, total("creditedSeconds")));
  }));
  table.hidden = false;
}

async function loadCredit() {
  const error = document.querySelector("#range-error");
  let answer;
  try {
    answer = await api("report" + rangeQuery(false));
    await loadPeriods();
    error.hidden = true;
  } catch (failure) {
    error.textContent = String(failure.message || failure);
    error.hidden = false;
    return;
  }
  const { rows, plausibility = [], readReplica } = answer;
  const all = list(rows);
  const max = all.reduce((most, r) => Math.max(most, seconds(r.creditedSeconds)), 1);
  fill("#credit-chart", all.slice(0, 20).map(r => el("div", { class: "bar-row" },
    el("span", { title: r.assetid }, r.assetid),
    el("div", { class: "bar-track" }, el("div", { class: "bar", style: { width: Math.max(0, Math.min(100, 100 * seconds(r.creditedSeconds) / max)) + "%" } })),
    el("span", { class: "num" }, seconds(r.creditedSeconds) + " s"))));
  fill("#credit tbody", all.map(r => el("tr", { data: { appid: r.appid, asset: r.assetid, kind: r.kind, credited: seconds(r.creditedSeconds) } },
    el("td", { title: String(r.appid) }, clip(r.appid, 10)), el("td", {}, r.assetid),
    el("td", {}, r.kind), el("td", { class: "num" }, r.views), el("td", { class: "num" }, r.creditedSeconds),
    el("td", { class: "num" }, r.overBoundSeconds ?? 0), el("td", {}, tagCheck(r.tagCheck)),
    el("td", {}, el("button", { class: "audience", attrs: { type: "button", "aria-label": "audience of " + clip(r.assetid, 60) },
      on: { click: () => showAudience({ appid: String(r.appid), asset: String(r.assetid) }) } }, "minutes")))));
  // Seconds a ping claimed beyond its kind's bound (not credited), and sessions crediting
  // beyond their own time (credited unless the census excludes them), by their pings and by
  // their viewability pings: docs/census.md §4b.
  fill("#plausibility tbody", list(plausibility).map(p => el("tr", {}, el("td", { title: String(p.appid) }, clip(p.appid, 10)),
    el("td", { class: "num" }, p.creditedSeconds), el("td", { class: "num" }, p.overBoundSeconds),
    el("td", { class: "num" }, p.flaggedSessions), el("td", { class: "num" }, p.flaggedSeconds),
    el("td", { class: "num" }, p.flaggedViewabilitySessions ?? 0),
    el("td", { class: "num" }, `${p.flaggedViewableSeconds ?? 0} / ${p.flaggedAudibleSeconds ?? 0}`))));
  document.querySelector("#credit-updated").textContent = "as of " + time(Date.now() / 1000) + replicaNote(readReplica);
  await loadAudience();
}

async function loadRejects() {
  const { rejects } = await api("rejects");
  fill("#rejects tbody", list(rejects).map(r => el("tr", {}, el("td", {}, time(r.receivedAt / 1000, r.receivedAt)), el("td", {}, r.reason))));
}

// Every event shows, whatever its app; a burst refreshes the report and lists once it settles.
function live() {
  const state = document.querySelector("#live-state");
  const source = new EventSource("/api/v1/live" + (token ? "?token=" + encodeURIComponent(token) : ""));
  let refresh;
  source.onopen = () => { state.textContent = "live"; state.className = "badge pass"; };
  source.onerror = () => { state.textContent = "reconnecting…"; state.className = "badge idle"; };
  source.onmessage = message => {
    let event;
    try { event = JSON.parse(message.data); } catch { return; }
    if (!event || typeof event !== "object") return;
    const text = event.kind === "ping" ? `ping ${event.pingType} ${event.creditKind} ${event.assetid} ${event.seconds} s · ${clip(event.appid, 10)}`
      : event.kind === "calls" ? `${String(event.session).slice(0, 8)}: ${list(event.calls).join(", ")}`
      : `rejected: ${event.reason}`;
    const feed = document.querySelector("#live");
    feed.prepend(el("li", { data: { kind: event.kind } }, text));
    while (feed.children.length > 100) feed.lastChild.remove();
    clearTimeout(refresh);
    refresh = setTimeout(() => {
      for (const load of [loadCredit, loadRejects]) load().catch(logError);
      loadSessions().then(() => view.session && select(view.session)).catch(logError);
    }, 1000);
  };
}

document.querySelector("#token-form").addEventListener("submit", event => {
  event.preventDefault();
  token = document.querySelector("#token-input").value;
  sessionStorage.setItem("appmeterToken", token);
  location.reload();
});
bindFilters();
// A link pasted into this tab changes only the fragment: the page is not reloaded, so it follows it.
window.addEventListener("hashchange", () => {
  Object.assign(view, readView());
  document.querySelector("#filter-search").value = view.q;
  document.querySelector("#filter-app").value = view.app;
  document.querySelector("#filter-verdict").value = view.verdict;
  applyFilter();
  if (view.session) select(view.session).catch(logError);
});
document.querySelector("#range-tz").value = Intl.DateTimeFormat().resolvedOptions().timeZone || "UTC";
document.querySelector("#range-form").addEventListener("submit", event => { event.preventDefault(); loadCredit().catch(logError); });
Promise.all([loadSessions(), loadCredit(), loadRejects()]).then(live).catch(logError);
