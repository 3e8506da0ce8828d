import PasskeyClient
import Testing

/// The passkey sheet's lifetime, with a scripted system in place of AuthenticationServices.
@Suite("System prompts end when their task is cancelled", .timeLimit(.minutes(5)))
@MainActor
struct SystemPromptTests {
    struct SystemFailure: Error {}

    /// The system: counts what it was asked, and answers a cancellation as it is told.
    @MainActor
    final class ScriptedSystem {
        var started = 0
        var cancelled = 0
        var answerToCancel: Result<String, any Error>?

        func waitUntilStarted() async {
            while started == 0 { await Task.yield() }
        }
    }

    static func show(_ prompt: SystemPrompt<String>, on system: ScriptedSystem) -> Task<String, any Error> {
        Task { @MainActor in
            try await prompt.run(start: { system.started += 1 }) {
                system.cancelled += 1
                if let answer = system.answerToCancel { prompt.answer(answer) }
            }
        }
    }

    @Test("the system's answer is the outcome, and nothing is cancelled")
    func answered() async throws {
        let prompt = SystemPrompt<String>()
        let system = ScriptedSystem()
        let task = Self.show(prompt, on: system)
        await system.waitUntilStarted()
        prompt.answer(.success("credential"))
        #expect(try await task.value == "credential")
        #expect(system.cancelled == 0)
    }

    @Test("cancelling the task cancels the prompt; the system's failure is reported as the cancellation")
    func cancelled() async {
        let prompt = SystemPrompt<String>()
        let system = ScriptedSystem()
        system.answerToCancel = .failure(SystemFailure())
        let task = Self.show(prompt, on: system)
        await system.waitUntilStarted()
        task.cancel()
        let result = await task.result
        #expect(system.cancelled == 1)
        #expect(throws: CancellationError.self) { try result.get() }
    }

    @Test("a credential the system returns after the cancellation is delivered, not thrown away")
    func lateCredential() async throws {
        let prompt = SystemPrompt<String>()
        let system = ScriptedSystem()
        system.answerToCancel = .success("made as the sheet closed")
        let task = Self.show(prompt, on: system)
        await system.waitUntilStarted()
        task.cancel()
        #expect(try await task.value == "made as the sheet closed")
        #expect(system.cancelled == 1)
    }

    @Test("a system that does not answer the cancellation is given up after the grace period")
    func silentSystem() async {
        let prompt = SystemPrompt<String>(grace: .milliseconds(50))
        let system = ScriptedSystem()
        let task = Self.show(prompt, on: system)
        await system.waitUntilStarted()
        task.cancel()
        let result = await task.result
        #expect(throws: CancellationError.self) { try result.get() }
        prompt.answer(.success("too late"))  // ignored: the prompt has ended
        #expect(system.cancelled == 1)
    }

    @Test("a task cancelled before the prompt starts never shows it")
    func cancelledBeforeStart() async {
        let prompt = SystemPrompt<String>()
        let system = ScriptedSystem()
        let task = Self.show(prompt, on: system)
        task.cancel()
        let result = await task.result
        #expect(throws: CancellationError.self) { try result.get() }
        #expect(system.started == 0)
    }
}
