// swift-tools-version:6.1
import PackageDescription

let package = Package(
  name: "migrant-chat",
  platforms: [.macOS(.v15)],
  products: [
    .executable(name: "migrant-chat", targets: ["migrant-chat"])
  ],
  dependencies: [
    // Pinned exactly: git here does not keep Package.resolved (and this machine's package
    // copies carry their own commit ids, so that file would not resolve elsewhere).
    .package(url: "https://github.com/apple/swift-argument-parser", exact: "1.8.2"),
    .package(url: "https://github.com/jpsim/Yams", exact: "6.2.2"),
    .package(url: "https://github.com/groue/GRDB.swift", exact: "7.10.0"),
    // `serve`: Hummingbird 2 on SwiftNIO (llhttp's strict HTTP/1 framing, limits,
    // timeouts); its optional traits (TLS, configuration) are not built.
    .package(
      url: "https://github.com/hummingbird-project/hummingbird", exact: "2.28.1", traits: []),
    .package(url: "https://github.com/apple/swift-nio", exact: "2.101.3"),
    .package(url: "https://github.com/apple/swift-nio-extras", exact: "1.35.2"),
    .package(url: "https://github.com/swift-server/swift-service-lifecycle", exact: "2.13.0"),
    .package(url: "https://github.com/apple/swift-log", exact: "1.16.2"),
    .package(url: "https://github.com/HdrHistogram/hdrhistogram-swift", exact: "0.2.0"),
  ],
  targets: [
    // System libraries, wrapped by typed shims; imported only by MigrantChatIO.
    // No pkgConfig: its `-lcurl` would make every build load libcurl (and its 30
    // libraries) at start, offline too; CCurlLoader opens it on the first call instead.
    // The headers are in the default include path (Debian's /usr/include/<triple>/curl).
    .systemLibrary(
      name: "CCurl",
      providers: [.apt(["libcurl4-openssl-dev"])]
    ),
    // Every libcurl function the program (and the static FoundationNetworking) calls,
    // forwarded to libcurl.so.4, opened on the first call: see loader.c.
    .target(name: "CCurlLoader"),
    // main's arguments kept by a constructor, for where /proc is missing (see arguments.c),
    // and the thread id.
    .target(name: "CProcess"),

    // No pkgConfig: readline.pc adds feature macros that SwiftPM refuses with a warning.
    .systemLibrary(
      name: "CReadline",
      providers: [.apt(["libreadline-dev"])]
    ),

    // The git commit the build was made from (a header only; see its comment).
    .systemLibrary(name: "CBuildInfo"),

    // zlib, for the compressed histograms of `.hlog` interval logs.
    .systemLibrary(
      name: "CZlib",
      providers: [.apt(["zlib1g-dev"])]
    ),

    // Snowball stemmers (English, Russian) for search; no pkg-config file.
    .systemLibrary(
      name: "CStemmer",
      providers: [.apt(["libstemmer-dev"])]
    ),

    // The word-frequency tables typed lines are read with (made by Tools/wordfreq from
    // wordfreq's lists), included by the assembler from tables/ on the header path.
    .target(
      name: "CWordTables",
      exclude: ["tables"],
      cSettings: [.headerSearchPath("tables")]
    ),

    // The chat logic: Foundation only, no C modules, no terminal I/O.
    // `Locales` is a link to the top-level Locales/ folder; it, the sample data (marked
    // as such) and the place and map tables (`Geography`, made by Tools/geodata) are
    // embedded in the binary.
    .target(
      name: "MigrantChatCore",
      resources: [.embedInCode("Locales"), .embedInCode("SampleData"), .embedInCode("Geography")]
    ),

    // Adapters: libcurl transport, readline and stdin line readers, files, terminal.
    .target(
      name: "MigrantChatIO",
      dependencies: [
        "MigrantChatCore", "CCurl", "CCurlLoader", "CProcess", "CReadline", "CStemmer",
        "CBuildInfo", "CZlib", "CWordTables",
        .product(name: "Yams", package: "Yams"),
        .product(name: "GRDB", package: "GRDB.swift"),
        .product(name: "GRDBSQLite", package: "GRDB.swift"),
        .product(name: "Hummingbird", package: "hummingbird"),
        .product(name: "HummingbirdCore", package: "hummingbird"),
        .product(name: "NIOCore", package: "swift-nio"),
        .product(name: "NIOHTTPTypes", package: "swift-nio-extras"),
        .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
        .product(name: "Logging", package: "swift-log"),
        .product(name: "Histogram", package: "hdrhistogram-swift"),
      ]
    ),

    // The command: argument parsing and wiring only.
    .executableTarget(
      name: "migrant-chat",
      dependencies: [
        "MigrantChatCore", "MigrantChatIO",
        .product(name: "ArgumentParser", package: "swift-argument-parser"),
      ]
    ),

    // `make bench`: the in-process figures (directory, guidance, rendering, decoding).
    .executableTarget(
      name: "migrant-bench",
      dependencies: ["MigrantChatCore", "MigrantChatIO"],
      path: "Tests/Benchmarks/Bench"
    ),
    // `make bench`: the raw libcurl baseline the client's turn rate is compared with.
    .executableTarget(
      name: "turn-baseline",
      path: "Tests/Benchmarks/TurnBaseline",
      linkerSettings: [.linkedLibrary("curl")]
    ),

    .testTarget(
      name: "MigrantChatCoreTests",
      dependencies: ["MigrantChatCore", "TestSupport"],
      exclude: ["Goldens", "Todo/Fixtures", "Places/Fixtures"]
    ),
    .testTarget(
      name: "MigrantChatIOTests",
      dependencies: [
        "MigrantChatCore", "MigrantChatIO", "TestSupport",
      ],
      // The labelled search queries and the directory they run on, read by path.
      exclude: [
        "Search/test-directory.json", "Search/queries.tsv", "Search/heldout.tsv",
        "Search/round2.tsv", "Search/round2-heldout.tsv", "Search/round2-heldout-b.tsv",
        "Reading/genuine.tsv", "Reading/garbled.tsv", "Reading/SETS.md",
      ]
    ),
    // The command line's own code (the chat's quick parse against swift-argument-parser).
    .testTarget(
      name: "CommandLineTests",
      dependencies: ["migrant-chat", "TestSupport"]
    ),
    .testTarget(
      name: "EndToEndTests",
      dependencies: ["MigrantChatCore", "TestSupport"],
      exclude: ["Scripts"]
    ),
    // Loopback HTTP servers and process helpers shared by the test targets.
    .target(
      name: "TestSupport",
      path: "Tests/TestSupport"
    ),
  ]
)
