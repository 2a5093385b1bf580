/// The dashboard's style sheet: one column on a phone, three on a wide screen.
enum DashboardStyle {
    static let css = #"""
    :root { --pass: #1a7f37; --fail: #cf222e; --idle: #6e7781; --ink: #1f2328; --line: #d0d7de; font-family: system-ui, sans-serif; color: var(--ink); }
    body { margin: 0; background: #f6f8fa; }
    header { display: flex; align-items: center; gap: 1rem; padding: .6rem 1rem; background: #24292f; color: #fff; }
    header h1 { font-size: 1.1rem; margin: 0; }
    main { display: grid; grid-template-columns: minmax(14rem, 1fr) minmax(0, 3fr) minmax(16rem, 1.4fr); gap: 1rem; padding: 1rem; }
    @media (max-width: 900px) { main { grid-template-columns: 1fr; } }
    section { background: #fff; border: 1px solid var(--line); border-radius: 6px; padding: .8rem; min-width: 0; overflow-wrap: anywhere; }
    h2 { font-size: 1rem; margin: .2rem 0 .6rem; } h3 { font-size: .95rem; margin: 1rem 0 .4rem; }
    .hint { color: var(--idle); font-size: .85rem; }
    table { border-collapse: collapse; width: 100%; font-size: .85rem; }
    th, td { text-align: left; border-bottom: 1px solid var(--line); padding: .3rem .4rem; vertical-align: top; }
    ul#sessions { list-style: none; padding: 0; margin: 0; }
    ul#sessions li { padding: .4rem; border-radius: 4px; cursor: pointer; border: 1px solid transparent; }
    ul#sessions li.selected { border-color: #0969da; background: #ddf4ff; }
    ul#sessions li small { display: block; color: var(--idle); }
    .badge { display: inline-block; padding: 0 .45rem; border-radius: 1rem; font-size: .75rem; font-weight: 600; background: var(--idle); color: #fff; white-space: nowrap; }
    .badge.pass { background: var(--pass); } .badge.fail { background: var(--fail); }
    tr[data-status="fail"] td { background: #ffebe9; }
    .explanation { color: var(--idle); font-size: .8rem; margin-top: .2rem; }
    .source { color: var(--idle); font-size: .75rem; font-style: italic; }
    .timeline { display: flex; height: 1.6rem; border-radius: 4px; overflow: hidden; border: 1px solid var(--line); }
    .segment { min-width: 2px; font-size: .7rem; color: #fff; overflow: hidden; white-space: nowrap; padding: .3rem .2rem 0; }
    .segment[data-type="content"] { background: #0969da; } .segment[data-type="static"] { background: #8250df; }
    .segment[data-type="dtvr"] { background: #1b7c83; } .segment[data-type="pause"] { background: #eaeef2; color: var(--idle); }
    .segment.ad { background: #bf8700; }
    ol#calls { font-family: ui-monospace, monospace; font-size: .75rem; max-height: 24rem; overflow: auto; padding-left: 3.5rem; }
    ol#live { font-family: ui-monospace, monospace; font-size: .75rem; max-height: 16rem; overflow: auto; }
    .bar { height: .9rem; background: #0969da; border-radius: 2px; }
    .bar-row { display: grid; grid-template-columns: 8rem 1fr 3.5rem; gap: .4rem; align-items: center; font-size: .75rem; margin: .15rem 0; }
    .bar-row span { overflow: hidden; text-overflow: ellipsis; white-space: nowrap; }
    """#
}
