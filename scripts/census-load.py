#!/usr/bin/env python3
"""Load check for `meter serve`: 10,000 valid pings and 1,000 malformed ones from 8 threads.

Starts `meter serve` on a free loopback port with a fresh SQLite file (or --database), sends the
pings, then checks through /api/v1/stats that exactly 10,000 are stored and 1,000 rejected, and that
the server still answers. Prints the request rate. Loopback only; bounded in count.

    swift build -c release --package-path Server --product meter
    scripts/census-load.py --meter Server/.build/release/meter
"""
import argparse, http.client, os, socket, subprocess, sys, tempfile, threading, time, json

def free_port():
    s = socket.socket(); s.bind(("127.0.0.1", 0)); port = s.getsockname()[1]; s.close(); return port

def query(i, malformed):
    credited = f"x{i}" if malformed else "10"
    return (f"/cgi-bin/gn?prd=dcr&c13=asid,P00000000-0000-4000-8000-00000000L0AD&at=timer&rt=video"
            f"&c27=cln,{credited}&ai=load-asset-{i % 50}&c3=st,c&c59=sesid,s{i % 97}&c61=createtm,{1700000000 + i}"
            f"&pingid=load-{i}")

def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--meter", default="Server/.build/debug/meter")
    parser.add_argument("--database")
    parser.add_argument("--valid", type=int, default=10_000)
    parser.add_argument("--malformed", type=int, default=1_000)
    parser.add_argument("--threads", type=int, default=8)
    args = parser.parse_args()

    port = free_port()
    database = args.database or os.path.join(tempfile.mkdtemp(prefix="census-load-"), "census.sqlite")
    server = subprocess.Popen([args.meter, "serve", "--port", str(port), "--database", database, "--log-level", "error"])
    try:
        for _ in range(300):
            try:
                c = http.client.HTTPConnection("127.0.0.1", port, timeout=1); c.request("GET", "/healthz")
                if c.getresponse().status == 200: break
            except OSError: time.sleep(0.1)
        else:
            sys.exit("meter serve did not start")

        total = args.valid + args.malformed
        # Every (total / malformed)-th request is malformed, spread over the run.
        step = total // args.malformed if args.malformed else total + 1
        jobs = [(i, args.malformed and i % step == step - 1) for i in range(total)]
        statuses = {}
        lock = threading.Lock()

        def worker(chunk):
            conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
            seen = {}
            for i, bad in chunk:
                conn.request("GET", query(i, bad)); response = conn.getresponse(); response.read()
                seen[response.status] = seen.get(response.status, 0) + 1
            with lock:
                for k, v in seen.items(): statuses[k] = statuses.get(k, 0) + v

        started = time.time()
        threads = [threading.Thread(target=worker, args=(jobs[t::args.threads],)) for t in range(args.threads)]
        for t in threads: t.start()
        for t in threads: t.join()
        elapsed = time.time() - started

        c = http.client.HTTPConnection("127.0.0.1", port, timeout=5); c.request("GET", "/api/v1/stats")
        stats = json.loads(c.getresponse().read())
        alive = server.poll() is None
        expected_malformed = sum(1 for _, bad in jobs if bad)
        print(f"{total} requests in {elapsed:.1f} s ({total / elapsed:.0f}/s) from {args.threads} threads")
        print(f"HTTP statuses: {statuses}")
        print(f"stored pings: {stats['storedPings']}, stored rejects: {stats['storedRejects']}, server alive: {alive}")
        ok = (stats["storedPings"] == total - expected_malformed and stats["storedRejects"] == expected_malformed and alive)
        print("OK" if ok else "FAILED")
        sys.exit(0 if ok else 1)
    finally:
        server.terminate(); server.wait(timeout=10)

if __name__ == "__main__":
    main()
