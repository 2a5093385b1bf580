"""The dashboard's figures against `meter report`, and the view's behaviour (scripts/dashboard-check).

Every check reports through the `check(condition, what)` it is given; nothing here exits.
"""
import json
import os
import subprocess
import time
from collections import defaultdict
from urllib.parse import quote

from playwright.sync_api import expect

TRUSTED_APP = None  # every app the demo's report holds


def open_session(page, session):
    page.locator(f'#sessions li[data-session="{session}"] button').click()
    expect(page.locator("#session-title")).to_contain_text("session " + session[:8], timeout=15000)
    # The trace and certification arrive together; the credit table is filled with them.
    page.wait_for_function("s => location.hash.includes(encodeURIComponent(s))", arg=session)
    page.wait_for_timeout(150)


def report_rows(meter, database):
    out = subprocess.run([meter, "report", "--json", "--database", database], capture_output=True, text=True, timeout=120)
    if out.returncode != 0:
        return None
    return json.loads(out.stdout)["rows"]


def check_agreement(page, base, meter, database, check):
    """Every session's timeline and credit, the side pane's credit table and `meter report --json`."""
    page.evaluate("() => { document.querySelector('#filter-search').value = ''; }")
    sessions = page.locator("#sessions li").evaluate_all("items => items.map(i => i.dataset.session)")
    timeline = defaultdict(int)   # (ad?, asset) -> seconds over every session's segments
    ledger = defaultdict(int)     # (kind, asset) -> seconds of every session's credit table
    empty = []                    # sessions that credit no asset: an SDK that measured nothing
    for session in sessions:
        if session == "hostile-session":
            continue
        open_session(page, session)
        for asset, credited, kind in page.locator("#timeline-bar .segment").evaluate_all(
                "ns => ns.map(n => [n.dataset.asset, Number(n.dataset.credited), n.dataset.type])"):
            if kind != "pause":
                timeline[(kind in ("preroll", "midroll", "postroll", "ad"), asset)] += credited
        for kind, asset, credited in page.locator("#session-credit tbody tr").evaluate_all(
                "rs => rs.map(r => [r.dataset.kind, r.dataset.asset, Number(r.dataset.credited)])"):
            ledger[(kind, asset)] += credited
        if page.locator("#session-credit tbody tr").count() == 0:
            empty.append(session[:8])
    check(not empty, f"every listed session has credited assets, no SDK session without pings ({', '.join(empty)})")
    rows = report_rows(meter, database)
    check(rows is not None, "meter report --json reads the demo's database")
    rows = rows or []
    side = {(r[0], r[1], r[2]): r[3] for r in page.locator("#credit tbody tr").evaluate_all(
        "rs => rs.map(r => [r.dataset.appid, r.dataset.kind, r.dataset.asset, Number(r.dataset.credited)])")}
    check(len(rows) >= 15, f"the report has the demo's assets ({len(rows)} rows)")
    for row in rows:
        kind, asset, seconds = row["kind"], row["assetid"], row["creditedSeconds"]
        if kind == "app":
            continue
        check(side.get((row["appid"], kind, asset)) == seconds,
              f"live pane credit {kind} {asset}: {side.get((row['appid'], kind, asset))} s, report {seconds} s")
        check(ledger.get((kind, asset)) == seconds,
              f"sessions' credit {kind} {asset}: {ledger.get((kind, asset))} s, report {seconds} s")
        check(timeline.get((kind == "ad", asset)) == seconds,
              f"timelines {kind} {asset}: {timeline.get((kind == 'ad', asset))} s, report {seconds} s")


def check_view(page, base, vod, broken, artifacts, check):
    """Deep link and reload, search and filter, keyboard, stable hash, not exercised, evidence, pings."""
    vod_id = page.locator(f'#sessions li[data-session^="{vod}"]').get_attribute("data-session")
    page.goto(base + "/#session=" + vod_id)
    expect(page.locator("#session-title")).to_contain_text("session " + vod, timeout=15000)
    check(True, "a #session= deep link opens that session")
    first = page.locator("#session-summary").get_attribute("data-sha256")
    page.reload()
    expect(page.locator("#session-title")).to_contain_text("session " + vod, timeout=15000)
    expect(page.locator("#session-summary")).to_have_attribute("data-sha256", first or "-", timeout=15000)
    check(bool(first), f"a reload shows the same session and the same sha256 ({(first or '')[:16]}…)")
    check(page.locator("#timeline-bar .segment").count() >= 5, "the reloaded session has its timeline")

    labels = page.locator("#sessions li strong").all_inner_texts()
    check(all(not (len(t) == 36 and t.count("-") == 4) for t in labels), "sessions are labelled by app name, not GUID")
    check("demo-vod-ep1" in page.locator(f'#sessions li[data-session="{vod_id}"]').inner_text(),
          "a session's label names its assets")

    not_exercised = page.locator('#rules tr[data-status="not exercised"]')
    check(not_exercised.count() >= 1 and "not exercised" in not_exercised.first.inner_text(),
          f"rules never exercised show as such ({not_exercised.count()})")
    check("not exercised" in page.locator("#session-summary").inner_text(), "the summary counts the rules not exercised")

    page.locator("#calls details.ping").first.evaluate("d => { d.open = true; }")
    params = page.locator("#calls details.ping").first.locator("table.params")
    expect(params).to_be_visible(timeout=5000)
    check("seconds this ping credits" in params.inner_text(), "a ping opens onto its decoded parameters and their meaning")

    search = page.locator("#filter-search")
    search.fill("demo-movie")
    visible = page.locator("#sessions li:not([hidden])")
    check(visible.count() == 1, f"searching an asset leaves its session ({visible.count()})")
    page.reload()
    expect(page.locator("#filter-search")).to_have_value("demo-movie", timeout=15000)
    page.wait_for_timeout(500)
    check(page.locator("#sessions li:not([hidden])").count() == 1, "a reload keeps the search")
    page.locator("#filter-search").fill("")
    page.select_option("#filter-verdict", "fail")
    page.wait_for_timeout(300)
    failing = page.locator("#sessions li:not([hidden])").evaluate_all(
        "items => items.map(i => [i.dataset.session, i.querySelector('.verdict .badge')?.textContent])")
    check(any(s.startswith(broken) for s, _ in failing) and all(v == "fail" for _, v in failing)
          and len(failing) < page.locator("#sessions li").count(),
          f"the verdict filter leaves the failing sessions ({len(failing)})")
    page.select_option("#filter-verdict", "")

    page.locator("#sessions li button").first.focus()
    page.keyboard.press("ArrowDown")
    focused = page.evaluate("() => document.activeElement && document.activeElement.closest('#sessions li')?.dataset.session")
    second = page.locator("#sessions li").nth(1).get_attribute("data-session")
    check(focused == second, "ArrowDown moves focus to the next session")
    outline = page.evaluate("() => getComputedStyle(document.activeElement).outlineStyle")
    check(outline not in ("none", ""), f"the focused session is outlined ({outline})")
    page.keyboard.press("Enter")
    expect(page.locator("#session-title")).to_contain_text("session " + second[:8], timeout=15000)
    check(True, "Enter opens the focused session")

    open_session(page, page.locator(f'#sessions li[data-session^="{broken}"]').get_attribute("data-session"))
    evidence = page.locator('#rules tr[data-rule="metadata.notBeforeEveryPlayhead"] button.seq')
    check(evidence.count() >= 1, "evidence points at calls")
    if evidence.count():
        label = evidence.first.inner_text()
        evidence.first.click()
        call = page.evaluate("() => document.activeElement && document.activeElement.querySelector('.seq')?.textContent")
        check(call == label, f"evidence {label} is call {call} of the list")
    page.set_viewport_size({"width": 1280, "height": 900})
    page.wait_for_timeout(300)
    page.screenshot(path=os.path.join(artifacts, "dashboard-1280.png"), full_page=True)
    page.set_viewport_size({"width": 390, "height": 844})
    page.wait_for_timeout(300)
    narrowest = page.locator("#rules tbody tr td:nth-child(3)").evaluate_all(
        "cells => Math.min(...cells.map(c => c.getBoundingClientRect().width))")
    check(narrowest >= 120, f"on a phone, evidence keeps its width ({narrowest:.0f} px)")
    overflow = page.evaluate("document.documentElement.scrollWidth")
    wide = page.evaluate("""() => [...document.querySelectorAll('body *')].filter(e => e.getBoundingClientRect().right > 392
        && !e.closest('.scroll')).slice(0, 3).map(e => e.tagName.toLowerCase() + (e.id ? '#' + e.id : '') + ' ' + Math.round(e.getBoundingClientRect().right))""")
    check(overflow <= 392, f"on a phone nothing runs off the side ({overflow} px{'; ' + ', '.join(wide) if wide else ''})")
    page.screenshot(path=os.path.join(artifacts, "dashboard-390.png"), full_page=True)


def check_audience(page, base, request, artifacts, check):
    """Each credit line's audience (docs/census.md §5, "Audience"): the live news's and the DTVR
    channel's minutes, asked for from the keyboard, drawn and tabled as the API answers them."""
    dtvr = page.locator('#credit tbody tr[data-kind="dtvr"]').first.get_attribute("data-asset")
    for asset in ["demo-live-news", dtvr]:
        row = page.locator(f'#credit tbody tr[data-asset="{asset}"]').first
        appid = row.get_attribute("data-appid")
        row.locator("button.audience").focus()
        page.keyboard.press("Enter")
        expect(page.locator("#audience-heading")).to_contain_text(asset, timeout=15000)
        # The previous line's minutes stay until this line's answer has replaced them all.
        expect(page.locator("#audience")).to_have_attribute("data-shown", asset, timeout=15000)
        shown = page.locator("#audience-minutes tbody tr").evaluate_all(
            "rs => rs.map(r => [Number(r.dataset.start), Number(r.dataset.devices), Number(r.dataset.seconds)])")
        now = int(time.time())
        status, body = request(f"{base}/api/v1/audience?appid={quote(appid)}&asset={quote(asset)}&from={now - 86400}&to={now + 600}")
        check(status == 200, f"the audience of {asset} answers ({status})")
        answer = json.loads(body) if status == 200 else {"minutes": []}
        expected = [[m["start"], m["devices"], m["seconds"]] for m in answer["minutes"]]
        check(shown == expected, f"the page's minutes of {asset} are the API's ({len(shown)} shown, {len(expected)} answered)")
        bars = page.locator("#audience-chart rect.minute").evaluate_all("rs => rs.map(r => Number(r.dataset.devices))")
        check(bars == [m[1] for m in expected], f"each minute of {asset} has its bar, as tall as its devices")
        credited = int(row.get_attribute("data-credited"))
        check(sum(m[2] for m in shown) == answer.get("creditedSeconds") == credited,
              f"the minutes of {asset} sum to its credit in the report ({sum(m[2] for m in shown)}, {credited})")
        check(answer.get("reach", 0) >= 1 and f"reach {answer.get('reach')} device" in page.locator("#audience-measures").inner_text(),
              f"the measures of {asset} are shown")
    page.locator("#audience").screenshot(path=os.path.join(artifacts, "dashboard-audience.png"))
