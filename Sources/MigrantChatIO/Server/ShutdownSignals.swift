import Dispatch
import Foundation

/// SIGINT and SIGTERM run `action` once (a clean shutdown) instead of killing the process.
public final class ShutdownSignals {
  private let sources: [any DispatchSourceSignal]

  public init(_ action: @escaping @Sendable () -> Void) {
    sources = [SIGINT, SIGTERM].map { number in
      signal(number, SIG_IGN)
      let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
      source.setEventHandler(handler: action)
      source.resume()
      return source
    }
  }

  public func cancel() {
    for source in sources { source.cancel() }
  }
}
