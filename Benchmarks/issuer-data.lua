-- wrk script: POST issuer_data for every tag of a file in turn, each wrk thread starting at its own place.
-- Usage: wrk … -s Benchmarks/issuer-data.lua URL -- TAGS_FILE "Basic …"
local counter = 0
function setup(thread)
    counter = counter + 1
    thread:set("offset", counter * 7919)
end

function init(args)
    tags = {}
    for line in io.lines(args[1]) do tags[#tags + 1] = line end
    headers = { ["Content-Type"] = "application/json", ["Authorization"] = args[2] }
    index = offset or 0
end

function request()
    index = index + 1
    return wrk.format("POST", "/api/v2/in_app_provisioning/issuer_data", headers,
        '{"tag_id":"' .. tags[index % #tags + 1] .. '"}')
end
