import Foundation
import MigrantChatIO
import TestSupport
import Testing

/// `--version`'s libcurl, read from the file the loader would open: the cache look-up
/// and the version scan against the real system, and against files made to mislead.
@Suite struct LibcurlVersionTests {
  let directory = TemporaryDirectory()

  func write(_ bytes: [UInt8], to name: String) throws -> String {
    let path = directory.path + "/" + name
    try Data(bytes).write(to: URL(fileURLWithPath: path))
    return path
  }

  /// An ld.so.cache in glibc's layout: a 48-byte header, 24-byte entries, then the
  /// strings, with offsets from the start of the file.
  func cache(_ entries: [(flags: Int32, key: String, value: String, hwcap: UInt64)]) -> [UInt8] {
    let stringsStart = 48 + 24 * entries.count
    var strings: [UInt8] = []
    var table: [UInt8] = []
    func little<T: FixedWidthInteger>(_ value: T) -> [UInt8] {
      withUnsafeBytes(of: value.littleEndian) { Array($0) }
    }
    for entry in entries {
      let key = UInt32(stringsStart + strings.count)
      strings += Array(entry.key.utf8) + [0]
      let value = UInt32(stringsStart + strings.count)
      strings += Array(entry.value.utf8) + [0]
      table += little(entry.flags) + little(key) + little(value) + little(UInt32(0))
      table += little(entry.hwcap)
    }
    var header = Array("glibc-ld.so.cache1.1".utf8)
    header += little(UInt32(entries.count)) + little(UInt32(strings.count))
    header += [2, 0, 0, 0] + little(UInt32(0)) + [UInt8](repeating: 0, count: 12)
    return header + table + strings
  }

  #if arch(x86_64)
    let native: Int32 = 0x0303
  #else
    let native: Int32 = 0x0a03
  #endif

  @Test func theSystemCacheNamesTheLibcurlThisProcessLoaded() throws {
    let path = try #require(LibcurlVersion.cachedPath(of: "libcurl.so.4"))
    // The test binary links libcurl, so this asks the loaded library.
    let asked = try #require(LibcurlVersion.runtime)
    // Read to the end: /proc files have no size, and String(contentsOfFile:) stops at a page.
    let handle = try #require(FileHandle(forReadingAtPath: "/proc/self/maps"))
    let maps = String(decoding: try handle.readToEnd() ?? Data(), as: UTF8.self)
    let loaded = try #require(
      maps.split(separator: "\n").compactMap { $0.split(separator: " ").last }
        .first { $0.contains("/libcurl.so.4") })
    func real(_ path: some StringProtocol) -> String {
      URL(fileURLWithPath: String(path)).resolvingSymlinksInPath().path
    }
    #expect(real(path) == real(loaded))
    // What the file says of itself is what the loaded library reports.
    let read = try #require(LibcurlVersion.version(inLibrary: path))
    #expect(read == asked)
    #expect(read.first?.isNumber == true && read.contains("."))
  }

  @Test func aCacheEntryIsFoundByNameAndKind() throws {
    let path = try write(
      cache([
        (1, "libcurl.so.4", "/elsewhere/libcurl.so.4", 0),
        (native, "libcurl.so.3", "/lib/libcurl.so.3", 0),
        (native, "libcurl.so.4", "/lib/here/libcurl.so.4", 0),
      ]), to: "ld.so.cache")
    #expect(LibcurlVersion.cachedPath(of: "libcurl.so.4", cache: path) == "/lib/here/libcurl.so.4")
    #expect(LibcurlVersion.cachedPath(of: "libcurl.so", cache: path) == nil)
    // The same file named twice is still one answer.
    let twice = try write(
      cache([
        (native, "libcurl.so.4", "/lib/libcurl.so.4", 0),
        (native, "libcurl.so.4", "/lib/libcurl.so.4", 0),
      ]), to: "twice")
    #expect(LibcurlVersion.cachedPath(of: "libcurl.so.4", cache: twice) == "/lib/libcurl.so.4")
  }

  @Test func anUncertainCacheAnswersNothing() throws {
    let twoFiles = try write(
      cache([
        (native, "libcurl.so.4", "/a/libcurl.so.4", 0),
        (native, "libcurl.so.4", "/b/libcurl.so.4", 0),
      ]), to: "two")
    let hwcaps = try write(
      cache([
        (native, "libcurl.so.4", "/lib/glibc-hwcaps/x86-64-v3/libcurl.so.4", 1 << 62),
        (native, "libcurl.so.4", "/lib/libcurl.so.4", 0),
      ]), to: "hwcaps")
    let hwcapsOnly = try write(
      cache([(native, "libcurl.so.4", "/lib/glibc-hwcaps/x86-64-v3/libcurl.so.4", 1 << 62)]),
      to: "hwcaps-only")
    var truncated = cache([(native, "libcurl.so.4", "/lib/libcurl.so.4", 0)])
    truncated.removeLast(30)
    var overCounted = cache([(native, "libcurl.so.4", "/lib/libcurl.so.4", 0)])
    overCounted[20] = 0xff
    var badMagic = cache([(native, "libcurl.so.4", "/lib/libcurl.so.4", 0)])
    badMagic[0] = UInt8(ascii: "x")
    var keyOutside = cache([(native, "libcurl.so.4", "/lib/libcurl.so.4", 0)])
    keyOutside[48 + 4] = 0xff
    keyOutside[48 + 5] = 0xff
    for path in [
      twoFiles, hwcaps, hwcapsOnly, try write(truncated, to: "truncated"),
      try write(overCounted, to: "count"),
      try write(badMagic, to: "magic"), try write(keyOutside, to: "key"),
      try write([], to: "empty"), directory.path + "/missing", directory.path,
    ] {
      #expect(LibcurlVersion.cachedPath(of: "libcurl.so.4", cache: path) == nil, "\(path)")
    }
  }

  @Test func theVersionIsTheOneLibcurlStringOfTheFile() throws {
    func library(_ text: String) throws -> String? {
      let path = try write(Array(text.utf8), to: "lib-\(UUID().uuidString)")
      return LibcurlVersion.version(inLibrary: path)
    }
    #expect(try library("\u{7f}ELF\0\0libcurl/8.5.0\0tail") == "8.5.0")
    #expect(try library("libcurl/7.88.1-DEV\0x\0libcurl/7.88.1-DEV\0") == "7.88.1-DEV")
    // A format, a user agent's prefix, a path: not the version string.
    #expect(try library("libcurl/%s\0libcurl/\0mylibcurl/x\0libcurl/8.5.0\0") == "8.5.0")
    #expect(try library("libcurl/7.1 extra\0libcurl/8.5.0\0") == "8.5.0")
    #expect(try library("xlibcurl/7.1\0libcurl/8.5.0\0") == "8.5.0")
    // Two different versions, none, or one cut off by the end of the file: nothing.
    #expect(try library("libcurl/8.5.0\0libcurl/8.6.0\0") == nil)
    #expect(try library("libcurl/%s\0curl 8.5.0\0") == nil)
    #expect(try library("libcurl/8.5.0") == nil)
    #expect(try library("libcurl/\(String(repeating: "9", count: 80))\0") == nil)
    #expect(LibcurlVersion.version(inLibrary: directory.path + "/missing") == nil)
    #expect(LibcurlVersion.version(inLibrary: try write([], to: "empty")) == nil)
  }
}
