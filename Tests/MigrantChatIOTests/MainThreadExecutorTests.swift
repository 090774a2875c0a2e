import Foundation
import MigrantChatIO
import Testing

/// The chat's task on the thread that runs it (#50): its code, its child tasks and the
/// jobs other threads resume stay there; unstructured tasks go to Swift's pool.
@Suite struct MainThreadExecutorTests {
  /// Where each step of the operation ran: true when on the thread that called `run`.
  private struct Steps: Sendable, Equatable {
    var atStart = false
    var inAChildTask = false
    var afterAnotherThreadResumedIt = false
    var inAnUnstructuredTask = true
    var result = 0
  }

  @Test func theOperationRunsOnTheCallingThreadToItsEnd() async {
    let steps = await onAThreadOfItsOwn { caller in
      MainThreadExecutor.run { () async -> Steps in
        var steps = Steps()
        steps.atStart = pthread_equal(pthread_self(), caller) != 0
        async let child = pthread_equal(pthread_self(), caller) != 0
        steps.inAChildTask = await child
        // A continuation resumed by another thread: its job is enqueued from there.
        let value = await withCheckedContinuation { continuation in
          Thread { continuation.resume(returning: 42) }.start()
        }
        steps.afterAnotherThreadResumedIt = pthread_equal(pthread_self(), caller) != 0
        steps.inAnUnstructuredTask = await Task { pthread_equal(pthread_self(), caller) != 0 }.value
        steps.result = value
        return steps
      }
    }
    #expect(
      steps
        == Steps(
          atStart: true, inAChildTask: true, afterAnotherThreadResumedIt: true,
          inAnUnstructuredTask: false, result: 42))
  }

  /// Many jobs, enqueued from other threads while the operation waits: each runs, once.
  @Test func jobsFromManyThreadsAllRun() async {
    let total = await onAThreadOfItsOwn { _ in
      MainThreadExecutor.run { () async -> Int in
        await withTaskGroup(of: Int.self) { group in
          for index in 1...200 {
            group.addTask {
              await withCheckedContinuation { continuation in
                Thread { continuation.resume(returning: index) }.start()
              }
            }
          }
          return await group.reduce(0, +)
        }
      }
    }
    #expect(total == 200 * 201 / 2)
  }

  /// Runs `body` on a new thread (never blocking one of Swift's pool), with that thread.
  private func onAThreadOfItsOwn<Value: Sendable>(
    _ body: @escaping @Sendable (pthread_t) -> Value
  ) async -> Value {
    await withCheckedContinuation { continuation in
      Thread { continuation.resume(returning: body(pthread_self())) }.start()
    }
  }
}
