-- wrk script for scripts/bench-people: GET /people?q=TERM, the terms taking turns, each request
-- with a parameter of its own (`n`, which the server ignores) so that no answer comes from the
-- response cache: every request searches the database.
local terms = {}
for term in string.gmatch(os.getenv("BENCH_TERMS") or "ana", "[^,]+") do terms[#terms + 1] = term end
local counter = 0
local thread_tag = tostring(math.random(1, 1000000000))
request = function()
  counter = counter + 1
  local term = terms[(counter % #terms) + 1]
  return wrk.format("GET", "/people?q=" .. term .. "&max=20&n=" .. thread_tag .. "-" .. counter)
end
