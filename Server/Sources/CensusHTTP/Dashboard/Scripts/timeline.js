// The dashboard script's timeline: every segment placed at its time on one axis, to scale, with
// the seconds the census credits it (the report's figures, shared out over the asset's segments).
const adTypes = ["preroll", "midroll", "postroll", "ad"];

function renderTimeline(segments) {
  const starts = segments.map(s => seconds(s.start)), ends = segments.map((s, i) => Math.max(starts[i], seconds(s.end)));
  const from = starts.length ? starts.reduce((a, b) => Math.min(a, b), Infinity) : 0;
  const to = ends.length ? ends.reduce((a, b) => Math.max(a, b), -Infinity) : 0;
  const span = Math.min(Number.MAX_VALUE, to - from) || 1;
  // Each segment at its place: left and width are shares of the session's span.
  const percent = value => Math.max(0, Math.min(100, 100 * value / span));
  fill("#timeline-bar", segments.map((s, i) => {
    const isAd = adTypes.includes(s.type);
    const width = percent(ends[i] - starts[i]);
    const label = `${s.type} ${clip(s.assetid, 60)}: ${duration(ends[i] - starts[i])}, credited ${seconds(s.creditedSeconds)} s`;
    return el("div", { class: "segment" + (isAd ? " ad" : ""), title: label,
      data: { type: s.type, asset: s.assetid, credited: seconds(s.creditedSeconds) },
      style: { left: percent(starts[i] - from) + "%", width: width + "%" } }, width > 8 && s.type !== "pause" ? s.type : "");
  }));
  document.querySelector("#timeline-axis").replaceChildren(
    el("span", {}, segments.length ? time(from) : "no segment"), el("span", {}, segments.length ? duration(to - from) : ""),
    el("span", {}, segments.length ? time(to) : ""));
  fill("#timeline tbody", segments.map((s, i) => el("tr", { data: { type: s.type, asset: s.assetid } },
    el("td", {}, s.type), el("td", {}, s.assetid), el("td", {}, time(s.start)),
    el("td", { class: "num" }, duration(ends[i] - starts[i])), el("td", { class: "num" }, s.reports),
    el("td", { class: "num" }, s.type === "pause" ? "" : seconds(s.creditedSeconds) + " s"))));
}
