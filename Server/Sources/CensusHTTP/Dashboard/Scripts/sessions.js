// The dashboard script's sessions list: labelled (app, assets, platform, start), searchable and
// filtered by app and verdict, walked with the arrow keys; the view's state kept in the URL.
const verdicts = new Map();   // session → { verdict: "pass" | "fail" | "not traced", notExercised }
let sessionRows = [];

function sessionText(s) {
  return [s.appName, s.appid, s.session, s.platform, s.sdk, ...list(s.assets)].join(" ").toLowerCase();
}
function verdictOf(session) { return verdicts.get(session) || { verdict: "…", notExercised: 0 }; }
function applyFilter() {
  const needle = view.q.toLowerCase();
  let shown = 0;
  for (const item of document.querySelectorAll("#sessions li")) {
    const s = sessionRows[Number(item.dataset.index)];
    const keep = (!needle || sessionText(s).includes(needle)) && (!view.app || s.appid === view.app)
      && (!view.verdict || verdictOf(s.session).verdict === view.verdict);
    item.hidden = !keep;
    if (keep) shown += 1;
  }
  document.querySelector("#sessions-count").textContent = `${shown} of ${sessionRows.length} sessions`;
}
function showVerdict(item, session) {
  const { verdict, notExercised } = verdictOf(session);
  item.querySelector(".verdict").replaceChildren(badge(verdict),
    notExercised ? el("span", { class: "badge idle" }, `${notExercised} not exercised`) : "");
}

async function loadSessions() {
  const { sessions } = await api("sessions");
  sessionRows = list(sessions);
  fill("#sessions", sessionRows.map((s, index) => {
    const name = s.appName || s.appid;
    const button = el("button", { class: "session", attrs: { type: "button" },
      on: { click: () => select(s.session).catch(logError) } },
      el("strong", {}, clip(name, 60)), " ", el("span", { class: "verdict" }),
      el("small", {}, [list(s.assets).join(", ") || "no asset", s.platform, time(s.firstCall)].join(" · ")),
      el("small", {}, `${String(s.session).slice(0, 8)} · ${s.traced ? s.calls + " calls" : "no call trace"}`));
    const item = el("li", { data: { session: s.session, appid: s.appid, index } }, button);
    if (s.session === view.session) item.classList.add("selected");
    if (!s.traced) verdicts.set(s.session, { verdict: "not traced", notExercised: 0 });
    showVerdict(item, s.session);
    return item;
  }));
  const apps = [...new Map(sessionRows.map(s => [s.appid, s.appName || s.appid])).entries()];
  fill("#filter-app", [el("option", { attrs: { value: "" } }, "every app"),
    ...apps.map(([appid, name]) => el("option", { attrs: { value: appid } }, `${clip(name, 40)} (${clip(appid, 12)})`))]);
  document.querySelector("#filter-app").value = view.app;
  applyFilter();
  for (const s of sessionRows.filter(s => s.traced)) {
    api("certification?session=" + uri(s.session) + "&appid=" + uri(s.appid)).then(({ reports }) => {
      const results = list(reports && reports[0] && reports[0].results);
      verdicts.set(s.session, { verdict: results.some(r => r.status === "fail") ? "fail" : "pass",
        notExercised: results.filter(r => r.status === "not exercised").length });
      const item = document.querySelector(`#sessions li[data-session="${CSS.escape(s.session)}"]`);
      if (item) showVerdict(item, s.session);
      applyFilter();
    }).catch(() => {});
  }
  const wanted = sessionRows.find(s => s.session === view.session) || sessionRows[0];
  if (wanted && wanted.session !== shownSession) await select(wanted.session);
}

// Search and filters: each change is kept in the URL, so a reload shows the same list.
function bindFilters() {
  const search = document.querySelector("#filter-search");
  search.value = view.q;
  search.addEventListener("input", () => { view.q = search.value.slice(0, 4 * longest); saveView(); applyFilter(); });
  for (const [id, key] of [["#filter-app", "app"], ["#filter-verdict", "verdict"]]) {
    const control = document.querySelector(id);
    control.value = view[key];
    control.addEventListener("change", () => { view[key] = control.value; saveView(); applyFilter(); });
  }
  // Arrow keys move between the visible sessions; Enter or Space opens one (a button's own keys).
  document.querySelector("#sessions").addEventListener("keydown", event => {
    if (event.key !== "ArrowDown" && event.key !== "ArrowUp") return;
    const buttons = [...document.querySelectorAll("#sessions li:not([hidden]) button")];
    const at = buttons.indexOf(document.activeElement);
    const next = buttons[Math.max(0, Math.min(buttons.length - 1, at + (event.key === "ArrowDown" ? 1 : -1)))];
    if (next) { next.focus(); event.preventDefault(); }
  });
}
