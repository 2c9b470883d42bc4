import CCurl
import Foundation
import PoolSizeModel

/// Whether a server a sweep started answers yet: one GET of the sweep's URL (its headers
/// kept, for a server that wants its credentials) through libcurl's easy interface, with a
/// short timeout so a server that accepts and never answers is asked again soon. Ready on a
/// 2xx; anything else is an answer to show if it never becomes ready. Its call is
/// `ServerProcess.waitUntilReady`'s probe.
package final class HTTPReadinessProbe: @unchecked Sendable {
    // @unchecked: the handle is used by one thread at a time (`waitUntilReady` calls in turn).
    private let easy: CurlEasy

    /// A probe of `target`'s URL; `timeoutSeconds` bounds each request, connect included.
    package init(target: HTTPTarget, verification: HTTPVerification = .system, timeoutSeconds: Double = 1)
        throws(PoolSizeError)
    {
        let get = try HTTPTarget(
            url: target.url, headers: target.headers.map { "\($0.name): \($0.value)" },
            secretQuery: target.secretQuery)
        let request = try CurlRequest(
            target: get, timeoutSeconds: timeoutSeconds, verification: verification,
            capturedHeader: LoadServer.headerName)
        easy = try CurlEasy(request: request)
        // A kept-alive probe connection would hold a worker of a thread-per-connection server
        // (one of its size) through the trial.
        try easy.forbidReuse()
    }

    /// One request: ready on a 2xx; else what came back (`HTTP 503 Service Unavailable`) or
    /// why nothing did (`no answer: Couldn't connect to server`).
    package func check() -> (ready: Bool, answer: String) {
        let code = easy.perform()
        guard code == CURLE_OK else {
            let detail = easy.errorText.isEmpty ? String(cString: curl_easy_strerror(code)) : easy.errorText
            return (false, "no answer: \(detail)")
        }
        let status = easy.status
        let answer = easy.reason.isEmpty ? "HTTP \(status)" : "HTTP \(status) \(easy.reason)"
        return ((200...299).contains(status), answer)
    }
}
