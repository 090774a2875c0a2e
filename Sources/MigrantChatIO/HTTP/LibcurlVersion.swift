internal import CCurlLoader

/// The version of the libcurl this process runs with, for `--version`: libcurl
/// is loaded (if nothing has yet) and asked, so it is the library a connection
/// would use, wherever the dynamic loader found it.
public enum LibcurlVersion {
  /// "7.88.1", or nil when libcurl cannot be loaded.
  public static var runtime: String? {
    mc_curl_runtime_version().map { String(cString: $0) }
  }
}
