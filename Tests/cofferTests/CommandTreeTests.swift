import ArgumentParser
import Testing

@testable import coffer

@Suite("The command tree")
struct CommandTreeTests {
    /// Every command below `command`, depth first.
    static func descendants(of command: any ParsableCommand.Type) -> [any ParsableCommand.Type] {
        command.configuration.subcommands.flatMap { [$0] + descendants(of: $0) }
    }

    /// A command without `commandName` makes ArgumentParser derive its name from the type on every run, which scans
    /// the process's conformance records and slows every start.
    @Test(
        "every subcommand sets commandName, so no start pays for ArgumentParser deriving names from types"
    )
    func namedCommands() {
        let commands = Self.descendants(of: Coffer.self)
        #expect(commands.count > 20)
        let unnamed = commands.filter { $0.configuration.commandName == nil }.map { String(describing: $0) }
        #expect(unnamed.isEmpty, "commands without a commandName: \(unnamed)")
    }
}
