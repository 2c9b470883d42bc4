import Foundation
import PoolSizeProcess
import Testing

/// The one /proc reader, on this test process itself (Linux only).
struct ProcReaderTests {
    @Test(.enabled(if: Platform.hasProcThreads)) func readsThisProcess() throws {
        let me = getpid()
        let stat = try #require(ProcReader.stat(me))
        #expect(stat.parent == getppid())
        #expect(stat.session == getsid(0))
        #expect(ProcReader.processes(inSession: getsid(0)).contains(me))
        #expect((ProcReader.ownThreadCount() ?? 0) >= 1)
        #expect((ProcReader.residentBytes(of: "self") ?? 0) > 0)
        #expect(ProcReader.processCPUNanoseconds(me) != nil)
        let threads = try #require(ProcReader.threads(of: me))
        #expect(threads.contains(me))
        #expect(ProcReader.threadCPUNanoseconds(pid: me, tid: me) != nil)
        #expect(ProcReader.switches(pid: me, tid: me) != nil)
        #expect(ProcReader.threadName(me) == stat.comm)
        #expect(ProcReader.machineBusyNanoseconds() != nil)
    }

    @Test(.enabled(if: Platform.hasProcThreads)) func anEndedProcessReadsAsNothing() {
        // Process ids never reach Int32.max: nothing lives there.
        #expect(ProcReader.stat(Int32.max) == nil)
        #expect(ProcReader.threads(of: Int32.max) == nil)
        #expect(ProcReader.processCPUNanoseconds(Int32.max) == nil)
    }
}
