import Foundation
import IntranetTerminal

// The whole program lives in IntranetTerminal; this only hands it the process.
let status = await TerminalApp.run(Array(CommandLine.arguments.dropFirst()), context: .standard())
exit(status)
