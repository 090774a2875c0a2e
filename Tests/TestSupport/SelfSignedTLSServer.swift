import Foundation

/// An HTTPS chatbot with a fresh self-signed certificate on a loopback port.
///
/// openssl makes the certificate; Python's http.server and ssl serve it and
/// answer every POST with `[{"text": "secure hello"}]`.
public final class SelfSignedTLSServer: Sendable {
  public let port: Int
  private let process: Process
  private let directory: TemporaryDirectory

  public var baseURL: String { "https://127.0.0.1:\(port)" }

  public struct Unavailable: Error, CustomStringConvertible {
    public var description: String
  }

  public init() throws {
    directory = TemporaryDirectory()
    let (certificate, key) = try Self.makeCertificate(in: directory.path)
    port = unusedLoopbackPort()
    process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    process.arguments = ["python3", "-c", Self.script, String(port), certificate, key]
    process.standardInput = FileHandle.nullDevice
    process.standardOutput = FileHandle.nullDevice
    process.standardError = FileHandle.nullDevice
    try process.run()
    guard waitForPort(port, seconds: hangGuard) else {
      kill(process.processIdentifier, SIGKILL)
      throw Unavailable(description: "the HTTPS test server did not start")
    }
  }

  /// A fresh self-signed certificate for localhost and its key, made by openssl
  /// in `directory`: (cert.pem, key.pem) paths.
  public static func makeCertificate(
    in directory: String
  ) throws -> (certificate: String, key: String) {
    let key = directory + "/key.pem"
    let certificate = directory + "/cert.pem"
    let generate = try ProcessRunner.run(
      "/usr/bin/openssl",
      [
        "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", key, "-out", certificate,
        "-days", "1", "-subj", "/CN=localhost",
      ], environment: ["PATH": "/usr/bin:/bin"])
    guard generate.status == 0 else { throw Unavailable(description: generate.stderr) }
    return (certificate, key)
  }

  private static let script = """
    import http.server, ssl, sys
    class Bot(http.server.BaseHTTPRequestHandler):
        def log_message(self, *args): pass
        def do_POST(self):
            self.rfile.read(int(self.headers.get('Content-Length', 0)))
            body = b'[{"text": "secure hello"}]'
            self.send_response(200)
            self.send_header('Content-Type', 'application/json')
            self.send_header('Content-Length', str(len(body)))
            self.end_headers()
            self.wfile.write(body)
    server = http.server.ThreadingHTTPServer(('127.0.0.1', int(sys.argv[1])), Bot)
    context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    context.load_cert_chain(sys.argv[2], sys.argv[3])
    server.socket = context.wrap_socket(server.socket, server_side=True)
    server.serve_forever()
    """

  /// SIGKILL: the test runner may pass SIGTERM down as ignored.
  public func stop() {
    if process.isRunning { kill(process.processIdentifier, SIGKILL) }
    process.waitUntilExit()
  }

  deinit { stop() }
}

/// Whether something accepts TCP connections on 127.0.0.1:`port` within `seconds`.
public func waitForPort(_ port: Int, seconds: Double) -> Bool {
  let deadline = Date().addingTimeInterval(seconds)
  while Date() < deadline {
    let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_port = in_port_t(UInt16(port).bigEndian)
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
    let connected = withUnsafePointer(to: &address) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
        connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
      }
    }
    close(descriptor)
    if connected == 0 { return true }
    Thread.sleep(forTimeInterval: 0.05)
  }
  return false
}
