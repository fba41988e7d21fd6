-- wrk script: the device callback, each request with a session of its own from a file (one identifier a line,
-- shared out between the threads); a thread whose sessions are used up stops.
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

local headers = { ["Content-Type"] = "application/json" }
local body = '{"issuerBindingData":"0a0b0c0d","keyHash":"c0ffee00"}'
function request()
    index = index + 1
    if index > #sessions then
        wrk.thread:stop()
        return wrk.format("GET", "/health")
    end
    return wrk.format("POST", "/api/v2/in_app_provisioning/callback?sessionIdentifier=" .. sessions[index], headers,
        body)
end
