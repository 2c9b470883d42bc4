import Foundation
import NIOCore
import NIOHTTP1
import PoolSizeKit

/// One connection of `LoadServer`: burns the request's CPU on this event-loop thread, then
/// answers after the delay; with `workers`, hands both to a worker thread, which holds itself
/// through the delay, and answers when it is done. `/status/NNN` answers with status NNN (for tests and demos of
/// error handling), `/basic-auth/USER/PASSWORD` 401 unless the request carries those
/// credentials (as httpbin's path of that name: a check that a client sends a URL's
/// user:password); every other path answers 200 `ok`.
final class LoadHandler: ChannelInboundHandler {
    typealias InboundIn = HTTPServerRequestPart
    typealias OutboundOut = HTTPServerResponsePart

    let behaviour: LoadServer.Behaviour
    let header: String
    let counters: ServerCounters
    let burner: CPUBurner
    /// The thread-per-request pool, or nil to serve on the event loop.
    let workers: RequestWorkers?
    var random: SeededGenerator
    private var head: HTTPRequestHead?

    init(
        behaviour: LoadServer.Behaviour, header: String, counters: ServerCounters, burner: CPUBurner,
        workers: RequestWorkers? = nil, seed: UInt64
    ) {
        self.behaviour = behaviour
        self.header = header
        self.counters = counters
        self.burner = burner
        self.workers = workers
        self.random = SeededGenerator(seed: seed)
    }

    func channelActive(context: ChannelHandlerContext) {
        counters.open.wrappingAdd(1, ordering: .relaxed)
        counters.accepted.wrappingAdd(1, ordering: .relaxed)
        context.fireChannelActive()
    }

    func channelInactive(context: ChannelHandlerContext) {
        counters.open.wrappingSubtract(1, ordering: .relaxed)
        context.fireChannelInactive()
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        switch unwrapInboundIn(data) {
        case let .head(request):
            head = request
        case .body:
            break
        case .end:
            guard let request = head else { return }
            head = nil
            let outstanding = counters.inFlight.wrappingAdd(1, ordering: .relaxed).newValue
            counters.mostInFlight.max(outstanding, ordering: .relaxed)
            let status = Self.status(for: request)
            // Both drawn here, in this order, whoever serves: the same seed gives the same costs.
            let cpu = draw(behaviour.cpuMicroseconds)
            let delay = draw(behaviour.delayMicroseconds)
            let keepAlive = request.isKeepAlive
            let version = request.version
            let respond = { [counters, header] in
                counters.inFlight.wrappingSubtract(1, ordering: .relaxed)
                // Counted before the answer leaves, so a client that has its answer sees it counted.
                if status.code < 400 {
                    counters.answered.wrappingAdd(1, ordering: .relaxed)
                } else {
                    counters.failed.wrappingAdd(1, ordering: .relaxed)
                }
                var headers = HTTPHeaders()
                // 204 and 304 answers have no body (RFC 9110 §15.3.5, §15.4.5): bytes after
                // one would be read as the start of the next answer on the connection.
                let body =
                    status.code == 204 || status.code == 304
                    ? nil : status.code < 400 ? "ok\n" : "\(status.code) \(status.reasonPhrase)\n"
                if let body {
                    headers.add(name: "Content-Type", value: "text/plain")
                    headers.add(name: "Content-Length", value: String(body.utf8.count))
                }
                headers.add(name: LoadServer.headerName, value: header)
                if !keepAlive { headers.add(name: "Connection", value: "close") }
                context.write(
                    self.wrapOutboundOut(.head(HTTPResponseHead(version: version, status: status, headers: headers))),
                    promise: nil)
                if let body {
                    context.write(
                        self.wrapOutboundOut(.body(.byteBuffer(context.channel.allocator.buffer(string: body)))),
                        promise: nil)
                }
                let done = context.writeAndFlush(self.wrapOutboundOut(.end(nil)))
                if !keepAlive { done.assumeIsolated().whenComplete { _ in context.close(promise: nil) } }
            }
            if let workers {
                let loop = context.eventLoop
                let answer = NIOLoopBound(respond, eventLoop: loop)
                workers.serve(cpuMicroseconds: cpu, delayMicroseconds: delay) { loop.execute { answer.value() } }
                return
            }
            Self.burn(microseconds: cpu, burner: burner, counters: counters)
            if delay > 0 {
                context.eventLoop.assumeIsolated().scheduleTask(in: .nanoseconds(Int64(delay * 1_000))) { respond() }
            } else {
                respond()
            }
        }
    }

    /// Burns `microseconds` of the calling thread's CPU, in slices of 10 ms so a server told to
    /// stop does not first burn through seconds of queued requests.
    static func burn(microseconds: Double, burner: CPUBurner, counters: ServerCounters) {
        guard microseconds > 0 else { return }
        var used = burner.clocks.threadCPUNanoseconds()
        let target = used &+ UInt64(microseconds * 1_000)
        while used + 1_000 <= target && !counters.stopping.load(ordering: .relaxed) {
            used = burner.burn(untilThreadCPU: min(target, used + 10_000_000), now: used)
        }
    }

    /// A request that does not parse ends its connection.
    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        counters.failed.wrappingAdd(1, ordering: .relaxed)
        context.close(promise: nil)
    }

    /// The mean itself, or an exponential draw around it.
    func draw(_ mean: Double) -> Double {
        guard mean > 0, behaviour.exponential else { return mean }
        let u = Double(random.next() >> 11) / Double(1 << 53)
        return -mean * log(1 - u)
    }

    /// The request's answer: `status(for: uri)`, or 401 for `/basic-auth/USER/PASSWORD` without
    /// `Authorization: Basic` and base64 of `USER:PASSWORD` (RFC 7617).
    static func status(for request: HTTPRequestHead) -> HTTPResponseStatus {
        let path = request.uri.split(separator: "?", maxSplits: 1).first.map(String.init) ?? request.uri
        let parts = path.split(separator: "/", omittingEmptySubsequences: false)
        if parts.count == 4, parts[1] == "basic-auth" {
            let expected = "Basic " + Data("\(parts[2]):\(parts[3])".utf8).base64EncodedString()
            return request.headers["Authorization"].contains(expected) ? .ok : .unauthorized
        }
        return status(for: request.uri)
    }

    /// `/status/503` → 503; anything else → 200.
    static func status(for uri: String) -> HTTPResponseStatus {
        let path = uri.split(separator: "?", maxSplits: 1).first.map(String.init) ?? uri
        if path.hasPrefix("/status/"), let code = Int(path.dropFirst("/status/".count)), (200...599).contains(code) {
            return HTTPResponseStatus(statusCode: code)
        }
        return .ok
    }
}
