import CensusStore

/// The dashboard's style sheet: three columns on a wide screen, one on a phone, where tables
/// scroll sideways rather than wrap a word a letter a line; a visible outline on what has focus.
enum DashboardStyle {
    static let css = #"""
    :root { --pass: #1a7f37; --fail: #cf222e; --idle: #6e7781; --ink: #1f2328; --line: #d0d7de; --focus: #0969da; font-family: system-ui, sans-serif; color: var(--ink); }
    body { margin: 0; background: #f6f8fa; }
    header { display: flex; align-items: center; gap: 1rem; padding: .6rem 1rem; background: #24292f; color: #fff; }
    header h1 { font-size: 1.1rem; margin: 0; }
    main { display: grid; grid-template-columns: minmax(15rem, 1fr) minmax(0, 3fr) minmax(18rem, 1.5fr); gap: 1rem; padding: 1rem; }
    @media (max-width: 1100px) { main { grid-template-columns: minmax(15rem, 1fr) minmax(0, 2.5fr); } #side-pane { grid-column: 1 / -1; } }
    @media (max-width: 760px) { main { grid-template-columns: minmax(0, 1fr); padding: .5rem; gap: .5rem; } }
    section { background: #fff; border: 1px solid var(--line); border-radius: 6px; padding: .8rem; min-width: 0; }
    h2 { font-size: 1rem; margin: .2rem 0 .6rem; } h3 { font-size: .95rem; margin: 1rem 0 .4rem; }
    .hint { color: var(--idle); font-size: .85rem; overflow-wrap: anywhere; }
    :focus-visible { outline: 3px solid var(--focus); outline-offset: 2px; }
    .scroll { overflow-x: auto; max-width: 100%; }
    table { border-collapse: collapse; width: 100%; font-size: .85rem; }
    th { white-space: nowrap; font-weight: 600; }
    th, td { text-align: left; border-bottom: 1px solid var(--line); padding: .3rem .5rem; vertical-align: top; }
    td { overflow-wrap: break-word; }
    .num { text-align: right; font-variant-numeric: tabular-nums; white-space: nowrap; }
    .filters { display: flex; flex-wrap: wrap; gap: .4rem .8rem; font-size: .85rem; margin-bottom: .4rem; }
    .filters label { display: flex; flex-direction: column; gap: .15rem; flex: 1 1 8rem; }
    .filters label { min-width: 0; }
    /* A select is as wide as its longest option, and an app name is the sender's: held to the column. */
    .filters input, .filters select { font: inherit; padding: .25rem; min-width: 0; width: 100%; max-width: 100%; box-sizing: border-box; }
    ul#sessions { list-style: none; padding: 0; margin: 0; max-height: 40rem; overflow: auto; }
    ul#sessions button.session { display: block; width: 100%; text-align: left; font: inherit; background: none; padding: .4rem; border-radius: 4px; cursor: pointer; border: 1px solid transparent; color: inherit; overflow-wrap: anywhere; }
    ul#sessions li.selected button.session { border-color: var(--focus); background: #ddf4ff; }
    ul#sessions small { display: block; color: var(--idle); }
    .badge { display: inline-block; padding: 0 .45rem; border-radius: 1rem; font-size: .75rem; font-weight: 600; background: var(--idle); color: #fff; white-space: nowrap; margin-right: .2rem; }
    .badge.pass { background: var(--pass); } .badge.fail { background: var(--fail); }
    tr[data-status="fail"] td { background: #ffebe9; }
    tr[data-status="not exercised"] { color: var(--idle); }
    .explanation { color: var(--idle); font-size: .8rem; margin-top: .2rem; }
    .source { color: var(--idle); font-size: .75rem; font-style: italic; }
    ul.evidence { margin: 0; padding-left: 1rem; min-width: 12rem; }
    button.seq { font: inherit; font-family: ui-monospace, monospace; padding: 0 .2rem; cursor: pointer; }
    .timeline { position: relative; height: 1.8rem; border-radius: 4px; background: #f6f8fa; border: 1px solid var(--line); overflow: hidden; }
    .segment { position: absolute; top: 0; bottom: 0; min-width: 2px; font-size: .7rem; color: #fff; overflow: hidden; white-space: nowrap; padding: .4rem .2rem 0; box-sizing: border-box; border-right: 1px solid #fff; }
    .segment[data-type="content"], .segment[data-type="audio"] { background: #0969da; } .segment[data-type="static"] { background: #8250df; }
    .segment[data-type="dtvr"] { background: #1b7c83; } .segment[data-type="radio"], .segment[data-type="station"] { background: #116329; }
    .segment[data-type="pause"] { background: repeating-linear-gradient(45deg, #eaeef2, #eaeef2 4px, #fff 4px, #fff 8px); }
    .segment.ad { background: #bf8700; }
    .axis { display: flex; justify-content: space-between; font-size: .75rem; color: var(--idle); margin: .2rem 0 .4rem; }
    ol#calls { font-family: ui-monospace, monospace; font-size: .75rem; max-height: 28rem; overflow: auto; padding-left: 0; list-style: none; overflow-wrap: anywhere; }
    ol#calls > li { padding: .15rem .2rem; border-bottom: 1px solid #eaeef2; }
    ol#calls .seq { color: var(--idle); display: inline-block; min-width: 3.2em; }
    .event { color: #9a6700; padding-left: 3.5em; }
    details.ping { padding-left: 3.5em; } details.ping summary { cursor: pointer; color: #0550ae; }
    table.params { font-size: .72rem; } table.params td:first-child { white-space: nowrap; }
    ol#live { font-family: ui-monospace, monospace; font-size: .75rem; max-height: 16rem; overflow: auto; overflow-wrap: anywhere; }
    #audience-chart { width: 100%; height: 8rem; display: block; background: #f6f8fa; border-bottom: 1px solid #d0d7de; }
    #audience-chart .minute { fill: #0969da; }
    .minutes { max-height: 16rem; overflow-y: auto; }
    .bar-track { background: #eaeef2; border-radius: 2px; }
    .bar { height: .9rem; background: #0969da; border-radius: 2px; }
    .bar-row { display: grid; grid-template-columns: minmax(5rem, 9rem) 1fr 4rem; gap: .4rem; align-items: center; font-size: .75rem; margin: .15rem 0; }
    .bar-row span { overflow: hidden; text-overflow: ellipsis; white-space: nowrap; }
    /* A phone: a rule's evidence goes below its title, the full width, instead of a third of it. */
    @media (max-width: 600px) { #rules thead { display: none; } #rules tr { display: grid; grid-template-columns: auto minmax(0, 1fr); }
      #rules td { border-bottom: 0; } #rules tr { border-bottom: 1px solid var(--line); } #rules td:nth-child(3) { grid-column: 1 / -1; } }
    .hash { font-family: ui-monospace, monospace; }
    """#
}
