-- wrk: POST to BENCH_PATH; with BENCH_DELAY_MS each connection waits that long between
-- requests, which turns wrk's closed loop into a fixed offered rate (connections / delay).
wrk.method = "POST"
wrk.path = os.getenv("BENCH_PATH") or "/"
local d = tonumber(os.getenv("BENCH_DELAY_MS") or "0")
if d > 0 then
  function delay() return d end
end
