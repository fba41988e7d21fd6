// The HTTP floor for Benchmarks/load-issuer-data.sh and load-pass-fetch.sh: a bare Hummingbird 2 server on the same
// HTTP/1.1 stack as `coffer serve`, answering `POST /api/v2/in_app_provisioning/issuer_data` with a fixed JSON body of
// the size the real endpoint returns, after reading the request body, and `GET /passkit/v1/passes/{type}/{serial}`
// with a fixed body of `pkpass-bytes` (304 when the request has If-Modified-Since). No authentication, database,
// signing or logging: whatever the real server does below this rate is the cost of its work.
//
// Usage: hummingbird-baseline [port] [pkpass-bytes]   (port 0 or none: a free one; prints "listening on
// 127.0.0.1:<port>")
import Foundation
import Hummingbird
import Logging

@main
struct HummingbirdBaseline {
    static func main() async throws {
        let port = CommandLine.arguments.dropFirst().first.flatMap(Int.init) ?? 0
        let pkpassBytes = CommandLine.arguments.dropFirst(2).first.flatMap(Int.init) ?? 4096
        let pkpass = ByteBuffer(bytes: [UInt8](repeating: 0x50, count: max(0, pkpassBytes)))
        // About the size of a real answer: issuer data (~500 bytes of JSON, Base64) and a CMS signature (~1.9 KB DER,
        // Base64), as JSON.
        let body = ByteBuffer(
            string:
                #"{"issuer_data":"\#(String(repeating: "A", count: 700))","signature":"\#(String(repeating: "B", count: 2600))","tag_id":"00000000-0000-0000-0000-000000000000"}"#
        )
        let router = Router()
        router.post("/api/v2/in_app_provisioning/issuer_data") { request, _ -> Response in
            _ = try await request.body.collect(upTo: 64 * 1024)
            return Response(
                status: .ok, headers: [.contentType: "application/json; charset=utf-8"], body: .init(byteBuffer: body))
        }
        router.get("/passkit/v1/passes/:passType/:serial") { request, _ -> Response in
            let lastModified = "Fri, 27 Nov 2026 00:00:00 GMT"
            if request.headers[.ifModifiedSince] != nil {
                return Response(status: .notModified, headers: [.lastModified: lastModified])
            }
            return Response(
                status: .ok,
                headers: [
                    .contentType: "application/vnd.apple.pkpass", .lastModified: lastModified,
                    .cacheControl: "no-store",
                ],
                body: .init(byteBuffer: pkpass))
        }
        var logger = Logger(label: "hummingbird-baseline")
        logger.logLevel = .warning
        let application = Application(
            router: router, configuration: .init(address: .hostname("127.0.0.1", port: port)),
            onServerRunning: { channel in
                // Unbuffered: the load script waits for this line in a file.
                FileHandle.standardOutput.write(
                    Data("listening on 127.0.0.1:\(channel.localAddress?.port ?? 0)\n".utf8))
            }, logger: logger)
        try await application.runService()
    }
}
