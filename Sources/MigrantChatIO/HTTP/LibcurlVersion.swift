internal import CCurlLoader

/// The version of the libcurl this process runs with, for `--version`, found
/// without loading libcurl and its 30 libraries when the file the first connection
/// would load is certain (see `Sources/CCurlLoader/version.c`).
public enum LibcurlVersion {
  /// "7.88.1", or nil when libcurl cannot be loaded.
  public static var runtime: String? {
    mc_curl_runtime_version().map { String(cString: $0) }
  }

  /// The file the dynamic loader's cache names for `name` (`libcurl.so.4`), when it
  /// names exactly one for this machine.
  public static func cachedPath(of name: String, cache: String = "/etc/ld.so.cache") -> String? {
    var path = [CChar](repeating: 0, count: 4096)
    guard mc_curl_cache_lookup(cache, name, &path, path.count) != 0 else { return nil }
    return text(of: path)
  }

  /// The version in the one `libcurl/VERSION` string of the library at `path`.
  public static func version(inLibrary path: String) -> String? {
    var version = [CChar](repeating: 0, count: 64)
    guard mc_curl_version_in_file(path, &version, version.count) != 0 else { return nil }
    return text(of: version)
  }

  /// The NUL-terminated text a C function wrote into `buffer`.
  private static func text(of buffer: [CChar]) -> String {
    String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
  }
}
