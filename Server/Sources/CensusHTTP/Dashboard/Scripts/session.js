// The dashboard script's session pane: the rules with pass, fail or not exercised and their
// evidence (each `#n` the call numbered n in the list), the session's credit, every call with
// its events and decoded pings.
let shownSession = "";
let selecting = 0;

async function select(session) {
  const ticket = ++selecting;
  view.session = session;
  saveView();
  for (const item of document.querySelectorAll("#sessions li")) item.classList.toggle("selected", item.dataset.session === session);
  const row = sessionRows.find(s => s.session === session) || { session, traced: true, appid: "", assets: [] };
  const [trace, certification] = await Promise.all([
    api("sessions/" + uri(session) + "/trace" + (row.appid ? "?appid=" + uri(row.appid) : "")),
    row.traced ? api("certification?session=" + uri(session) + (row.appid ? "&appid=" + uri(row.appid) : "")) : Promise.resolve(null),
  ]);
  if (ticket !== selecting) return;   // a later choice won
  shownSession = session;
  const report = certification && certification.reports && certification.reports[0];
  const name = row.appName || (report && report.appid) || row.appid;
  document.querySelector("#session-title").textContent = `${clip(name, 80)} · session ${String(session).slice(0, 8)}`;
  renderRules(report);
  renderSessionCredit(list(trace.credit));
  renderTimeline(list(trace.timeline));
  renderCalls(list(trace.entries), list(trace.stored), trace.decoded || {});
}

function renderRules(report) {
  const summary = document.querySelector("#session-summary");
  if (!report) {
    summary.textContent = "No call trace: Google AMP's requests, replayed by the census. Nothing to certify.";
    fill("#rules tbody", []);
    return;
  }
  const results = list(report.results);
  const count = status => results.filter(r => r.status === status).length;
  summary.replaceChildren(`${report.calls} calls · SDK ${clip(report.sdk, 40)} · `,
    badge(count("fail") ? "fail" : "pass"), ` ${count("pass")} pass · ${count("fail")} fail · ${count("not exercised")} not exercised · `,
    el("span", { class: "hash", title: String(report.sha256) }, "sha256 " + String(report.sha256).slice(0, 16) + "…"));
  summary.dataset.sha256 = clip(report.sha256, 80);
  fill("#rules tbody", results.map(rule => el("tr", { data: { rule: rule.id, status: rule.status } },
    el("td", {}, badge(rule.status)),
    el("td", {}, el("strong", {}, rule.title), el("div", { class: "explanation" }, rule.explanation),
      el("div", { class: "source" }, rule.source)),
    el("td", {}, el("ul", { class: "evidence" }, ...list(rule.evidence).map(item => el("li", {},
      Number.isInteger(item.seq) ? el("button", { class: "seq", attrs: { type: "button" }, title: "show call #" + item.seq,
        on: { click: () => showCall(item.seq) } }, "#" + item.seq) : "", " ", item.text)))))));
}

function showCall(seq) {
  const call = document.querySelector(`#calls li[data-seq="${CSS.escape(String(seq))}"]`);
  if (!call) return;
  call.scrollIntoView({ block: "center" });
  call.focus();
}

function renderSessionCredit(credit) {
  fill("#session-credit tbody", credit.map(c => el("tr", { data: { asset: c.assetid, kind: c.kind, credited: seconds(c.creditedSeconds) } },
    el("td", {}, c.assetid), el("td", {}, c.kind), el("td", { class: "num" }, seconds(c.creditedSeconds) + " s"),
    el("td", {}, c.tagSeconds === null || c.tagSeconds === undefined ? "" : `tags ${c.tagSeconds} s, SDK ${c.sdkSeconds} s`))));
}

function renderCalls(entries, stored, decoded) {
  const byID = new Map(stored.map(p => [p.pingID, p]));
  fill("#calls", entries.map(entry => {
    const args = Object.entries(entry.args || {}).filter(([k]) => k !== "tag").map(([k, v]) => k + "=" + v).join(" ");
    const events = list(entry.events).map(e => el("div", { class: "event" }, `⚑ ${e.code} ${e.text}`));
    return el("li", { data: { call: entry.call, seq: entry.seq }, attrs: { tabindex: "-1" } },
      el("span", { class: "seq" }, "#" + entry.seq), " ", el("span", { class: "when" }, time(entry.time)), " ",
      `${entry.call}(${args}) [${entry.state}]`, ...events,
      ...list(entry.pings).map(ping => pingDetails(ping, byID.get(ping.id), decoded[ping.id])));
  }));
  document.querySelector("#calls-empty").hidden = entries.length > 0;
  if (!entries.length && stored.length) {
    fill("#calls", stored.map(p => el("li", { data: { call: "ping" } }, pingDetails({ id: p.pingID }, p, decoded[p.pingID]))));
  }
}
