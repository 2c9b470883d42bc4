import CCurl
import CPoolSizeCurl
import PoolSizeKit
import PoolSizeModel

/// One libcurl easy handle set up for the request, and the buffers its callbacks fill.
/// libcurl keeps the handle's connection open after a request and reuses it for the next
/// (its per-handle connection cache), so the worker holding the handle makes no new
/// connection. A handle is used by one thread at a time (`ConnectionFreeList` hands it out); it may
/// move between threads between requests, which libcurl allows.
final class CurlEasy: PooledConnection, @unchecked Sendable {
    let request: CurlRequest
    private var handle: UnsafeMutableRawPointer?
    private let answer: UnsafeMutablePointer<poolsize_curl_answer>

    /// A handle for `request`; nothing is sent or connected yet.
    init(request: CurlRequest) throws(PoolSizeError) {
        guard let handle = curl_easy_init() else {
            throw .measurementFailed("libcurl could not make a handle (curl_easy_init failed: out of memory?)")
        }
        let answer = UnsafeMutablePointer<poolsize_curl_answer>.allocate(capacity: 1)
        do throws(PoolSizeError) {
            let attached = poolsize_curl_attach(handle, answer, request.capturedHeader)
            guard attached == CURLE_OK else {
                throw .measurementFailed(
                    "libcurl refused the answer callbacks (\(String(cString: curl_easy_strerror(attached))))")
            }
            try request.configure(handle)
        } catch {
            curl_easy_cleanup(handle)
            answer.deallocate()
            throw error
        }
        self.request = request
        self.handle = handle
        self.answer = answer
    }

    deinit {
        close()
        answer.deallocate()
    }

    /// Until closed: libcurl reconnects a handle whose connection broke on its next request.
    var isUsable: Bool { handle != nil }

    /// Closes the handle's connection and frees it; a later `perform` fails. Idempotent.
    func close() {
        if let handle { curl_easy_cleanup(handle) }
        handle = nil
    }

    /// Makes the request once, blocking the calling thread in the kernel until it is answered,
    /// fails or times out: libcurl's easy interface does every step on the caller's thread,
    /// so this thread's CPU clock holds the client's whole cost.
    func perform() -> CURLcode {
        guard let handle else { return CURLE_FAILED_INIT }
        poolsize_curl_answer_reset(answer)
        return curl_easy_perform(handle)
    }

    /// Closes the connection after each request instead of keeping it: for a caller whose
    /// kept-alive connection would hold one of the server's workers between its requests.
    func forbidReuse() throws(PoolSizeError) {
        guard let handle else { return }
        let code = poolsize_curl_setopt_long(handle, CURLOPT_FORBID_REUSE, 1)
        guard code == CURLE_OK else {
            throw .measurementFailed(
                "libcurl refused CURLOPT_FORBID_REUSE (\(String(cString: curl_easy_strerror(code))))")
        }
    }

    /// The libcurl handle itself, for a multi handle to drive (`HTTPLoadDriver`); nil after
    /// `close()`. Whoever adds it to a multi handle removes it before `close()`.
    var multiHandle: UnsafeMutableRawPointer? { handle }

    /// Empties the answer's buffers before the handle's next transfer in a multi handle, as
    /// `perform` does before its own.
    func resetAnswer() {
        poolsize_curl_answer_reset(answer)
    }

    /// The last answer's status code; 0 when none came.
    var status: Int {
        var code = 0
        guard let handle, poolsize_curl_getinfo_long(handle, CURLINFO_RESPONSE_CODE, &code) == CURLE_OK else {
            return 0
        }
        return code
    }

    /// The last answer's reason phrase ("Service Unavailable"), empty when it had none.
    var reason: String {
        withUnsafePointer(to: &answer.pointee.reason) {
            String(cString: UnsafeRawPointer($0).assumingMemoryBound(to: CChar.self))
        }
    }

    /// The last answer's value of `request.capturedHeader`, nil when it had none.
    var capturedHeader: String? {
        guard answer.pointee.captured.0 != 0 else { return nil }
        return withUnsafePointer(to: &answer.pointee.captured) {
            String(cString: UnsafeRawPointer($0).assumingMemoryBound(to: CChar.self))
        }
    }

    /// The first line of a failed answer's body, as its server said why (a pool that timed
    /// out, a database that refused a connection): ` ("database: too many clients")`, at most
    /// 120 characters; empty when the body says nothing the status line does not, or is markup
    /// (an HTML error page's first line is its `<html>`).
    var saying: String {
        guard !(200..<300).contains(status) else { return "" }
        let line = bodyStart.split(whereSeparator: \.isNewline).first.map(String.init) ?? ""
        let text = HTTPSource.printable(line).trimmingCharacters(in: .whitespaces)
        let said = [String(status), reason, "\(status) \(reason)"].map { $0.lowercased() }
        guard !text.isEmpty, !text.hasPrefix("<"), !said.contains(text.lowercased()) else { return "" }
        return " (\"\(text.count > 120 ? String(text.prefix(119)) + "…" : text)\")"
    }

    /// Whether the last answer's headers ended with their blank line; false when the connection
    /// closed inside them, which libcurl can report as a success with the status it read.
    var headersEnded: Bool { answer.pointee.headers_ended != 0 }

    /// Body bytes the last answer carried (counted; only the first few are kept).
    var bodyBytes: UInt64 { UInt64(answer.pointee.body_bytes) }

    /// The last answer's first body bytes (at most 159), as text; a character cut at the end
    /// or not UTF-8 becomes U+FFFD.
    var bodyStart: String {
        let kept = Int(answer.pointee.body_kept)
        return withUnsafeBytes(of: &answer.pointee.body_start) {
            String(decoding: $0.prefix(kept), as: UTF8.self)
        }
    }

    /// libcurl's message about the last failure, empty when it wrote none.
    var errorText: String {
        withUnsafePointer(to: &answer.pointee.error) {
            String(cString: UnsafeRawPointer($0).assumingMemoryBound(to: CChar.self))
        }
    }

    /// The errno of the last failed connect or socket call, 0 when none.
    var osErrno: Int32 {
        var value = 0
        guard let handle, poolsize_curl_getinfo_long(handle, CURLINFO_OS_ERRNO, &value) == CURLE_OK else { return 0 }
        return Int32(truncatingIfNeeded: value)
    }

    /// Where the last answer redirects to (its Location, made absolute), nil when nowhere.
    var redirectURL: String? {
        var value: UnsafePointer<CChar>? = nil
        guard let handle, poolsize_curl_getinfo_string(handle, CURLINFO_REDIRECT_URL, &value) == CURLE_OK, let value
        else { return nil }
        return String(cString: value)
    }
}
