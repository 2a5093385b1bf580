import CensusStore

/// The dashboard's page, served at `/` by the census itself: no build step, no external CDN. It
/// holds no data (the data comes from `/api/v1/…`, behind the token), so it is served to anyone.
enum DashboardPage {
    static let html = #"""
    <!doctype html>
    <html lang="en">
    <head>
    <meta charset="utf-8">
    <meta name="viewport" content="width=device-width, initial-scale=1">
    <title>AppMeter census</title>
    <link rel="stylesheet" href="/dashboard.css">
    <script src="/dashboard.js" defer></script>
    </head>
    <body>
    <header>
      <h1>AppMeter census</h1>
      <span id="live-state" class="badge idle" role="status">connecting…</span>
    </header>
    <form id="token-form" hidden>
      <label>This census needs a token: <input id="token-input" type="password" autocomplete="off"></label>
      <button type="submit">Open</button>
    </form>
    <main>
      <section id="sessions-pane" aria-labelledby="sessions-heading">
        <h2 id="sessions-heading">Sessions</h2>
        <p class="hint">SDK instances that sent their call trace (nol_devDebug DEBUG, or appmeter_trace), and Google AMP page views.</p>
        <div class="filters">
          <label>Search <input id="filter-search" type="search" placeholder="app, asset, session"></label>
          <label>App <select id="filter-app"><option value="">every app</option></select></label>
          <label>Verdict <select id="filter-verdict">
            <option value="">any</option><option value="pass">pass</option><option value="fail">fail</option><option value="not traced">not traced</option>
          </select></label>
        </div>
        <p id="sessions-count" class="hint" aria-live="polite"></p>
        <ul id="sessions"></ul>
      </section>
      <section id="session-pane" aria-labelledby="session-title">
        <h2 id="session-title">Pick a session</h2>
        <p id="session-summary" class="hint"></p>
        <h3>Certification</h3>
        <div class="scroll"><table id="rules"><thead><tr><th>Result</th><th>Rule</th><th>Evidence (#n: call n below)</th></tr></thead><tbody></tbody></table></div>
        <h3>Credited in this session</h3>
        <div class="scroll"><table id="session-credit"><thead><tr><th>Asset</th><th>Kind</th><th class="num">Credited</th><th>DTVR</th></tr></thead><tbody></tbody></table></div>
        <h3>Timeline</h3>
        <div id="timeline-bar" class="timeline" role="img" aria-label="the session's segments on one time axis"></div>
        <div id="timeline-axis" class="axis"></div>
        <div class="scroll"><table id="timeline"><thead><tr><th>Segment</th><th>Asset</th><th>Start</th><th class="num">Length</th><th class="num">Reports</th><th class="num">Credited</th></tr></thead><tbody></tbody></table></div>
        <h3>Calls</h3>
        <p id="calls-empty" class="hint" hidden>No call traced.</p>
        <ol id="calls"></ol>
      </section>
      <section id="side-pane" aria-labelledby="credit-heading">
        <h2 id="credit-heading">Credit</h2>
        <form id="range-form" class="filters" aria-label="The report's range">
          <label>From <input id="range-from" type="datetime-local"></label>
          <label>To <input id="range-to" type="datetime-local"></label>
          <label>Zone <input id="range-tz" type="text" size="14" autocomplete="off" placeholder="UTC"></label>
          <label>By <select id="range-by"><option value="">the whole range</option><option value="day">day</option><option value="hour">hour</option></select></label>
          <button type="submit">Show</button>
        </form>
        <p id="range-error" class="hint" role="alert" hidden></p>
        <p id="credit-updated" class="hint"></p>
        <div class="scroll"><table id="credit-periods" hidden><thead><tr><th>Period</th><th class="num">Views</th><th class="num">Seconds</th></tr></thead><tbody></tbody></table></div>
        <div id="credit-chart"></div>
        <div class="scroll"><table id="credit"><thead><tr><th>App</th><th>Asset</th><th>Kind</th><th class="num">Views</th><th class="num">Seconds</th><th class="num">Over bound</th><th>DTVR tags / SDK</th><th>Audience</th></tr></thead><tbody></tbody></table></div>
        <section id="audience" aria-labelledby="audience-heading" hidden>
          <h3 id="audience-heading">Audience</h3>
          <p id="audience-error" class="hint" role="alert" hidden></p>
          <p id="audience-measures"></p>
          <svg id="audience-chart" role="img" viewBox="0 0 600 100" preserveAspectRatio="none" aria-label="devices per minute"></svg>
          <p id="audience-note" class="hint"></p>
          <div class="scroll minutes"><table id="audience-minutes"><thead><tr><th>Minute</th><th class="num">Devices</th><th class="num">Seconds</th></tr></thead><tbody></tbody></table></div>
        </section>
        <div class="scroll"><table id="plausibility"><thead><tr><th>App</th><th class="num">Credited</th><th class="num">Over bound</th><th class="num">Flagged sessions</th><th class="num">Flagged seconds</th><th class="num">Flagged viewability sessions</th><th class="num">Flagged viewable / audible s</th></tr></thead><tbody></tbody></table></div>
        <h2>Live</h2>
        <p id="live-scope" class="hint">everything the census receives, every app</p>
        <ol id="live" reversed></ol>
        <h2>Rejected requests</h2>
        <div class="scroll"><table id="rejects"><thead><tr><th>When</th><th>Reason</th></tr></thead><tbody></tbody></table></div>
      </section>
    </main>
    </body>
    </html>
    """#
}
