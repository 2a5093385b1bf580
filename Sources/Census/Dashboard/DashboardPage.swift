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
      <span id="live-state" class="badge">connecting…</span>
    </header>
    <form id="token-form" hidden>
      <label>This census needs a token: <input id="token-input" type="password" autocomplete="off"></label>
      <button type="submit">Open</button>
    </form>
    <main>
      <section id="sessions-pane">
        <h2>Sessions</h2>
        <p class="hint">SDK instances that sent their call trace (nol_devDebug DEBUG, or appmeter_trace).</p>
        <ul id="sessions"></ul>
      </section>
      <section id="session-pane">
        <h2 id="session-title">Pick a session</h2>
        <p id="session-summary" class="hint"></p>
        <h3>Certification</h3>
        <table id="rules"><thead><tr><th>Result</th><th>Rule</th><th>Evidence</th></tr></thead><tbody></tbody></table>
        <h3>Timeline</h3>
        <div id="timeline-bar" class="timeline"></div>
        <table id="timeline"><thead><tr><th>Segment</th><th>Asset</th><th>Start</th><th>Length</th><th>Reports</th><th>Credited</th></tr></thead><tbody></tbody></table>
        <h3>Calls</h3>
        <ol id="calls"></ol>
      </section>
      <section id="side-pane">
        <h2>Credit</h2>
        <div id="credit-chart"></div>
        <table id="credit"><thead><tr><th>App</th><th>Asset</th><th>Kind</th><th>Views</th><th>Seconds</th><th>Over bound</th><th>DTVR tags / SDK</th></tr></thead><tbody></tbody></table>
        <table id="plausibility"><thead><tr><th>App</th><th>Credited</th><th>Over bound</th><th>Flagged sessions</th><th>Flagged seconds</th></tr></thead><tbody></tbody></table>
        <h2>Live</h2>
        <p id="live-scope" class="hint">everything the census receives</p>
        <ol id="live" reversed></ol>
        <h2>Rejected requests</h2>
        <table id="rejects"><thead><tr><th>When</th><th>Reason</th></tr></thead><tbody></tbody></table>
      </section>
    </main>
    </body>
    </html>
    """#
}
