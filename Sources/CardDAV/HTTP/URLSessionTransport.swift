import Dispatch
import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The transport over Foundation's URLSession (FoundationNetworking on Linux): one request at a time per call,
/// no cookies, no cache, no stored credentials, and no redirect followed behind the client's back (the client
/// decides, so a password never follows a redirect to another host or to plain http).
public final class URLSessionTransport: HTTPTransport, @unchecked Sendable {
    private let session: URLSession
    private let policy = SessionPolicy()

    /// A transport whose requests give up after `timeout` seconds without progress.
    public init(timeout: TimeInterval = 120) {
        let configuration = URLSessionConfiguration.ephemeral
        configuration.timeoutIntervalForRequest = timeout
        configuration.httpCookieStorage = nil
        configuration.httpShouldSetCookies = false
        configuration.urlCache = nil
        configuration.urlCredentialStorage = nil
        configuration.requestCachePolicy = .reloadIgnoringLocalCacheData
        configuration.httpMaximumConnectionsPerHost = 4
        session = URLSession(configuration: configuration, delegate: policy, delegateQueue: nil)
    }

    deinit { session.finishTasksAndInvalidate() }

    public func send(_ request: HTTPRequest) throws -> HTTPResponse {
        var urlRequest = URLRequest(url: request.url)
        urlRequest.httpMethod = request.method
        urlRequest.httpShouldHandleCookies = false
        for (name, value) in request.headers { urlRequest.setValue(value, forHTTPHeaderField: name) }
        if !request.body.isEmpty { urlRequest.httpBody = Data(request.body) }
        let outcome = Outcome()
        let done = DispatchSemaphore(value: 0)
        let task = session.dataTask(with: urlRequest) { data, response, error in
            outcome.set(data: data, response: response, error: error)
            done.signal()
        }
        task.resume()
        done.wait()
        let (data, response, error) = outcome.get()
        if policy.tookChallenge(task.taskIdentifier) {
            // The server asked for credentials (or refused the ones sent): the task was cancelled at the
            // challenge, since FoundationNetworking never finishes a task whose challenge it handles itself.
            return HTTPResponse(status: 401)
        }
        guard let http = response as? HTTPURLResponse else {
            let reason = error.map(Self.describe) ?? "no HTTP response"
            throw CardDAVError(.unreachable, "\(request.url.redactedDescription): \(reason)")
        }
        var headers: [String: String] = [:]
        for (key, value) in http.allHeaderFields {
            if let key = key as? String, let value = value as? String { headers[key] = value }
        }
        return HTTPResponse(status: http.statusCode, headers: headers, body: data.map { [UInt8]($0) } ?? [])
    }

    /// A network error as a person reads it.
    private static func describe(_ error: Error) -> String {
        let nsError = error as NSError
        if nsError.domain == NSURLErrorDomain {
            switch nsError.code {
            case NSURLErrorTimedOut: return "the server did not answer in time"
            case NSURLErrorCannotConnectToHost: return "the connection was refused"
            case NSURLErrorCannotFindHost, NSURLErrorDNSLookupFailed: return "no such host"
            case NSURLErrorNotConnectedToInternet: return "not connected to a network"
            case NSURLErrorServerCertificateUntrusted, NSURLErrorServerCertificateHasBadDate,
                NSURLErrorServerCertificateHasUnknownRoot, NSURLErrorServerCertificateNotYetValid,
                NSURLErrorSecureConnectionFailed:
                return "the secure connection failed (the server's certificate is not trusted)"
            default: break
            }
        }
        return nsError.localizedDescription
    }

    /// The result of one task, handed from URLSession's queue to the waiting caller.
    private final class Outcome: @unchecked Sendable {
        private let lock = NSLock()
        private var data: Data?
        private var response: URLResponse?
        private var error: Error?

        func set(data: Data?, response: URLResponse?, error: Error?) {
            lock.lock()
            defer { lock.unlock() }
            (self.data, self.response, self.error) = (data, response, error)
        }

        func get() -> (Data?, URLResponse?, Error?) {
            lock.lock()
            defer { lock.unlock() }
            return (data, response, error)
        }
    }
}

/// Hands every redirect and authentication challenge back to the client as a plain response.
private final class SessionPolicy: NSObject, URLSessionTaskDelegate, @unchecked Sendable {
    private let lock = NSLock()
    private var challenged: Set<Int> = []

    /// Whether the task met a password challenge; forgets it.
    func tookChallenge(_ task: Int) -> Bool {
        lock.lock()
        defer { lock.unlock() }
        return challenged.remove(task) != nil
    }

    func urlSession(
        _ session: URLSession, task: URLSessionTask, willPerformHTTPRedirection response: HTTPURLResponse,
        newRequest request: URLRequest, completionHandler: @escaping (URLRequest?) -> Void
    ) {
        completionHandler(nil)
    }

    func urlSession(
        _ session: URLSession, task: URLSessionTask, didReceive challenge: URLAuthenticationChallenge,
        completionHandler: @escaping (URLSession.AuthChallengeDisposition, URLCredential?) -> Void
    ) {
        #if canImport(FoundationNetworking)
        let isPassword = true
        #else
        let isPassword = challenge.protectionSpace.authenticationMethod != NSURLAuthenticationMethodServerTrust
        #endif
        guard isPassword else {
            completionHandler(.performDefaultHandling, nil)
            return
        }
        // Credentials go only in the Authorization header the client sets; a challenge means they were
        // missing or wrong, which the client reports as a 401.
        lock.lock()
        challenged.insert(task.taskIdentifier)
        lock.unlock()
        completionHandler(.cancelAuthenticationChallenge, nil)
    }
}
