import Foundation
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A real CardDAV server for tests: Radicale (`pip install radicale`) on a free loopback port, with its own
/// temporary storage folder, htpasswd users and log, stopped and removed by `stop()`.
public final class RadicaleServer: @unchecked Sendable {
    /// Whether Radicale can be started here (`python3 -m radicale` imports).
    public static let isAvailable: Bool = {
        guard let python = python else { return false }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: python)
        process.arguments = ["-c", "import radicale"]
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        guard (try? process.run()) != nil else { return false }
        process.waitUntilExit()
        return process.terminationStatus == 0
    }()

    /// Why Radicale tests are skipped, for `.enabled(if:)`.
    public static let skipReason: Comment = "Radicale is not installed (pip install radicale); CardDAV tests skipped"

    /// The python3 on PATH.
    static let python: String? = {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        for directory in path.split(separator: ":") {
            let candidate = "\(directory)/python3"
            if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
        }
        return nil
    }()

    /// The server's root URL (`http://127.0.0.1:PORT/`).
    public let baseURL: URL
    /// The temporary folder holding storage, users and log.
    public let folder: URL
    /// The users and their passwords.
    public let users: [String: String]
    private let process: Process
    private let log: URL

    /// Starts a server with `users`; `maxContentLength` bounds a request body (a larger PUT gets 413);
    /// `rights` is a Radicale rights file (from_file), when given.
    public init(
        users: [String: String] = ["alice": "secret"], maxContentLength: Int? = nil, rights: String? = nil
    ) throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("radicale-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        self.users = users
        let htpasswd = folder.appendingPathComponent("users")
        try users.map { "\($0.key):\($0.value)\n" }.joined().write(to: htpasswd, atomically: true, encoding: .utf8)
        log = folder.appendingPathComponent("radicale.log")
        FileManager.default.createFile(atPath: log.path, contents: nil)
        let port = try Self.freePort()
        baseURL = URL(string: "http://127.0.0.1:\(port)/")!
        var arguments = [
            "-m", "radicale", "--config", "", "--server-hosts", "127.0.0.1:\(port)",
            "--storage-filesystem-folder", folder.appendingPathComponent("storage").path,
            "--auth-type", "htpasswd", "--auth-htpasswd-filename", htpasswd.path,
            "--auth-htpasswd-encryption", "plain", "--auth-delay", "0", "--logging-level", "info",
        ]
        if let maxContentLength { arguments += ["--server-max-content-length", "\(maxContentLength)"] }
        if let rights {
            let file = folder.appendingPathComponent("rights")
            try rights.write(to: file, atomically: true, encoding: .utf8)
            arguments += ["--rights-type", "from_file", "--rights-file", file.path]
        }
        process = Process()
        process.executableURL = URL(fileURLWithPath: Self.python ?? "/usr/bin/python3")
        process.arguments = arguments
        let handle = try FileHandle(forWritingTo: log)
        process.standardOutput = handle
        process.standardError = handle
        try process.run()
        try waitUntilListening(port: port)
    }

    deinit { stop() }

    /// Stops the server and removes its folder.
    public func stop() {
        if process.isRunning {
            // SIGKILL: a process started from a test thread inherits its blocked signals, SIGTERM included.
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
        }
        try? FileManager.default.removeItem(at: folder)
    }

    /// The server's log so far.
    public var logText: String { (try? String(contentsOf: log, encoding: .utf8)) ?? "" }

    /// How many requests of `method` the server has received so far (from its log).
    public func requests(_ method: String) -> Int {
        logText.components(separatedBy: "\n").filter { $0.contains("] \(method) request for ") }.count
    }

    /// Creates the address book at `path` (`alice/contacts/`) for `user` with an extended MKCOL, and returns
    /// its URL.
    public func makeAddressBook(_ path: String, user: String = "alice") throws -> URL {
        let url = URL(string: path, relativeTo: baseURL)!.absoluteURL
        let body = """
            <?xml version="1.0" encoding="utf-8"?><d:mkcol xmlns:d="DAV:" \
            xmlns:card="urn:ietf:params:xml:ns:carddav"><d:set><d:prop><d:resourcetype><d:collection/>\
            <card:addressbook/></d:resourcetype><d:displayname>Test</d:displayname></d:prop></d:set></d:mkcol>
            """
        let (status, _) = try request("MKCOL", url, user: user, body: Array(body.utf8))
        guard status == 201 else { throw ServerError(message: "MKCOL \(path) gave \(status)") }
        return url
    }

    /// Creates the address book at `path` in the storage folder directly, for one the rights let no one
    /// create through the server (a read-only collection), and returns its URL.
    public func placeAddressBook(_ path: String) throws -> URL {
        let directory = folder.appendingPathComponent("storage/collection-root").appendingPathComponent(path)
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        try #"{"tag": "VADDRESSBOOK", "D:displayname": "Placed"}"#.write(
            to: directory.appendingPathComponent(".Radicale.props"), atomically: true, encoding: .utf8)
        return URL(string: path, relativeTo: baseURL)!.absoluteURL
    }

    /// Sends one request as `user` and returns its status and body: for tests that change the server behind
    /// the client's back.
    public func request(
        _ method: String, _ url: URL, user: String = "alice", body: [UInt8] = [], headers: [String: String] = [:]
    ) throws -> (Int, [UInt8]) {
        var request = URLRequest(url: url)
        request.httpMethod = method
        let token = Data("\(user):\(users[user] ?? "")".utf8).base64EncodedString()
        request.setValue("Basic \(token)", forHTTPHeaderField: "Authorization")
        for (name, value) in headers { request.setValue(value, forHTTPHeaderField: name) }
        if !body.isEmpty { request.httpBody = Data(body) }
        final class Box: @unchecked Sendable {
            var status = 0
            var data = Data()
        }
        let box = Box()
        let done = DispatchSemaphore(value: 0)
        URLSession.shared.dataTask(with: request) { data, response, _ in
            box.status = (response as? HTTPURLResponse)?.statusCode ?? 0
            box.data = data ?? Data()
            done.signal()
        }.resume()
        done.wait()
        return (box.status, [UInt8](box.data))
    }

    /// The `.vcf` files the server stores in the collection at `path`, by name.
    public func storedCards(_ path: String) -> [String: [UInt8]] {
        let directory = folder.appendingPathComponent("storage/collection-root").appendingPathComponent(path)
        var cards: [String: [UInt8]] = [:]
        for name in (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
        where !name.hasPrefix(".") {
            cards[name] = (try? Data(contentsOf: directory.appendingPathComponent(name))).map { [UInt8]($0) }
        }
        return cards
    }

    /// A port nothing listens on now.
    private static func freePort() throws -> Int {
        let socketDescriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard socketDescriptor >= 0 else { throw ServerError(message: "socket() failed") }
        defer { close(socketDescriptor) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = 0
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { pointer in
                bind(socketDescriptor, pointer, length) == 0 && getsockname(socketDescriptor, pointer, &length) == 0
            }
        }
        guard bound else { throw ServerError(message: "bind() failed") }
        return Int(UInt16(bigEndian: address.sin_port))
    }

    private func waitUntilListening(port: Int) throws {
        for _ in 0..<200 {
            guard process.isRunning else { throw ServerError(message: "Radicale exited: \(logText)") }
            let socketDescriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
            var address = sockaddr_in()
            address.sin_family = sa_family_t(AF_INET)
            address.sin_addr.s_addr = inet_addr("127.0.0.1")
            address.sin_port = UInt16(port).bigEndian
            let connected = withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                    connect(socketDescriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0
                }
            }
            close(socketDescriptor)
            if connected { return }
            usleep(50_000)
        }
        throw ServerError(message: "Radicale did not start listening: \(logText)")
    }

    /// A failure to run the server.
    public struct ServerError: Error, CustomStringConvertible {
        public var message: String
        public var description: String { message }
    }
}
