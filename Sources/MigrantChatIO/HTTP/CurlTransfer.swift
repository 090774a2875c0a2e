internal import CCurl
import Foundation
import Synchronization

/// One transfer: the request, what came back so far, and the task waiting for it.
///
/// Created by the calling task, then touched only by the engine's I/O thread
/// (curl's callbacks run there) until the continuation is resumed.
final class CurlTransfer: @unchecked Sendable {
  let request: HTTPRequest
  let options: HTTPOptions
  /// Whose connection cache the transfer uses (`CurlEngine.takeLane`).
  let lane: Int
  let cancelled = Atomic<Bool>(false)
  var continuation: CheckedContinuation<Result<HTTPResponse, HTTPFailure>, Never>?
  /// The easy handle while the transfer runs on the multi handle.
  var easy: UnsafeMutableRawPointer?

  var body = Data()
  var headers: [String: String] = [:]
  var tooLarge = false
  /// Requests curl has been let send (see `curlBeforeRequest`).
  var requestsSent = 0
  /// curl was about to send the request again after silence, and was stopped.
  var refusedResend = false

  /// Owned here, freed in deinit: curl reads both until the handle is reset.
  private var headerList: UnsafeMutablePointer<curl_slist>?
  let errorBuffer: UnsafeMutablePointer<CChar>

  init(request: HTTPRequest, options: HTTPOptions, lane: Int = 0) {
    self.request = request
    self.options = options
    self.lane = lane
    errorBuffer = .allocate(capacity: Int(CURL_ERROR_SIZE) + 1)
    errorBuffer.initialize(repeating: 0, count: Int(CURL_ERROR_SIZE) + 1)
  }

  deinit {
    curl_slist_free_all(headerList)
    errorBuffer.deallocate()
  }

  /// Sets every option of `curl` (a handle fresh from init or reset) for this
  /// transfer; the first failing option's code, or nil.
  func configure(_ curl: UnsafeMutableRawPointer) -> CURLcode? {
    for (name, value) in request.headers.sorted(by: { $0.key < $1.key }) {
      // curl_slist_append copies the string; the list is freed in deinit.
      headerList = curl_slist_append(headerList, "\(name): \(value)")
    }
    // No "Expect: 100-continue" round trip before a body.
    if request.method == .post { headerList = curl_slist_append(headerList, "Expect:") }
    // Unretained: the engine holds the transfer while curl may call back with it.
    let context = Unmanaged.passUnretained(self).toOpaque()
    var setup: [CURLcode] = [
      mc_curl_setopt_string(curl, CURLOPT_URL, request.url),
      mc_curl_setopt_string(curl, CURLOPT_PROTOCOLS_STR, "http,https"),
      mc_curl_setopt_string(curl, CURLOPT_REDIR_PROTOCOLS_STR, "http,https"),
      mc_curl_setopt_long(curl, CURLOPT_FOLLOWLOCATION, 1),
      mc_curl_setopt_long(curl, CURLOPT_MAXREDIRS, options.maxRedirects),
      // Keep POST on 301 and 302, as for a proxy moving http to https.
      mc_curl_setopt_long(curl, CURLOPT_POSTREDIR, Int(CURL_REDIR_POST_301 | CURL_REDIR_POST_302)),
      mc_curl_setopt_long(curl, CURLOPT_NOSIGNAL, 1),
      // An announced Content-Length over the cap fails before the body is read.
      mc_curl_setopt_off(curl, CURLOPT_MAXFILESIZE_LARGE, curl_off_t(options.maxBodyBytes)),
      mc_curl_setopt_long(curl, CURLOPT_TIMEOUT_MS, Int(options.timeout * 1000)),
      mc_curl_setopt_long(curl, CURLOPT_CONNECTTIMEOUT_MS, Int(min(options.timeout, 10) * 1000)),
      mc_curl_setopt_string(curl, CURLOPT_USERAGENT, "migrant-chat/\(MigrantChatVersion.current)"),
      mc_curl_setopt_string(curl, CURLOPT_ACCEPT_ENCODING, ""),
      mc_curl_setopt_slist(curl, CURLOPT_HTTPHEADER, headerList),
      mc_curl_setopt_write_function(curl, curlWriteBody),
      mc_curl_setopt_pointer(curl, CURLOPT_WRITEDATA, context),
      mc_curl_setopt_header_function(curl, curlWriteHeader),
      mc_curl_setopt_pointer(curl, CURLOPT_HEADERDATA, context),
      mc_curl_setopt_pointer(curl, CURLOPT_ERRORBUFFER, errorBuffer),
      // A proxy's answer to CONNECT is not the server's: not among the headers.
      mc_curl_setopt_long(curl, CURLOPT_SUPPRESS_CONNECT_HEADERS, 1),
    ]
    if options.insecure {
      setup.append(mc_curl_setopt_long(curl, CURLOPT_SSL_VERIFYPEER, 0))
      setup.append(mc_curl_setopt_long(curl, CURLOPT_SSL_VERIFYHOST, 0))
    }
    if request.method == .post {
      // The body goes with the headers, in one send (a read callback made curl
      // send them apart: two segments, and a second wake-up of the server per
      // turn). curl would post it again on a new connection when a kept-alive
      // one closes without answering; the pre-request callback refuses that,
      // so a message is never sent twice. A redirect that keeps the POST may go.
      let body = request.body ?? Data()
      setup.append(mc_curl_setopt_long(curl, CURLOPT_POST, 1))
      setup.append(
        body.withUnsafeBytes { bytes in
          // curl copies the bytes before returning.
          mc_curl_setopt_body(curl, bytes.baseAddress, curl_off_t(bytes.count))
        })
      setup += [
        mc_curl_setopt_prereq_function(curl, curlBeforeRequest),
        mc_curl_setopt_pointer(curl, CURLOPT_PREREQDATA, context),
      ]
    }
    return setup.first(where: { $0 != CURLE_OK })
  }

  /// What the finished transfer on `curl` came to.
  func outcome(_ code: CURLcode, _ curl: UnsafeMutableRawPointer) -> Result<
    HTTPResponse, HTTPFailure
  > {
    if code != CURLE_OK {
      let detail =
        errorBuffer.pointee != 0
        ? String(cString: errorBuffer) : String(cString: curl_easy_strerror(code))
      return .failure(CurlHTTPClient.failure(for: code, detail: detail, transfer: self))
    }
    var status = 0
    guard mc_curl_getinfo_long(curl, CURLINFO_RESPONSE_CODE, &status) == CURLE_OK else {
      return .failure(.other(detail: "no HTTP status"))
    }
    // Request sent -> first byte of the answer: the server's time, not this client's
    // queueing (with several conversations in flight, a task may resume later).
    var sent: curl_off_t = 0
    var firstByte: curl_off_t = 0
    var serverSeconds: Double?
    if mc_curl_getinfo_off_t(curl, CURLINFO_PRETRANSFER_TIME_T, &sent) == CURLE_OK,
      mc_curl_getinfo_off_t(curl, CURLINFO_STARTTRANSFER_TIME_T, &firstByte) == CURLE_OK,
      firstByte >= sent
    {
      serverSeconds = Double(firstByte - sent) / 1_000_000
    }
    return .success(
      HTTPResponse(status: status, headers: headers, body: body, serverSeconds: serverSeconds))
  }
}

private let curlWriteBody: mc_curl_write_callback = { data, size, count, context in
  guard let data, let context else { return 0 }
  let transfer = Unmanaged<CurlTransfer>.fromOpaque(context).takeUnretainedValue()
  let length = size * count
  if transfer.body.count + length > transfer.options.maxBodyBytes {
    transfer.tooLarge = true
    return 0  // makes curl stop with CURLE_WRITE_ERROR
  }
  data.withMemoryRebound(to: UInt8.self, capacity: length) { bytes in
    transfer.body.append(bytes, count: length)
  }
  return length
}

private let curlWriteHeader: mc_curl_write_callback = { data, size, count, context in
  guard let data, let context else { return 0 }
  let transfer = Unmanaged<CurlTransfer>.fromOpaque(context).takeUnretainedValue()
  let length = size * count
  // Parsed as bytes: a String and Foundation's trimming per header line cost
  // a noticeable share of a turn.
  let line = UnsafeBufferPointer(
    start: UnsafeRawPointer(data).assumingMemoryBound(to: UInt8.self), count: length)
  if line.starts(with: "HTTP/".utf8) {
    transfer.headers = [:]  // a new response after a redirect
  } else if let colon = line.firstIndex(of: UInt8(ascii: ":")) {
    func isSpace(_ byte: UInt8) -> Bool {
      byte == 0x20 || byte == 0x09 || byte == 0x0D || byte == 0x0A
    }
    let name = line[..<colon].drop(while: isSpace).reversed().drop(while: isSpace).reversed()
    var value = line[(colon + 1)...].drop(while: isSpace)
    while let last = value.last, isSpace(last) { value = value.dropLast() }
    let lowered = name.map { (0x41...0x5A).contains($0) ? $0 + 0x20 : $0 }
    transfer.headers[String(decoding: lowered, as: UTF8.self)] = String(
      decoding: value, as: UTF8.self)
  }
  return length
}

/// A request may go out the first time, and again only for a redirect curl
/// followed (one that keeps the POST); never to re-send after silence. curl's
/// count of redirects followed is the test: a retry on a new connection, or a
/// proxy's answer to CONNECT on the way, does not move it.
private let curlBeforeRequest: mc_curl_prereq_callback = { context, _, _, _, _ in
  guard let context else { return CURL_PREREQFUNC_ABORT }
  let transfer = Unmanaged<CurlTransfer>.fromOpaque(context).takeUnretainedValue()
  var redirects = 0
  guard let easy = transfer.easy,
    mc_curl_getinfo_long(easy, CURLINFO_REDIRECT_COUNT, &redirects) == CURLE_OK,
    transfer.requestsSent <= redirects
  else {
    transfer.refusedResend = true
    return CURL_PREREQFUNC_ABORT
  }
  transfer.requestsSent += 1
  return CURL_PREREQFUNC_OK
}
