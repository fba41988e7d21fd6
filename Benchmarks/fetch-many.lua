-- wrk script: device fetches spread over many passes, each request a random pass from a file of lines
-- "path token last-modified" (tab-separated), with that pass's ApplePass token; with "304", also its
-- If-Modified-Since, so that every answer is Not Modified.
-- Usage: wrk … -s Benchmarks/fetch-many.lua URL -- PASSES_FILE [200|304]
function init(args)
    passes = {}
    for line in io.lines(args[1]) do
        local path, token, modified = line:match("^([^\t]+)\t([^\t]+)\t([^\t]+)$")
        passes[#passes + 1] = { path = path, token = token, modified = modified }
    end
    conditional = args[2] == "304"
    math.randomseed(os.time() + tonumber(tostring({}):match("0x(%x+)"), 16) % 100000)
end

function request()
    local pass = passes[math.random(#passes)]
    local headers = { ["Authorization"] = "ApplePass " .. pass.token }
    if conditional then headers["If-Modified-Since"] = pass.modified end
    return wrk.format("GET", pass.path, headers)
end
