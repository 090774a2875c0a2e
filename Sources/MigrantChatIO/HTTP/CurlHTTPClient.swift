internal import CCurl
import Dispatch
import Foundation
import Synchronization

/// HTTP over libcurl, one request at a time, reusing the connection.
///
/// Transfers block a Dispatch thread, never the Swift concurrency pool.
/// Cancelling the calling task aborts the transfer from curl's progress
/// callback. Only http and https are allowed, also for redirects.
public final class CurlHTTPClient: Sendable {
  public let options: HTTPOptions
  /// The easy handle keeps the connection alive between requests; the mutex
  /// serializes its use, since a handle must not be shared by two transfers.
  private let handle: Mutex<HandleBox>

  private struct HandleBox: ~Copyable, @unchecked Sendable {
    let pointer: UnsafeMutableRawPointer?
  }

  public init(options: HTTPOptions) {
    _ = Self.globalInit
    self.options = options
    self.handle = Mutex(HandleBox(pointer: curl_easy_init()))
  }

  deinit {
    handle.withLock { box in
      if let pointer = box.pointer { curl_easy_cleanup(pointer) }
    }
  }

  /// curl_global_init must run once, before any other libcurl call.
  private static let globalInit: CURLcode = curl_global_init(Int(CURL_GLOBAL_DEFAULT))

  public func perform(_ request: HTTPRequest) async throws(HTTPFailure) -> HTTPResponse {
    let transfer = Transfer(limit: options.maxBodyBytes)
    let result: Result<HTTPResponse, HTTPFailure> = await withTaskCancellationHandler {
      await withCheckedContinuation { continuation in
        DispatchQueue.global(qos: .userInitiated).async {
          continuation.resume(returning: self.performBlocking(request, transfer))
        }
      }
    } onCancel: {
      transfer.cancelled.store(true, ordering: .relaxed)
    }
    return try result.get()
  }

  private func performBlocking(
    _ request: HTTPRequest, _ transfer: Transfer
  ) -> Result<HTTPResponse, HTTPFailure> {
    if transfer.cancelled.load(ordering: .relaxed) { return .failure(.cancelled) }
    return handle.withLock { box -> Result<HTTPResponse, HTTPFailure> in
      guard let curl = box.pointer else { return .failure(.other(detail: "libcurl did not start")) }
      curl_easy_reset(curl)
      var headerList: UnsafeMutablePointer<curl_slist>? = nil
      defer { curl_slist_free_all(headerList) }
      for (name, value) in request.headers.sorted(by: { $0.key < $1.key }) {
        // curl_slist_append copies the string; the list is freed above.
        headerList = curl_slist_append(headerList, "\(name): \(value)")
      }
      // No "Expect: 100-continue" round trip before a body.
      if request.method == .post { headerList = curl_slist_append(headerList, "Expect:") }
      // Unmanaged: curl holds the context only during curl_easy_perform below.
      let context = Unmanaged.passUnretained(transfer).toOpaque()
      let errorBuffer = UnsafeMutablePointer<CChar>.allocate(capacity: Int(CURL_ERROR_SIZE) + 1)
      errorBuffer.initialize(repeating: 0, count: Int(CURL_ERROR_SIZE) + 1)
      defer { errorBuffer.deallocate() }

      var setup: [CURLcode] = [
        mc_curl_setopt_string(curl, CURLOPT_URL, request.url),
        mc_curl_setopt_string(curl, CURLOPT_PROTOCOLS_STR, "http,https"),
        mc_curl_setopt_string(curl, CURLOPT_REDIR_PROTOCOLS_STR, "http,https"),
        mc_curl_setopt_long(curl, CURLOPT_FOLLOWLOCATION, 1),
        mc_curl_setopt_long(curl, CURLOPT_MAXREDIRS, options.maxRedirects),
        // Keep POST on 301 and 302, as for a proxy moving http to https.
        mc_curl_setopt_long(
          curl, CURLOPT_POSTREDIR, Int(CURL_REDIR_POST_301 | CURL_REDIR_POST_302)),
        mc_curl_setopt_long(curl, CURLOPT_NOSIGNAL, 1),
        // An announced Content-Length over the cap fails before the body is read.
        mc_curl_setopt_off(curl, CURLOPT_MAXFILESIZE_LARGE, curl_off_t(options.maxBodyBytes)),
        mc_curl_setopt_long(curl, CURLOPT_TIMEOUT_MS, Int(options.timeout * 1000)),
        mc_curl_setopt_long(curl, CURLOPT_CONNECTTIMEOUT_MS, Int(min(options.timeout, 10) * 1000)),
        mc_curl_setopt_string(
          curl, CURLOPT_USERAGENT, "migrant-chat/\(MigrantChatVersion.current)"),
        mc_curl_setopt_string(curl, CURLOPT_ACCEPT_ENCODING, ""),
        mc_curl_setopt_slist(curl, CURLOPT_HTTPHEADER, headerList),
        mc_curl_setopt_write_function(curl, curlWriteBody),
        mc_curl_setopt_pointer(curl, CURLOPT_WRITEDATA, context),
        mc_curl_setopt_header_function(curl, curlWriteHeader),
        mc_curl_setopt_pointer(curl, CURLOPT_HEADERDATA, context),
        mc_curl_setopt_long(curl, CURLOPT_NOPROGRESS, 0),
        mc_curl_setopt_xferinfo_function(curl, curlProgress),
        mc_curl_setopt_pointer(curl, CURLOPT_XFERINFODATA, context),
        mc_curl_setopt_pointer(curl, CURLOPT_ERRORBUFFER, errorBuffer),
      ]
      if options.insecure {
        setup.append(mc_curl_setopt_long(curl, CURLOPT_SSL_VERIFYPEER, 0))
        setup.append(mc_curl_setopt_long(curl, CURLOPT_SSL_VERIFYHOST, 0))
      }
      if request.method == .post {
        // The body is handed to curl by a read callback, and curl may rewind it
        // only when no byte of it was sent, or after an answer (a redirect): a
        // kept-alive connection that closes without answering must not make
        // curl post the message again on a new one.
        transfer.upload = request.body ?? Data()
        setup += [
          mc_curl_setopt_long(curl, CURLOPT_POST, 1),
          mc_curl_setopt_off(
            curl, CURLOPT_POSTFIELDSIZE_LARGE, curl_off_t(transfer.upload.count)),
          mc_curl_setopt_read_function(curl, curlReadBody),
          mc_curl_setopt_pointer(curl, CURLOPT_READDATA, context),
          mc_curl_setopt_seek_function(curl, curlSeekBody),
          mc_curl_setopt_pointer(curl, CURLOPT_SEEKDATA, context),
        ]
      }
      if let failed = setup.first(where: { $0 != CURLE_OK }) {
        return .failure(.other(detail: String(cString: curl_easy_strerror(failed))))
      }

      let code = curl_easy_perform(curl)
      if code != CURLE_OK {
        let detail =
          errorBuffer.pointee != 0
          ? String(cString: errorBuffer) : String(cString: curl_easy_strerror(code))
        return .failure(Self.failure(for: code, detail: detail, transfer: transfer))
      }
      var status = 0
      guard mc_curl_getinfo_long(curl, CURLINFO_RESPONSE_CODE, &status) == CURLE_OK else {
        return .failure(.other(detail: "no HTTP status"))
      }
      return .success(HTTPResponse(status: status, headers: transfer.headers, body: transfer.body))
    }
  }

  private static func failure(for code: CURLcode, detail: String, transfer: Transfer) -> HTTPFailure
  {
    switch code {
    case CURLE_COULDNT_RESOLVE_HOST: return .hostNotFound
    case CURLE_COULDNT_CONNECT: return .connectionRefused
    case CURLE_OPERATION_TIMEDOUT: return .timedOut
    case CURLE_ABORTED_BY_CALLBACK: return .cancelled
    case CURLE_FILESIZE_EXCEEDED: return .bodyTooLarge
    case CURLE_WRITE_ERROR where transfer.tooLarge: return .bodyTooLarge
    // The first URL is checked to be http(s), so only a redirect can bring another scheme.
    case CURLE_UNSUPPORTED_PROTOCOL: return .redirectRefused
    case CURLE_TOO_MANY_REDIRECTS: return .tooManyRedirects
    case CURLE_PEER_FAILED_VERIFICATION: return .tlsVerification(detail: detail)
    // Nothing came back (closed, reset), or curl would have had to post the body again.
    case CURLE_GOT_NOTHING, CURLE_SEND_FAIL_REWIND, CURLE_RECV_ERROR, CURLE_SEND_ERROR:
      return .noAnswer
    case CURLE_PARTIAL_FILE: return .cutOff
    default: return .other(detail: detail)
    }
  }
}

/// One transfer's state, shared with curl's callbacks through `*DATA` options.
private final class Transfer: @unchecked Sendable {
  let limit: Int
  let cancelled = Atomic<Bool>(false)
  // Written only by curl's callbacks on the transfer's thread, read after it.
  var body = Data()
  var headers: [String: String] = [:]
  var tooLarge = false
  // The request body, and how much of it curl has taken.
  var upload = Data()
  var uploadOffset = 0
  // A status line arrived after the body was taken.
  var answered = false

  init(limit: Int) {
    self.limit = limit
  }
}

private let curlWriteBody: mc_curl_write_callback = { data, size, count, context in
  guard let data, let context else { return 0 }
  let transfer = Unmanaged<Transfer>.fromOpaque(context).takeUnretainedValue()
  let length = size * count
  if transfer.body.count + length > transfer.limit {
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
  let transfer = Unmanaged<Transfer>.fromOpaque(context).takeUnretainedValue()
  let length = size * count
  // Parsed as bytes: a String and Foundation's trimming per header line cost
  // a noticeable share of a turn.
  let line = UnsafeBufferPointer(
    start: UnsafeRawPointer(data).assumingMemoryBound(to: UInt8.self), count: length)
  if line.starts(with: "HTTP/".utf8) {
    transfer.answered = true
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

private let curlReadBody: mc_curl_read_callback = { buffer, size, count, context in
  guard let buffer, let context else { return 0 }
  let transfer = Unmanaged<Transfer>.fromOpaque(context).takeUnretainedValue()
  let length = min(size * count, transfer.upload.count - transfer.uploadOffset)
  guard length > 0 else { return 0 }
  transfer.upload.withUnsafeBytes { bytes in
    guard let base = bytes.baseAddress else { return }
    UnsafeMutableRawPointer(buffer).copyMemory(
      from: base + transfer.uploadOffset, byteCount: length)
  }
  transfer.uploadOffset += length
  transfer.answered = false
  return length
}

/// Rewinding is allowed before any byte of the body went out, and after an
/// answer (a redirect keeping the POST); never to re-send after silence.
private let curlSeekBody: mc_curl_seek_callback = { context, offset, origin in
  guard let context, offset == 0, origin == SEEK_SET else { return CURL_SEEKFUNC_CANTSEEK }
  let transfer = Unmanaged<Transfer>.fromOpaque(context).takeUnretainedValue()
  guard transfer.uploadOffset == 0 || transfer.answered else { return CURL_SEEKFUNC_CANTSEEK }
  transfer.uploadOffset = 0
  transfer.answered = false
  return CURL_SEEKFUNC_OK
}

private let curlProgress: mc_curl_xferinfo_callback = { context, _, _, _, _ in
  guard let context else { return 0 }
  let transfer = Unmanaged<Transfer>.fromOpaque(context).takeUnretainedValue()
  return transfer.cancelled.load(ordering: .relaxed) ? 1 : 0
}
