// The dashboard script's pings: each decoded into its parameters, with what each means
// (`pingFields`, from the wire contract's ``PingField``), built only when opened.
// The parameters of a query as sent: name, value without its `name,` prefix, raw value.
function parameters(rawQuery) {
  const parts = String(rawQuery ?? "").split("&").slice(0, 200);
  return parts.filter(part => part.length).map(part => {
    const at = part.indexOf("=");
    const name = at < 0 ? part : part.slice(0, at);
    let value = at < 0 ? "" : part.slice(at + 1);
    try { value = decodeURIComponent(value.replace(/\+/g, " ")); } catch { /* shown as sent */ }
    let key = name;
    try { key = decodeURIComponent(name); } catch { /* shown as sent */ }
    const field = Object.prototype.hasOwnProperty.call(pingFields, key) ? pingFields[key] : null;
    const bare = field && field.prefix && value.startsWith(field.prefix) ? value.slice(field.prefix.length) : value;
    return { name: key, value: bare, meaning: field ? field.meaning : "not a parameter of the contract" };
  });
}
function parameter(rawQuery, name) {
  const found = parameters(rawQuery).find(p => p.name === name);
  return found ? found.value : "";
}
// One ping: a summary line that opens onto its decoded parameters.
function pingDetails(traced, stored) {
  const raw = stored ? stored.rawQuery : traced.query;
  const type = stored ? stored.pingType : parameter(raw, wireNames.pingType);
  const asset = stored ? stored.assetid : parameter(raw, wireNames.assetID);
  const credit = stored ? `credited ${stored.creditedSeconds} s` : "not stored by the census";
  const details = el("details", { class: "ping", data: { ping: traced.id } },
    el("summary", {}, `ping ${type} ${clip(asset, 60)} · ${credit}`));
  details.addEventListener("toggle", () => {
    if (!details.open || details.querySelector("table")) return;
    details.append(el("div", { class: "scroll" }, el("table", { class: "params" },
      el("thead", {}, el("tr", {}, el("th", {}, "Parameter"), el("th", {}, "Value"), el("th", {}, "Meaning"))),
      el("tbody", {}, ...parameters(raw).map(p => el("tr", {},
        el("td", {}, el("code", {}, p.name)), el("td", {}, p.value), el("td", {}, p.meaning)))))));
  });
  return details;
}
