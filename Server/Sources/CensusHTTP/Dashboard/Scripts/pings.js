// The dashboard script's pings: each with its parameters as the census read them (the trace's
// `decoded`, by ping id: name, value without its prefix, what the field means), shown only when
// opened. The page parses no query itself.
function decodedValue(parameters, name) {
  const found = list(parameters).find(p => p.name === name);
  return found ? found.value : "";
}
// One ping: a summary line that opens onto its decoded parameters.
function pingDetails(traced, stored, parameters) {
  const type = stored ? stored.pingType : decodedValue(parameters, wireNames.pingType);
  const asset = stored ? stored.assetid : decodedValue(parameters, wireNames.assetID);
  const credit = stored ? `credited ${stored.creditedSeconds} s` : "not stored by the census";
  const details = el("details", { class: "ping", data: { ping: traced.id } },
    el("summary", {}, `ping ${type} ${clip(asset, 60)} · ${credit}`));
  details.addEventListener("toggle", () => {
    if (!details.open || details.querySelector("table")) return;
    details.append(el("div", { class: "scroll" }, el("table", { class: "params" },
      el("thead", {}, el("tr", {}, el("th", {}, "Parameter"), el("th", {}, "Value"), el("th", {}, "Meaning"))),
      el("tbody", {}, ...list(parameters).map(p => el("tr", {},
        el("td", {}, el("code", {}, p.name)), el("td", {}, p.value), el("td", {}, p.meaning)))))));
  });
  return details;
}
