-- wrk script: realistic DCR ping URLs (about 900 bytes, the shape of AppMeter's pings) with a
-- unique ping id per request, and a count of 2xx answers per thread (the acknowledged pings).
-- BENCH_MALFORMED=1 sends pings with a broken c27 instead (each answered 400).
--
-- Ids as a fleet sends them: each ping id a UUIDv7 without dashes as the SDK makes it (the time,
-- to the second here, then random bits), each ping in one of 5,000 viewing sessions per thread,
-- created (c61) the second it is sent.
-- Counter ids in one session, as it sent before, let the census's indexes take every row at one
-- place, and made SQLite look half again as fast (docs/performance.md, "What the figures rest on", and its git log).
local threads = {}
local malformed = os.getenv("BENCH_MALFORMED") == "1"

function setup(thread)
  thread:set("id", #threads + 1)
  table.insert(threads, thread)
end

local base = "/cgi-bin/gn?prd=dcr&ci=&asn=Demo%20Channel&fp_id=0a1b2c3d4e5f60718293a4b5c6d7e8f9&fp_cr_tm=1700000000"
  .. "&fp_acc_tm=1700000000&ve_id=bca320c1ed9c8176b2a1d80e8b7c4704791b2e07fa6af1936899d0e886819254"
  .. "&tl=Program%20S3%2C%20EP1&prv=1&c6=vc%2C&cg=ProgramName&c13=asid%2CP12345678-ABCD-4EF0-9123-456789ABCDEF"
  .. "&c32=segA%2CNA&c33=segB%2CChannelName&c34=segC%2CPlayerName&c15=apn%2CBench&sup=1"
  .. "&c9=devid%2C334ad763911a9511e2d1a849c22bcbda94eadf4f7ba15ad6d1cc2a9855e461d5&enc=true"
  .. "&c1=nuid%2C334ad763911a9511e2d1a849c22bcbda94eadf4f7ba15ad6d1cc2a9855e461d5&at=timer&rt=video"
  .. "&c16=sdkv%2Cal.1.0.0&c27=cln%2C" .. (malformed and "abc" or "60") .. "&st=dcr&c36=cref1%2C&c37=cref2%2C&c12=apv%2C1.0"
  .. "&sd=3600&c53=fef%2Cy&c54=oad%2C20171020%2010%3A05%3A00&c57=adldf%2C2&ai=vid345-67483&c3=st%2Cc"
  .. "&adidx=&c64=starttm%2C1700000001&c58=isLive%2Cfalse&c59=sesid%2C"
local rest = "&c63=pipMode%2C&uoo=&c71=ottflg%2C0&c72=otttyp%2C&c44=progen%2C&sttype=&prov="
  .. "&davty=1&c62=sendTime%2C1700000061&rnd=1700000061000&pingid="

local random, format, time = math.random, string.format, os.time
local alphabet = "0123456789abcdefghijklmnopqrstuvwxyz"

function init(args)
  acknowledged = 0
  -- Seeded per thread and start time: two threads with one seed would send the same ids, which
  -- the census would answer as duplicates and census-bench would count as lost.
  math.randomseed(time() * 1000 + id * 7919)
  sessions = {}
  for session = 1, 5000 do
    local characters = {}
    for index = 1, 32 do
      local digit = random(1, 36)
      characters[index] = alphabet:sub(digit, digit)
    end
    sessions[session] = table.concat(characters)
  end
end

function request()
  return wrk.format("GET", base .. sessions[random(1, 5000)] .. "&c61=createtm%2C" .. time() .. rest
    .. format("%012x7%03x%x%03x%04x%04x%04x", time() * 1000, random(0, 4095), random(8, 11), random(0, 4095),
      random(0, 65535), random(0, 65535), random(0, 65535)))
end

function response(status, headers, body)
  if status >= 200 and status < 300 then acknowledged = acknowledged + 1 end
end

function done(summary, latency, requests)
  local total = 0
  for _, thread in ipairs(threads) do total = total + thread:get("acknowledged") end
  io.write(string.format("acknowledged %d\n", total))
end
