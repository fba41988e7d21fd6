-- wrk script: the device callback, each request with a session of its own from a file (one identifier a line,
-- shared out between the threads) and from an address of its own, as devices call back (in X-Forwarded-For, which
-- the server believes from loopback by default; the callback's budget is per address); a thread whose sessions are
-- used up stops.
-- Usage: wrk -tT … -s Benchmarks/callback.lua URL -- T SESSIONS_FILE
local counter = 0
function setup(thread)
    counter = counter + 1
    thread:set("id", counter)
end

function init(args)
    local threads = tonumber(args[1])
    sessions = {}
    local line_number = 0
    for line in io.lines(args[2]) do
        if line_number % threads == id - 1 then sessions[#sessions + 1] = line end
        line_number = line_number + 1
    end
    index = 0
end

local body = '{"issuerBindingData":"0a0b0c0d","keyHash":"c0ffee00"}'
function request()
    index = index + 1
    if index > #sessions then
        wrk.thread:stop()
        return wrk.format("GET", "/health")
    end
    local headers = {
        ["Content-Type"] = "application/json",
        ["X-Forwarded-For"] = string.format("10.%d.%d.%d", id, math.floor(index / 256) % 256, index % 256),
    }
    return wrk.format("POST", "/api/v2/in_app_provisioning/callback?sessionIdentifier=" .. sessions[index], headers,
        body)
end
