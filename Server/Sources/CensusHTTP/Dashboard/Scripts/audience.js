// The dashboard script's audience: a credit line's minute curve (`/api/v1/audience`, docs/census.md
// §5 "Audience"), asked for by a line's button: the measures, the devices of each minute drawn as
// bars, and the minutes' figures in a table beside them. Over the credit pane's range when it has
// both ends, else the last day and ten minutes ahead; redrawn when the live feed refreshes the report.
const audienceMinutesShown = 1440;
let audienceLine = null;
// Each load's number: an answer that comes back after a later one was asked is dropped.
let audienceAsked = 0;

// SVG elements through the DOM, attributes from this script's own names only.
function svg(tag, attrs, ...children) {
  const node = document.createElementNS("http://www.w3.org/2000/svg", tag);
  for (const [name, value] of Object.entries(attrs || {})) node.setAttribute(name, String(value));
  for (const child of children) node.append(child instanceof Node ? child : document.createTextNode(clip(child)));
  return node;
}

function audienceRange() {
  const value = id => document.querySelector(id).value.trim();
  const tz = value("#range-tz");
  if (value("#range-from") && value("#range-to")) {
    return [["from", value("#range-from")], ["to", value("#range-to")]].concat(tz ? [["tz", tz]] : []);
  }
  // The last day, to ten minutes ahead: a creation time is held to at most five minutes after
  // its receipt (docs/census.md §4), so every ping received in the last day is in it.
  const now = Math.floor(Date.now() / 1000);
  return [["from", String(now - 86400)], ["to", String(now + 600)]];
}

function showAudience(line) {
  audienceLine = line;
  loadAudience().catch(logError);
}

async function loadAudience() {
  const section = document.querySelector("#audience");
  if (!audienceLine) { section.hidden = true; return; }
  const parts = [["appid", audienceLine.appid], ["asset", audienceLine.asset]].concat(audienceRange());
  const error = document.querySelector("#audience-error");
  const asked = ++audienceAsked;
  section.hidden = false;
  section.dataset.shown = "";
  document.querySelector("#audience-heading").textContent = "Audience of " + clip(audienceLine.asset, 60);
  let answer;
  try {
    answer = await api("audience?" + parts.map(([k, v]) => k + "=" + uri(v)).join("&"));
    if (asked !== audienceAsked) return;
    error.hidden = true;
  } catch (failure) {
    if (asked !== audienceAsked) return;
    error.textContent = String(failure.message || failure);
    error.hidden = false;
    return;
  }
  const minutes = list(answer.minutes);
  const shown = minutes.slice(-audienceMinutesShown);
  document.querySelector("#audience-measures").textContent =
    `reach ${seconds(answer.reach)} device${seconds(answer.reach) === 1 ? "" : "s"} · ${seconds(answer.totalMinutes).toFixed(1)} credited minutes · ` +
    `average minute audience ${seconds(answer.averageMinuteAudience).toFixed(2)} · ${duration(answer.averageSecondsPerDevice)} per device` +
    (seconds(answer.unidentifiedSeconds) > 0 ? ` · ${seconds(answer.unidentifiedSeconds)} s without a device` : "");
  const most = shown.reduce((m, x) => Math.max(m, seconds(x.devices)), 1);
  const width = Math.max(1, shown.length);
  const bars = shown.map((m, i) => svg("rect", {
    x: i, width: 0.9, y: 100 - 100 * seconds(m.devices) / most, height: 100 * seconds(m.devices) / most,
    class: "minute", "data-start": seconds(m.start), "data-devices": seconds(m.devices),
  }, svg("title", {}, `${time(m.start)}: ${seconds(m.devices)} devices, ${seconds(m.seconds)} s`)));
  document.querySelector("#audience-chart").replaceChildren(...[svg("g", { transform: `scale(${600 / width} 1)` }, ...bars)]);
  document.querySelector("#audience-chart").setAttribute("aria-label",
    shown.length ? `devices per minute, ${shown.length} minutes from ${time(shown[0].start)}, at most ${most}` : "no minute credited");
  document.querySelector("#audience-note").textContent = minutes.length > shown.length
    ? `the last ${shown.length} of ${minutes.length} minutes` : `${minutes.length} minutes credited; a device counts from ${seconds(answer.minuteThresholdSeconds)} s of a minute`;
  fill("#audience-minutes tbody", shown.map(m => el("tr", { data: { start: seconds(m.start), devices: seconds(m.devices), seconds: seconds(m.seconds) } },
    el("td", {}, time(m.start)), el("td", { class: "num" }, m.devices), el("td", { class: "num" }, m.seconds))));
  // The line whose answer is shown, once all of it is.
  section.dataset.shown = clip(audienceLine.asset, 4 * longest);
}
