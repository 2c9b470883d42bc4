import Testing
@testable import PoolSizeObserve

/// Runtimes with an interpreter lock, and PostgreSQL, recognised from the executable, the shared
/// objects mapped or the title (issue 31: a CPython service was never called one).
struct KnownProgramTests {
    static func recognise(_ executable: String?, _ libraries: [String] = [], title: String = "")
        -> KnownProgram?
    {
        KnownProgram.recognise(executable: executable, sharedObjects: libraries, title: title)
    }

    @Test func cpythonFromItsExecutable() {
        #expect(
            Self.recognise("/usr/bin/python3.11")
                == KnownProgram(kind: .cpython, version: "3.11", evidence: "python3.11"))
        #expect(Self.recognise("/usr/bin/python2.7")?.kind == .cpython)
        #expect(Self.recognise("/usr/local/bin/python3")?.version == "3")
        #expect(Self.recognise("/usr/bin/python3.11 (deleted)")?.kind == .cpython, "an executable since replaced")
        #expect(Self.recognise("/usr/bin/python3.11-config") == nil)
        #expect(Self.recognise("/usr/bin/pythonista") == nil)
        #expect(Self.recognise("/usr/bin/python3.11")?.hasInterpreterLock == true)
    }

    @Test func freeThreadedCPythonHasNoLock() {
        let free = Self.recognise("/opt/python/bin/python3.13t")
        #expect(free == KnownProgram(kind: .cpythonFreeThreaded, version: "3.13", evidence: "python3.13t"))
        #expect(free?.hasInterpreterLock == false)
        #expect(Self.recognise("/usr/sbin/uwsgi", ["/opt/lib/libpython3.13t.so.1.0"])?.kind == .cpythonFreeThreaded)
        #expect(
            Self.recognise("/opt/python/bin/python3.13t", title: "python3.13t -X gil=1 app.py")?.kind == .cpython,
            "the lock switched back on")
    }

    @Test func anEmbeddedInterpreterFromItsLibrary() {
        let uwsgi = Self.recognise(
            "/usr/sbin/uwsgi", ["/usr/lib/libc.so.6", "/usr/lib/libpython3.so", "/opt/lib/libpython3.12.so.1.0"])
        #expect(uwsgi == KnownProgram(kind: .cpython, version: "3.12", evidence: "libpython3.12.so.1.0"))
        #expect(
            Self.recognise("/usr/bin/puma", ["/usr/lib/x86_64-linux-gnu/libruby-3.1.so.3.1"])
                == KnownProgram(kind: .ruby, version: "3.1", evidence: "libruby-3.1.so.3.1"))
        #expect(Self.recognise("/usr/local/bin/ruby", ["/usr/local/lib/libruby.so.3.3"])?.kind == .ruby)
        #expect(Self.recognise("/usr/bin/ruby3.2")?.version == "3.2")
    }

    @Test func othersAreNotRecognised() {
        #expect(Self.recognise("/usr/lib/jvm/bin/java", ["/usr/lib/jvm/lib/server/libjvm.so"]) == nil, "JRuby included")
        #expect(Self.recognise("/usr/sbin/nginx") == nil)
        #expect(Self.recognise(nil, title: "nginx: worker process") == nil)
    }

    @Test func postgresAndTheTitleFallback() {
        #expect(Self.recognise("/usr/lib/postgresql/15/bin/postgres")?.kind == .postgres)
        #expect(Self.recognise(nil, title: "postgres: app db 127.0.0.1(5000) idle")?.kind == .postgres)
        #expect(
            Self.recognise(nil, title: "/usr/bin/python3.11 -m gunicorn app:app")
                == KnownProgram(kind: .cpython, version: "3.11", evidence: "title"),
            "another user's process: its executable unreadable, its title not")
    }

    @Test func titlesDropTheirPadding() {
        #expect(
            ProcessFacts.title("postgres: app db 127.0.0.1(5000) idle      \0\0\0")
                == "postgres: app db 127.0.0.1(5000) idle")
        #expect(ProcessFacts.title("/usr/bin/python3\0-m\0http.server\0") == "/usr/bin/python3 -m http.server")
    }
}
