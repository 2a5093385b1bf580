/// The dashboard's script. Everything a ping or a trace carries is attacker-controlled: the page
/// builds every element with `textContent` and attributes through the DOM, never `innerHTML`, and
/// no stored value may make it throw: a time no `Date` can hold shows as the number it is, long
/// text is cut with an ellipsis (in full in its tooltip, up to a bound), lists of any length are
/// filled without spreading them into one call's arguments.
enum DashboardScript {
    static let js = #"""
    "use strict";
    const query = new URLSearchParams(location.search);
    let token = query.get("token") || sessionStorage.getItem("appmeterToken") || "";
    if (query.get("token")) sessionStorage.setItem("appmeterToken", token);
    const longest = 300;
    let selected = (() => { try { return decodeURIComponent((location.hash.match(/session=([^&]+)/) || [])[1] || ""); } catch { return ""; } })();
    let selectedAppid = "";

    // Text as shown: cut at `longest` characters (whole code points) with an ellipsis.
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

    function el(tag, props, ...children) {
      const node = document.createElement(tag);
      for (const [key, value] of Object.entries(props || {})) {
        if (key === "class") node.className = value;
        else if (key === "data") for (const [name, v] of Object.entries(value)) node.dataset[name] = String(v);
        else if (key === "style") Object.assign(node.style, value);
        else if (key === "title") node.title = clip(value, 4 * longest);
      }
      for (const child of children) node.append(child instanceof Node ? child : document.createTextNode(clip(child)));
      return node;
    }
    function fill(id, rows) {
      const fragment = document.createDocumentFragment();
      for (const row of rows) fragment.append(row);
      document.querySelector(id).replaceChildren(fragment);
    }
    // A time no Date can hold (beyond ±8.64e15 ms, not a number) is shown as the number stored.
    function time(seconds, stored = seconds) {
      const date = new Date(Number(seconds) * 1000);
      return Number.isFinite(date.getTime()) ? date.toISOString().replace("T", " ").slice(0, 19) : String(stored);
    }
    function logError(error) { console.error(error); }
    function badge(status) { return el("span", { class: "badge " + (status === "pass" ? "pass" : status === "fail" ? "fail" : "") }, status); }

    async function api(path) {
      const response = await fetch("/api/v1/" + path, { headers: token ? { Authorization: "Bearer " + token } : {} });
      if (response.status === 401) { document.querySelector("#token-form").hidden = false; throw new Error("token required"); }
      if (!response.ok) throw new Error(path + ": HTTP " + response.status);
      return response.json();
    }

    async function loadSessions() {
      const { sessions } = await api("sessions");
      const items = [];
      for (const session of sessions) {
        const item = el("li", { data: { session: session.session, appid: session.appid } },
          el("strong", {}, session.appid), " ", el("span", { class: "badge", data: { verdict: session.session } }, "…"),
          el("small", {}, String(session.session).slice(0, 8) + " · " + session.calls + " calls · " + time(session.lastCall)));
        if (session.session === selected) item.classList.add("selected");
        item.addEventListener("click", () => select(session.session).catch(logError));
        items.push(item);
      }
      fill("#sessions", items);
      for (const session of sessions) {
        api("certification?session=" + uri(session.session)).then(({ passed }) => {
          const verdict = document.querySelector(`#sessions [data-verdict="${CSS.escape(session.session)}"]`);
          if (verdict) { verdict.textContent = passed ? "pass" : "fail"; verdict.className = "badge " + (passed ? "pass" : "fail"); }
        }).catch(() => {});
      }
      if (!selected && sessions.length) select(sessions[0].session).catch(logError);
    }

    async function select(session) {
      selected = session;
      history.replaceState(null, "", "#session=" + uri(session));
      for (const item of document.querySelectorAll("#sessions li")) item.classList.toggle("selected", item.dataset.session === session);
      const [trace, certification] = await Promise.all([
        api("sessions/" + uri(session) + "/trace"),
        api("certification?session=" + uri(session)),
      ]);
      const report = certification.reports[0];
      if (!report) return;
      selectedAppid = report.appid;
      document.querySelector("#live-scope").textContent = "pings and calls of " + clip(report.appid) + ", and every refusal";
      document.querySelector("#session-title").textContent = clip(report.appid) + " · session " + session.slice(0, 8);
      document.querySelector("#session-summary").textContent =
        `${report.calls} calls · SDK ${clip(report.sdk)} · ${certification.passed ? "every exercised rule passes" : "a rule fails"} · sha256 ${report.sha256.slice(0, 16)}…`;
      fill("#rules tbody", report.results.map(rule => el("tr", { data: { rule: rule.id, status: rule.status } },
        el("td", {}, badge(rule.status)),
        el("td", {}, el("strong", {}, rule.title), el("div", { class: "explanation" }, rule.explanation),
          el("div", { class: "source" }, rule.source)),
        el("td", {}, el("ul", {}, ...rule.evidence.map(item => el("li", {}, item.text)))))));
      renderTimeline(trace.timeline);
      fill("#calls", trace.entries.map(entry => el("li", { data: { call: entry.call } },
        `${time(entry.time)} ${entry.call}(${Object.entries(entry.args).filter(([k]) => k !== "tag").map(([k, v]) => k + "=" + v).join(" ")})`
        + (entry.events.length ? " ⚑ " + entry.events.map(e => e.code + " " + e.text).join("; ") : "")
        + (entry.pings.length ? ` → ${entry.pings.length} ping(s)` : "") + " [" + entry.state + "]")));
    }

    function renderTimeline(segments) {
      // Far-apart times make spans no flex-grow can hold: each is shown at least 1/1000 of the bar.
      const span = s => Math.min(Number.MAX_VALUE, Math.max(1, s.end - s.start)) || 1;
      const total = Math.min(Number.MAX_VALUE, segments.reduce((sum, s) => sum + span(s), 0)) || 1;
      const ads = ["preroll", "midroll", "postroll", "ad"];
      fill("#timeline-bar", segments.map(s => el("div", {
        class: "segment" + (ads.includes(s.type) ? " ad" : ""), data: { type: s.type },
        style: { flexGrow: String(Math.max(0.001, span(s) / total)) },
        title: `${s.type} ${s.assetid} ${Math.round(s.end - s.start)} s, credited ${s.creditedSeconds} s`,
      }, s.type === "pause" ? "" : s.type)));
      fill("#timeline tbody", segments.map(s => el("tr", { data: { type: s.type } },
        el("td", {}, s.type), el("td", {}, s.assetid), el("td", {}, time(s.start)),
        el("td", {}, Math.round(s.end - s.start) + " s"), el("td", {}, s.reports),
        el("td", {}, s.type === "pause" ? "" : s.creditedSeconds + " s"))));
    }

    // DTVR credited from the tags beside the SDK's own claim, where sessions sent tags
    // (docs/census.md §5): whatever the fields hold, shown as text.
    function tagCheck(check) {
      if (!check || typeof check !== "object") return "";
      const differ = Number(check.disagreeingSessions) || 0;
      return `tags ${check.tagSeconds} s, SDK ${check.sdkSeconds} s` + (differ > 0 ? `, ${differ} sessions differ` : "");
    }

    async function loadCredit() {
      const { rows, plausibility = [] } = await api("report");
      const max = rows.reduce((most, r) => Math.max(most, Number(r.creditedSeconds) || 0), 1);
      fill("#credit-chart", rows.slice(0, 20).map(r => el("div", { class: "bar-row" },
        el("span", { title: r.assetid }, r.assetid), el("div", { class: "bar", style: { width: Math.max(0, Math.min(100, 100 * r.creditedSeconds / max)) + "%" } }),
        el("span", {}, r.creditedSeconds + " s"))));
      fill("#credit tbody", rows.map(r => el("tr", {}, el("td", {}, String(r.appid).slice(0, 9) + "…"), el("td", {}, r.assetid),
        el("td", {}, r.kind), el("td", {}, r.views), el("td", {}, r.creditedSeconds), el("td", {}, r.overBoundSeconds ?? 0),
        el("td", {}, tagCheck(r.tagCheck)))));
      // Seconds a ping claimed beyond its kind's bound (not credited), and sessions crediting
      // beyond their own time (credited unless the census excludes them): docs/census.md §4b.
      fill("#plausibility tbody", plausibility.map(p => el("tr", {}, el("td", { title: String(p.appid) }, clip(p.appid)),
        el("td", {}, p.creditedSeconds), el("td", {}, p.overBoundSeconds), el("td", {}, p.flaggedSessions), el("td", {}, p.flaggedSeconds))));
    }

    async function loadRejects() {
      const { rejects } = await api("rejects");
      fill("#rejects tbody", rejects.map(r => el("tr", {}, el("td", {}, time(r.receivedAt / 1000, r.receivedAt)), el("td", {}, r.reason))));
    }

    function live() {
      const state = document.querySelector("#live-state");
      const source = new EventSource("/api/v1/live" + (token ? "?token=" + encodeURIComponent(token) : ""));
      let refresh;
      source.onopen = () => { state.textContent = "live"; state.className = "badge pass"; };
      source.onerror = () => { state.textContent = "reconnecting…"; state.className = "badge"; };
      source.onmessage = message => {
        let event;
        try { event = JSON.parse(message.data); } catch { return; }
        if (!event || typeof event !== "object") return;
        // The live pane follows the chosen session's app; refusals carry no app and always show.
        if (selectedAppid && event.appid && event.appid !== selectedAppid) return;
        const text = event.kind === "ping" ? `ping ${event.pingType} ${event.creditKind} ${event.assetid} ${event.seconds} s`
          : event.kind === "calls" ? `${String(event.session).slice(0, 8)}: ${(event.calls || []).join(", ")}`
          : `rejected: ${event.reason}`;
        const list = document.querySelector("#live");
        list.prepend(el("li", { data: { kind: event.kind } }, text));
        while (list.children.length > 100) list.lastChild.remove();
        clearTimeout(refresh);
        refresh = setTimeout(() => {
          for (const load of [loadSessions, loadCredit, loadRejects]) load().catch(logError);
          if (selected) select(selected).catch(logError);
        }, 1500);
      };
    }

    document.querySelector("#token-form").addEventListener("submit", event => {
      event.preventDefault();
      token = document.querySelector("#token-input").value;
      sessionStorage.setItem("appmeterToken", token);
      location.reload();
    });
    Promise.all([loadSessions(), loadCredit(), loadRejects()]).then(live).catch(logError);
    """#
}
