import Testing
@testable import PoolSizeObserve

/// Socket tables: hex addresses in host byte order, TCP states, unix paths.
struct NetTableTests {
    static let tcp = """
          sl  local_address rem_address   st tx_queue rx_queue tr tm->when retrnsmt   uid  timeout inode
           0: 0100007F:1F90 00000000:0000 0A 00000000:00000000 00:00000000 00000000     0        0 1593 1 0000000026895acd 100 0 0 10 0
           1: 0100007F:C350 0100007F:1F90 01 00000000:00000000 00:00000000 00000000  1000        0 4242 1 0000000026895acd 20 4 30 10 -1
           2: 0100007F:C351 0100007F:1F91 02 00000000:00000000 00:00000000 00000000  1000        0 4243 1 0000000026895acd 20 4 30 10 -1

        """

    @Test func ipv4ListeningAndConnected() throws {
        let table = NetTable.inet(Self.tcp, table: "tcp")
        #expect(table[1593] == SocketEndpoint(table: "tcp", local: "127.0.0.1:8080", remote: nil, state: "LISTEN"))
        #expect(
            table[4242]
                == SocketEndpoint(
                    table: "tcp", local: "127.0.0.1:50000", remote: "127.0.0.1:8080", state: "ESTABLISHED"))
        #expect(table[4243]?.state == "SYN_SENT")
        #expect(table[1593]?.peerLabel == "tcp listening on 127.0.0.1:8080")
        #expect(table[4242]?.peerLabel == "tcp 127.0.0.1:8080")
    }

    @Test func ipv6LoopbackAndMappedAddresses() {
        let text = """
              sl  local_address                         remote_address                        st tx_queue rx_queue tr tm->when retrnsmt   uid  timeout inode
               0: 00000000000000000000000001000000:01BB 00000000000000000000000001000000:D431 01 00000000:00000000 00:00000000 00000000     0        0 77 1
               1: 0000000000000000FFFF00000100007F:01BB 0000000000000000FFFF00000100007F:D432 01 00000000:00000000 00:00000000 00000000     0        0 78 1
               2: 000080FE00000000FF005452F60012FE:0016 00000000000000000000000000000000:0000 0A 00000000:00000000 00:00000000 00000000     0        0 79 1

            """
        let table = NetTable.inet(text, table: "tcp6")
        #expect(table[77]?.local == "[::1]:443")
        #expect(table[77]?.remote == "[::1]:54321")
        #expect(table[78]?.local == "127.0.0.1:443", "a v4-mapped address reads as IPv4")
        #expect(table[79]?.local == "[fe80::5254:ff:fe12:f6]:22")
        #expect(table[79]?.remote == nil)
    }

    @Test func unixSocketsWithAndWithoutPaths() {
        let text = """
            Num       RefCount Protocol Flags    Type St Inode Path
            000000007b1eec64: 00000003 00000000 00000000 0001 03  1589 /run/postgresql/.s.PGSQL.5432
            00000000cb874a2e: 00000003 00000000 00000000 0001 03  1590

            """
        let table = NetTable.unix(text)
        #expect(table[1589]?.peerLabel == "unix /run/postgresql/.s.PGSQL.5432")
        #expect(table[1590]?.peerLabel == "unix (unnamed)")
    }

    /// A connection a listening socket accepted is a client's; one to a port nobody here listens
    /// on was opened outward. PostgreSQL on 127.0.0.1:5432 (0x1538) with one accepted connection
    /// and pgbench's end of it, a wildcard listener on 8080, and unix sockets likewise.
    @Test func inboundConnectionsAreTheOnesAListenerAccepted() {
        let tcp = """
              sl  local_address rem_address   st tx_queue rx_queue tr tm->when retrnsmt   uid  timeout inode
               0: 0100007F:1538 00000000:0000 0A 00000000:00000000 00:00000000 00000000   101        0 10 1
               1: 0100007F:1538 0100007F:9C40 01 00000000:00000000 00:00000000 00000000   101        0 11 1
               2: 0100007F:9C40 0100007F:1538 01 00000000:00000000 00:00000000 00000000     0        0 12 1
               3: 00000000:1F90 00000000:0000 0A 00000000:00000000 00:00000000 00000000     0        0 13 1
               4: 0A00000A:1F90 0B00000A:D431 01 00000000:00000000 00:00000000 00000000     0        0 14 1

            """
        let unix = """
            Num       RefCount Protocol Flags    Type St Inode Path
            0000000000000001: 00000002 00000000 00010000 0001 01 20 /tmp/.s.PGSQL.5432
            0000000000000002: 00000003 00000000 00000000 0001 03 21 /tmp/.s.PGSQL.5432
            0000000000000003: 00000003 00000000 00000000 0001 03 22

            """
        var tables = NetTable.inet(tcp, table: "tcp").merging(NetTable.unix(unix)) { a, _ in a }
        NetTable.markInbound(&tables)
        #expect(tables[10]?.state == "LISTEN" && tables[10]?.inbound == nil)
        #expect(tables[11]?.inbound == true, "the backend's end: local 5432, where the postmaster listens")
        #expect(tables[12]?.inbound == false, "pgbench's end: a port nobody listens on")
        #expect(tables[14]?.inbound == true, "accepted through a wildcard listener")
        #expect(tables[20]?.state == "LISTEN")
        #expect(tables[20]?.peerLabel == "unix listening on /tmp/.s.PGSQL.5432")
        #expect(tables[21]?.state == "CONNECTED" && tables[21]?.inbound == true)
        #expect(tables[22]?.inbound == nil, "an unnamed unix socket: a client's end or a socket pair")
    }
}
